import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { userEvent, within } from "storybook/test";
import { SecretsManager } from "@/components/tools-access/SecretsManager";
import { COMPANY_ID, NOW } from "./fixtures";
import { bindingRecords, connections, secretRecords, secrets } from "./gateway-fixtures";
import { type GatewayMockOptions, withGatewayApi } from "./gateway-mock-api";

const api: GatewayMockOptions = { secrets: secretRecords, bindings: bindingRecords, connections };

const meta = {
  title: "Tools & Access/Secrets",
  component: SecretsManager,
  args: { companyId: COMPANY_ID, canEdit: true, initialSecrets: secrets, now: NOW },
  decorators: [withGatewayApi(api)],
} satisfies Meta<typeof SecretsManager>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Metadata only; works against an in-memory API (create, add version, revoke). */
export const Loaded: Story = {};

export const Empty: Story = {
  args: { initialSecrets: [] },
  decorators: [withGatewayApi({})],
};

export const ReadOnly: Story = { args: { canEdit: false } };

/** Versions and the connections that use the secret. */
export const Details: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getAllByTestId("secret-details")[0]!);
    await canvas.findByTestId("secret-details-panel");
  },
};

export const AddVersion: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getAllByTestId("secret-add-version")[0]!);
  },
};

/** Revoking is final and breaks the connections bound to it, so it asks first. */
export const ConfirmRevoke: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getAllByTestId("secret-revoke")[0]!);
  },
};

/** After sending, the value field is empty again and the value is never shown. */
export const Created: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByTestId("secret-create-name"), "linear api key");
    await userEvent.type(canvas.getByTestId("secret-create-value"), "lin_api_0123456789abcdef");
    await userEvent.click(canvas.getByTestId("secret-create-submit"));
    await canvas.findByTestId("secret-create-done");
  },
};

/** Names of revoked secrets stay reserved; the server says so. */
export const CreateNameTaken: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByTestId("secret-create-name"), "MAIL_RELAY_KEY");
    await userEvent.type(canvas.getByTestId("secret-create-value"), "new-value");
    await userEvent.click(canvas.getByTestId("secret-create-submit"));
    await canvas.findByText(/names of revoked secrets stay reserved/);
  },
};
