import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { AgentList } from "@/components/agents/AgentList";
import { Alert, TableSkeleton } from "@/components/ui";
import { agents, COMPANY_ID, NOW } from "../sample-data";

const meta = {
  title: "Agents/AgentList",
  component: AgentList,
  args: { companyId: COMPANY_ID, agents, now: NOW },
} satisfies Meta<typeof AgentList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = { args: { agents: [] } };
export const Loading: Story = {
  render: () => <TableSkeleton rows={3} columns={4} label="Loading agents…" />,
};
export const LoadError: Story = {
  render: () => (
    <Alert tone="danger" title="Could not load agents" code="DB_UNAVAILABLE">
      The database did not respond. Reload the page to try again.
    </Alert>
  ),
};
