import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { RunList } from "@/components/runs/RunList";
import { Alert, TableSkeleton } from "@/components/ui";
import { COMPANY_ID, NOW, runs } from "../sample-data";

const meta = {
  title: "Runs/RunList",
  component: RunList,
  args: { companyId: COMPANY_ID, runs, now: NOW },
} satisfies Meta<typeof RunList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AllStatuses: Story = {};
export const Empty: Story = { args: { runs: [] } };
export const Loading: Story = { render: () => <TableSkeleton rows={5} columns={6} label="Loading runs…" /> };
export const LoadError: Story = {
  render: () => (
    <Alert tone="danger" title="Could not load runs" code="DB_UNAVAILABLE">
      The database did not respond. Reload the page to try again.
    </Alert>
  ),
};
