import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { AgentList } from "@/components/agents/AgentList";
import { IssueList } from "@/components/issues/IssueList";
import { RunList } from "@/components/runs/RunList";
import { Badge, Button } from "@/components/ui";
import { HeaderRow, Table, TBody, TD, TR } from "@/components/ui/Table";
import { agents, COMPANY_ID, issues, NOW, runs } from "../sample-data";
import { atPhoneWidth } from "../support/viewports";

/**
 * `Table stacked`: below 768 px each row becomes a block, each value cell shows its column's
 * heading (`data-label`) before the value, and nothing scrolls sideways.
 */
function Example() {
  const rows = [
    { name: "Production GitHub with a rather long connection name", status: "Ready", tools: 42 },
    { name: "Linear", status: "Needs a secret", tools: 0 },
  ];
  return (
    <Table stacked data-testid="stacked-example">
      <HeaderRow columns={["Name", "Status", { label: "Tools", className: "text-right" }]} actions />
      <TBody>
        {rows.map((row) => (
          <TR key={row.name}>
            <TD data-label="Name" className="font-medium text-zinc-900">
              {row.name}
            </TD>
            <TD data-label="Status">
              <Badge tone={row.tools ? "success" : "warning"}>{row.status}</Badge>
            </TD>
            <TD data-label="Tools" className="text-right tabular-nums">
              {row.tools}
            </TD>
            <TD className="text-right">
              <Button variant="ghost" size="sm">
                Open
              </Button>
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

const meta = {
  title: "UI/StackedTable",
  component: Example,
  parameters: { layout: "padded" },
} satisfies Meta<typeof Example>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Wide: Story = {};
export const Narrow: Story = { ...atPhoneWidth };
export const NarrowAgents: Story = {
  ...atPhoneWidth,
  render: () => <AgentList companyId={COMPANY_ID} agents={agents} now={NOW} />,
};
export const NarrowIssues: Story = {
  ...atPhoneWidth,
  render: () => <IssueList companyId={COMPANY_ID} issues={issues} now={NOW} />,
};
export const NarrowRuns: Story = {
  ...atPhoneWidth,
  render: () => <RunList companyId={COMPANY_ID} runs={runs} now={NOW} />,
};
