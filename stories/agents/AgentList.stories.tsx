import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { AgentList } from "@/components/agents/AgentList";
import { agents, COMPANY_ID, NOW } from "../sample-data";
import { databaseErrorStory, tableLoadingStory } from "../support/states";

const meta = {
  title: "Agents/AgentList",
  component: AgentList,
  args: { companyId: COMPANY_ID, agents, now: NOW },
} satisfies Meta<typeof AgentList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = { args: { agents: [] } };
export const Loading: Story = tableLoadingStory(3, 4, "Loading agents…");
export const LoadError: Story = databaseErrorStory("agents");
