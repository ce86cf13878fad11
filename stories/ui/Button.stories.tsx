import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { Button, buttonStyles, PendingButton } from "@/components/ui";

const meta = {
  title: "UI/Button",
  component: Button,
  args: { children: "Save changes", onClick: fn() },
  argTypes: {
    variant: { control: "inline-radio", options: ["primary", "secondary", "danger", "ghost"] },
    size: { control: "inline-radio", options: ["sm", "md", "lg"] },
  },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Primary: Story = { args: { variant: "primary" } };
export const Secondary: Story = { args: { variant: "secondary", children: "Cancel" } };
export const Danger: Story = { args: { variant: "danger", children: "Revoke connection" } };
export const Ghost: Story = { args: { variant: "ghost", children: "Dismiss" } };
export const Disabled: Story = { args: { disabled: true } };

export const AllVariants: Story = {
  render: () => (
    <div className="space-y-4">
      {(["sm", "md", "lg"] as const).map((size) => (
        <div key={size} className="flex flex-wrap items-center gap-3">
          <Button size={size}>Primary</Button>
          <Button size={size} variant="secondary">
            Secondary
          </Button>
          <Button size={size} variant="danger">
            Danger
          </Button>
          <Button size={size} variant="ghost">
            Ghost
          </Button>
          <Button size={size} disabled>
            Disabled
          </Button>
        </div>
      ))}
      <a href="#docs" className={buttonStyles({ variant: "secondary" })}>
        A link styled as a button
      </a>
    </div>
  ),
};

/** `PendingButton`: disabled and `aria-busy` while its action runs, with the pending label instead of the text. */
export const Pending: Story = {
  render: () => (
    <div className="flex flex-wrap items-center gap-3">
      <PendingButton pending={false} pendingLabel="Saving…">
        Save changes
      </PendingButton>
      <PendingButton pending pendingLabel="Saving…">
        Save changes
      </PendingButton>
      <PendingButton variant="ghost" size="sm" pending pendingLabel="Removing…">
        Remove
      </PendingButton>
    </div>
  ),
};
