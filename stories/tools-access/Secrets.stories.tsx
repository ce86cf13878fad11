import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { SecretsManager } from "@/components/tools-access/SecretsManager";
import { click, clickFirst, findTestId, findText, steps, typeInto } from "../support/play";
import { seeded } from "../support/states";
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

export const Empty: Story = seeded({ initialSecrets: [] }, withGatewayApi({}));

export const ReadOnly: Story = { args: { canEdit: false } };

/** Versions and the connections that use the secret. */
export const Details: Story = {
  play: steps(clickFirst("secret-details"), findTestId("secret-details-panel")),
};

export const AddVersion: Story = {
  play: steps(clickFirst("secret-add-version")),
};

/** Revoking is final and breaks the connections bound to it, so it asks first. */
export const ConfirmRevoke: Story = {
  play: steps(clickFirst("secret-revoke")),
};

/** After sending, the value field is empty again and the value is never shown. */
export const Created: Story = {
  play: steps(
    typeInto("secret-create-name", "linear api key"),
    typeInto("secret-create-value", "lin_api_0123456789abcdef"),
    click("secret-create-submit"),
    findTestId("secret-create-done"),
  ),
};

/** Names of revoked secrets stay reserved; the server says so. */
export const CreateNameTaken: Story = {
  play: steps(
    typeInto("secret-create-name", "MAIL_RELAY_KEY"),
    typeInto("secret-create-value", "new-value"),
    click("secret-create-submit"),
    findText(/names of revoked secrets stay reserved/),
  ),
};
