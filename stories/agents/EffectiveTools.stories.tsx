import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, within } from "storybook/test";
import { EffectiveTools, type HiddenTool } from "@/components/agents/EffectiveTools";
import { inWidth } from "../support/layout";
import { effectiveProfiles, effectiveTools } from "../tools-access/fixtures";

const hiddenTools: HiddenTool[] = [
  {
    catalogEntryId: "ce-gh-delete",
    toolName: "github__delete_repo",
    applicationName: "GitHub",
    connectionName: "acme-robotics org",
    risk: "destructive",
    reasonCode: "not_in_profile",
    reasons: ["no profile that applies includes this tool (default deny)"],
  },
  {
    catalogEntryId: "ce-gh-new",
    toolName: "github__merge_pull",
    applicationName: "GitHub",
    connectionName: "acme-robotics org",
    risk: "write",
    reasonCode: "tool_quarantined",
    reasons: ["the tool is quarantined until an admin reviews it"],
  },
  {
    catalogEntryId: "ce-mail-purge",
    toolName: "mail__purge",
    applicationName: "Outbound mail",
    connectionName: "ops@ mailbox",
    risk: "destructive",
    reasonCode: "policy_block",
    reasons: ["blocked by policy `No purges`"],
  },
  {
    catalogEntryId: "ce-crm-list",
    toolName: "crm__list_contacts",
    applicationName: "CRM",
    connectionName: "CRM (sandbox)",
    risk: "read",
    reasonCode: "connection_disabled",
    reasons: ["the connection is `active` and not enabled"],
  },
];

const meta = {
  title: "Agents/EffectiveTools",
  component: EffectiveTools,
  args: { profiles: [], tools: [], hiddenCount: 0 },
  decorators: [inWidth("max-w-5xl")],
} satisfies Meta<typeof EffectiveTools>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const WithTools: Story = {
  args: { profiles: effectiveProfiles, tools: effectiveTools, hiddenCount: 4 },
};

export const ProfilesButNoTools: Story = {
  args: { profiles: effectiveProfiles.slice(0, 1), tools: [], hiddenCount: 12 },
};

/** Grouped by connection; the search narrows both lists; each hidden tool says why. */
export const SearchAndHiddenTools: Story = {
  args: {
    profiles: effectiveProfiles,
    tools: effectiveTools,
    hiddenCount: hiddenTools.length,
    hidden: hiddenTools,
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByTestId("effective-tool-group").map((g) => g.dataset.group)).toContain(
      "acme-robotics org",
    );
    await userEvent.type(canvas.getByTestId("effective-tools-search"), "github");
    for (const row of canvas.getAllByTestId("effective-tool-row")) {
      await expect(row.dataset.toolName).toMatch(/^github__/);
    }
    await userEvent.click(canvas.getByText(/more tools are hidden/));
    const hidden = canvas.getAllByTestId("effective-hidden-row");
    await expect(hidden.map((r) => r.dataset.reason)).toEqual(["not_in_profile", "tool_quarantined"]);
    await expect(hidden[1]).toHaveTextContent("Waiting for review (quarantined)");
  },
};

/** A tool of an `oauth_user` connection says it acts as the run's person (who must have linked their account). */
export const PersonGrantTools: Story = {
  args: { profiles: effectiveProfiles, tools: effectiveTools, hiddenCount: 0 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const badges = canvas.getAllByTestId("effective-tool-person-grant");
    await expect(badges).toHaveLength(1);
    await expect(badges[0]!.closest("[data-tool-name]")?.getAttribute("data-tool-name")).toBe(
      "linear__create_issue",
    );
  },
};
