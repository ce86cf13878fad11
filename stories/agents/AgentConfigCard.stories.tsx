import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { AgentConfigCard } from "@/components/agents/AgentConfigCard";
import { COMPANY_ID } from "../sample-data";
import { inWidth } from "../support/layout";

const SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const agents = { path: "AGENTS.md", versioned: true, revision: 3, sha256: SHA };
const legacy = { path: "promptTemplate.legacy.md", versioned: false, revision: null, sha256: SHA };

const meta = {
  title: "Agents/AgentConfigCard",
  component: AgentConfigCard,
  decorators: [inWidth("max-w-3xl")],
  args: {
    config: { model: "claude-sonnet-4-5", monthlyBudgetCents: 25_000, instructions: [agents, legacy] },
    selected: { ...agents, body: "# Rules\n\n- Answer in the issue thread.\n- Never push to main.\n" },
    canManage: true,
    pageHref: `/c/${COMPANY_ID}/agents/agent-1`,
    action: fn(async () => ({})),
  },
} satisfies Meta<typeof AgentConfigCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Admin: Story = {};

export const ReadOnly: Story = { args: { canManage: false } };

/** The legacy template selected: read-only, with the migrate button for admins. */
export const Legacy: Story = { args: { selected: { ...legacy, body: "You are {{agent.name}}." } } };

/** A fresh agent: no model, no budget, no instruction files yet. */
export const Empty: Story = {
  args: { config: { model: null, monthlyBudgetCents: null, instructions: [] }, selected: null },
};

/** A save based on an old revision: the server refused it. */
export const Conflict: Story = {
  args: {
    action: fn(async () => ({
      error: "`AGENTS.md` changed since the revision the edit was based on; read it again",
    })),
  },
};
