import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { AgentDetail } from "@/components/agents/AgentDetail";
import { Card, CardBody, Skeleton } from "@/components/ui";
import { agentRuns, agents, COMPANY_ID, NOW } from "../sample-data";
import { errorStory } from "../support/states";

const meta = {
  title: "Agents/AgentDetail",
  component: AgentDetail,
  args: { companyId: COMPANY_ID, agent: agents[0]!, runs: agentRuns, now: NOW },
} satisfies Meta<typeof AgentDetail>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const NeverRun: Story = { args: { agent: agents[2]!, runs: [] } };
export const Loading: Story = {
  render: () => (
    <div role="status" className="space-y-6">
      <span className="sr-only">Loading agent…</span>
      <Skeleton className="h-7 w-56" />
      <Card>
        <CardBody className="space-y-3">
          <Skeleton className="w-1/3" />
          <Skeleton />
          <Skeleton className="w-2/3" />
        </CardBody>
      </Card>
    </div>
  ),
};
export const NotFound: Story = errorStory(
  "Agent not found",
  "NOT_FOUND",
  "This agent does not exist or belongs to another company.",
);
