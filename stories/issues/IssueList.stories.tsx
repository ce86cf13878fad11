import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { IssueList } from "@/components/issues/IssueList";
import { Alert, buttonStyles, TableSkeleton } from "@/components/ui";
import { COMPANY_ID, issues, NOW } from "../sample-data";

const meta = {
  title: "Issues/IssueList",
  component: IssueList,
  args: { companyId: COMPANY_ID, issues, now: NOW },
} satisfies Meta<typeof IssueList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = {
  args: {
    issues: [],
    emptyAction: (
      <a href="#new" className={buttonStyles()}>
        New issue
      </a>
    ),
  },
};
export const Loading: Story = {
  render: () => <TableSkeleton rows={5} columns={6} label="Loading issues…" />,
};
export const LoadError: Story = {
  render: () => (
    <Alert tone="danger" title="Could not load issues" code="DB_UNAVAILABLE">
      The database did not respond. Reload the page to try again.
    </Alert>
  ),
};
