import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { ApplicationsManager } from "@/components/tools-access/ApplicationsManager";
import { choose, clear, click, clickFirst, findText, steps, typeInto } from "../support/play";
import { seeded } from "../support/states";
import { COMPANY_ID } from "./fixtures";
import { applicationRecords, applications, catalogs, connections } from "./gateway-fixtures";
import { withGatewayApi } from "./gateway-mock-api";

const api = { applications: applicationRecords, connections, catalogs };

const meta = {
  title: "Tools & Access/Applications",
  component: ApplicationsManager,
  args: { companyId: COMPANY_ID, canEdit: true, initialApplications: applications },
  decorators: [withGatewayApi(api)],
} satisfies Meta<typeof ApplicationsManager>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Works against an in-memory API: create and archive applications. Names link to their connections. */
export const Loaded: Story = {};

export const Empty: Story = seeded({ initialApplications: [] }, withGatewayApi({}));

export const ReadOnly: Story = { args: { canEdit: false } };

/** Archiving is final, so it asks first. */
export const ConfirmArchive: Story = {
  play: steps(clickFirst("app-archive")),
};

/** The slug suggestion follows the name until the slug is typed by hand. */
export const CreateFilled: Story = {
  play: steps(typeInto("app-create-name", "Jira Cloud"), choose("app-create-type", "mcp_http")),
};

/** The server refuses a slug that is taken; its message and code are shown. */
export const CreateError: Story = {
  play: steps(
    typeInto("app-create-name", "GitHub again"),
    clear("app-create-slug"),
    typeInto("app-create-slug", "github"),
    click("app-create-submit"),
    findText("an application with slug `github` already exists"),
  ),
};

/** A slug the server would refuse is caught before sending. */
export const CreateInvalidSlug: Story = {
  play: steps(
    typeInto("app-create-name", "Files"),
    clear("app-create-slug"),
    typeInto("app-create-slug", "9 Files"),
    click("app-create-submit"),
  ),
};
