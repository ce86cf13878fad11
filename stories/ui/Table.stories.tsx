import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Badge, Table, TableSkeleton, TBody, TD, TH, THead, TR } from "@/components/ui";

const meta = {
  title: "UI/Table",
  component: Table,
} satisfies Meta<typeof Table>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Basic: Story = {
  render: () => (
    <Table>
      <THead>
        <TR>
          <TH>Application</TH>
          <TH>Actions</TH>
          <TH>Status</TH>
        </TR>
      </THead>
      <TBody>
        <TR>
          <TD className="font-medium text-zinc-900">GitHub</TD>
          <TD>14</TD>
          <TD>
            <Badge tone="success">Connected</Badge>
          </TD>
        </TR>
        <TR>
          <TD className="font-medium text-zinc-900">Linear</TD>
          <TD>9</TD>
          <TD>
            <Badge tone="warning">Needs credentials</Badge>
          </TD>
        </TR>
      </TBody>
    </Table>
  ),
};

export const Loading: Story = {
  render: () => <TableSkeleton rows={4} columns={3} />,
};
