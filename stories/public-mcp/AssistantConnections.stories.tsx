import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, within } from "storybook/test";
import { ConsentForm } from "@/components/public-mcp/ConsentForm";
import type { ConsentView } from "@/server/contracts/public-mcp";
import { failure, withFetch } from "./mock-fetch";

const ACME = "11111111-1111-4111-8111-111111111111";
const GLOBEX = "22222222-2222-4222-8222-222222222222";

const view: ConsentView = {
  kind: "browser",
  requestId: "33333333-3333-4333-8333-333333333333",
  client: {
    name: "Claude Code",
    selfReported: true,
    origin: "http://127.0.0.1:33418",
    logo: null,
    clientId: "pcci_example",
  },
  scopes: ["paperclip:read", "paperclip:write", "offline_access"],
  wantsWrite: true,
  pinnedCompanyId: null,
  organizations: [
    { id: ACME, name: "Acme", role: "owner", available: true, canWrite: true, writeDisabledReason: null },
    {
      id: GLOBEX,
      name: "Globex",
      role: "viewer",
      available: true,
      canWrite: false,
      writeDisabledReason: "Your role in Globex (viewer) can only read.",
    },
  ],
  expiresAt: "2026-12-02T06:10:00.000Z",
};

const meta = {
  title: "Assistant connections/Consent",
  component: ConsentForm,
  args: { view },
  parameters: { layout: "padded" },
  decorators: [withFetch(() => ({ status: 200, body: { redirectTo: "about:blank" } }))],
} satisfies Meta<typeof ConsentForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Two organizations; write checked by default for the owner's. */
export const Default: Story = {};

/** Only a read-only role: write is disabled, with the reason. */
export const ReadOnlyRole: Story = {
  args: { view: { ...view, organizations: [view.organizations[1]!] } },
};

export const NoOrganizations: Story = { args: { view: { ...view, organizations: [] } } };

/** `company_id` pinned to an organization you can use: the picker is fixed. */
export const PinnedOrganization: Story = {
  args: { view: { ...view, pinnedCompanyId: ACME, organizations: [view.organizations[0]!] } },
};

/** Pinned to a deleted or inaccessible organization: unavailable, never a fallback. */
export const UnavailableOrganization: Story = {
  args: {
    view: {
      ...view,
      pinnedCompanyId: GLOBEX,
      organizations: [
        {
          id: GLOBEX,
          name: "Unavailable organization",
          role: null,
          available: false,
          canWrite: false,
          writeDisabledReason: null,
        },
      ],
    },
  },
};

export const FailedSave: Story = {
  decorators: [withFetch(() => failure("internal_error", "internal error"))],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("consent-connect"));
    await canvas.findByRole("alert");
  },
};

/** Unchecking write is an opt-out that survives switching organizations and back. */
export const OrganizationSwitchKeepsOptOut: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const write = canvas.getByTestId("consent-write") as HTMLInputElement;
    await expect(write.checked).toBe(true);
    await userEvent.click(write);
    await userEvent.selectOptions(canvas.getByTestId("consent-org"), GLOBEX);
    await expect((canvas.getByTestId("consent-write") as HTMLInputElement).disabled).toBe(true);
    await userEvent.selectOptions(canvas.getByTestId("consent-org"), ACME);
    await expect((canvas.getByTestId("consent-write") as HTMLInputElement).checked).toBe(false);
  },
};
