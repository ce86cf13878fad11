import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { ConnectionDetail } from "@/components/tools-access/ConnectionDetail";
import { click, findTestId, findText, steps, typeInto } from "../support/play";
import { COMPANY_ID, NOW } from "./fixtures";
import {
  activeConnection,
  archivedConnection,
  disabledConnection,
  draftConnection,
  healthErrorConnection,
  missingSecretConnection,
} from "./gateway-fixtures";
import { connectionsWorld, withGatewayApi } from "./gateway-mock-api";

const meta = {
  title: "Tools & Access/ConnectionDetail",
  component: ConnectionDetail,
  args: { companyId: COMPANY_ID, canEdit: true, connection: activeConnection, now: NOW },
  decorators: [withGatewayApi(connectionsWorld)],
} satisfies Meta<typeof ConnectionDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Active and healthy, with two quarantined tools (one changed since its review) waiting for review. */
export const QuarantinedEntries: Story = {};

/** Both quarantined and disabled tools selected, ready to approve or disable. */
export const ReviewSelection: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(await within(canvasElement).findByTestId("catalog-select-all"));
  },
};

/** "What changed" opened on the tool that changed since its review. */
export const QuarantinedDiff: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const row = (await canvas.findAllByTestId("catalog-row")).find(
      (r) => r.dataset.name === "merge_pull_request",
    );
    if (!row) throw new Error("merge_pull_request row missing");
    await userEvent.click(within(row).getByTestId("catalog-diff-toggle"));
    const diff = await canvas.findByTestId("catalog-diff");
    await expect(diff).toHaveAttribute("data-state", "changed");
    await expect(within(diff).getByTestId("catalog-diff-schema-added")).toHaveTextContent(
      "/properties/deleteBranch",
    );
  },
};

/** A new Draft: nothing tested, no catalog yet, nothing exposed. */
export const Draft: Story = { args: { connection: draftConnection } };

/** Enable before it is ready: the server's 409 `connection_not_ready` lists what is missing. */
export const DraftNotReady: Story = {
  args: { connection: draftConnection },
  play: steps(click("connection-enable"), findTestId("connection-not-ready")),
};

/** The whole lifecycle against the in-memory API: test, refresh, approve everything, enable. */
export const DraftToActive: Story = {
  args: { connection: draftConnection },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("connection-test"));
    await canvas.findByText("Latency");
    await userEvent.click(canvas.getByTestId("connection-refresh"));
    await canvas.findByTestId("connection-refresh-result");
    await userEvent.click(await canvas.findByTestId("catalog-select-all"));
    await userEvent.click(canvas.getByTestId("catalog-approve"));
    await waitFor(() => expect(canvas.queryByTestId("catalog-approve")).toBeNull());
    await userEvent.click(canvas.getByTestId("connection-enable"));
    await canvas.findByTestId("connection-enabled");
  },
};

/** A revoked secret is still bound: health says "missing secret", the binding is red. */
export const MissingSecret: Story = { args: { connection: missingSecretConnection } };

export const DisabledWithReason: Story = { args: { connection: disabledConnection } };

/** The last test failed; the error text is shown. */
export const HealthError: Story = { args: { connection: healthErrorConnection } };

/** A loopback upstream, seen by an instance admin: the hint links to Private upstreams. */
export const LoopbackBlockedInstanceAdmin: Story = {
  args: {
    connection: {
      ...healthErrorConnection,
      healthError: "upstream_blocked: 127.0.0.1 is a loopback address",
    },
    instanceSettingsHref: `/c/${COMPANY_ID}/settings/instance`,
  },
  play: steps(findTestId("private-upstream-link")),
};

/** The same for a company admin who is not an instance admin: "ask your instance operator". */
export const LoopbackBlockedCompanyAdmin: Story = {
  args: {
    connection: {
      ...healthErrorConnection,
      healthError: "upstream_blocked: 127.0.0.1 is a loopback address",
    },
  },
  play: steps(findText(/Ask your instance operator/)),
};

export const Archived: Story = { args: { connection: archivedConnection } };

export const ReadOnly: Story = { args: { canEdit: false } };

/** Disabling asks for an optional reason. */
export const DisableWithReason: Story = {
  play: steps(
    click("connection-disable"),
    typeInto("connection-disable-dialog-note", "rotating the GitHub token"),
  ),
};

export const ConfirmArchive: Story = {
  play: steps(click("connection-archive")),
};

/** A credential typed into the headers is refused with `inline_secret`. */
export const EditInlineSecret: Story = {
  play: steps(
    click("connection-edit"),
    typeInto("connection-edit-headers", "\nX-Api-Key: 0123456789abcdef"),
    click("connection-edit-submit"),
    findText("These settings hold a credential"),
  ),
};

/** Bind another secret: choose it, the header and a prefix. */
export const AddBinding: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const select = await canvas.findByTestId("binding-secret");
    await canvas.findByRole("option", { name: "JIRA_TOKEN" });
    await userEvent.selectOptions(select, "sec-jira");
    await userEvent.type(canvas.getByTestId("binding-target"), "X-Jira-Token");
  },
};

/** The test itself fails upstream. */
export const TestFails: Story = {
  decorators: [
    withGatewayApi({
      ...connectionsWorld,
      testOutcomes: {
        [activeConnection.id]: { health: "error", error: "upstream_timeout: no answer within 30000 ms" },
      },
    }),
  ],
  play: steps(click("connection-test"), findTestId("connection-health-error")),
};
