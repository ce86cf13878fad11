import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { ApplicationsManager } from "@/components/tools-access/ApplicationsManager";
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

export const Empty: Story = {
  args: { initialApplications: [] },
  decorators: [withGatewayApi({})],
};

export const ReadOnly: Story = { args: { canEdit: false } };

/** Archiving is final, so it asks first. */
export const ConfirmArchive: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getAllByTestId("app-archive")[0]!);
  },
};

/** The slug suggestion follows the name until the slug is typed by hand. */
export const CreateFilled: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByTestId("app-create-name"), "Jira Cloud");
    await userEvent.selectOptions(canvas.getByTestId("app-create-type"), "mcp_http");
  },
};

/** The server refuses a slug that is taken; its message and code are shown. */
export const CreateError: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByTestId("app-create-name"), "GitHub again");
    await userEvent.clear(canvas.getByTestId("app-create-slug"));
    await userEvent.type(canvas.getByTestId("app-create-slug"), "github");
    await userEvent.click(canvas.getByTestId("app-create-submit"));
    await canvas.findByText("an application with slug `github` already exists");
  },
};

/** A slug the server would refuse is caught before sending. */
export const CreateInvalidSlug: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByTestId("app-create-name"), "Files");
    await userEvent.clear(canvas.getByTestId("app-create-slug"));
    await userEvent.type(canvas.getByTestId("app-create-slug"), "9 Files");
    await userEvent.click(canvas.getByTestId("app-create-submit"));
  },
};
