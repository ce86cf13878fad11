import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Alert, buttonStyles } from "@/components/ui";

const meta = {
  title: "UI/Alert",
  component: Alert,
  args: { tone: "info", title: "Heads up", children: "Connections are encrypted at rest." },
  argTypes: { tone: { control: "inline-radio", options: ["info", "success", "warning", "danger"] } },
} satisfies Meta<typeof Alert>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Info: Story = {};

export const ErrorWithCode: Story = {
  args: {
    tone: "danger",
    title: "Could not load issues",
    code: "DB_UNAVAILABLE",
    children: "The database did not respond. Try again in a moment.",
    actions: (
      <a href="#retry" className={buttonStyles({ variant: "secondary", size: "sm" })}>
        Retry
      </a>
    ),
  },
};

export const AllTones: Story = {
  render: () => (
    <div className="max-w-2xl space-y-3">
      <Alert tone="info" title="Info">
        The gateway is not enabled for this company yet.
      </Alert>
      <Alert tone="success" title="Saved">
        Policy updated.
      </Alert>
      <Alert tone="warning" title="Rate limit close">
        Triage Bot used 90% of its hourly GitHub budget.
      </Alert>
      <Alert tone="danger" title="Call denied" code="POLICY_DENIED">
        github.delete_repo is not allowed for any profile.
      </Alert>
      <Alert tone="danger" code="UNAUTHENTICATED">
        An alert with only a code and a message.
      </Alert>
    </div>
  ),
};
