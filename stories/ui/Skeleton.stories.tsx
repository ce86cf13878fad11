import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Card, CardBody, Skeleton, Spinner, TableSkeleton } from "@/components/ui";

const meta = {
  title: "UI/Skeleton",
  component: Skeleton,
} satisfies Meta<typeof Skeleton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Blocks: Story = {
  render: () => (
    <Card className="max-w-md">
      <CardBody className="space-y-3">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="w-full" />
        <Skeleton className="w-5/6" />
        <Skeleton className="w-2/3" />
      </CardBody>
    </Card>
  ),
};

export const TablePlaceholder: Story = {
  render: () => <TableSkeleton rows={5} columns={5} />,
};

export const Spinners: Story = {
  render: () => (
    <div className="flex items-center gap-4">
      <Spinner size="sm" />
      <Spinner size="md" />
      <Spinner size="lg" label="Loading runs" />
    </div>
  ),
};
