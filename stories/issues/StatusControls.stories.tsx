import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { StatusControls } from "@/components/issues/StatusControls";
import { inWidth } from "../support/layout";
import { answers } from "./work-sample-data";

const meta = {
  title: "Issues/StatusControls",
  component: StatusControls,
  args: {
    status: "in_progress",
    allowed: ["backlog", "todo", "in_review", "blocked", "done", "cancelled"],
    blockedReason: null,
    canEdit: true,
    finishAction: answers({ notice: "Finished." }),
    blockAction: answers({ notice: "Blocked." }),
    moveAction: answers({ error: "a task in `in_progress` cannot move to `done`" }),
  },
  decorators: [inWidth("max-w-md")],
} satisfies Meta<typeof StatusControls>;

export default meta;
type Story = StoryObj<typeof meta>;

export const InProgress: Story = {};
export const Blocked: Story = {
  args: {
    status: "blocked",
    allowed: ["backlog", "todo", "in_progress", "cancelled"],
    blockedReason: "waiting for the lab's access keys",
  },
};
/** An agent sees no way out of done; a person may reopen. */
export const DoneForAgent: Story = { args: { status: "done", allowed: [] } };
export const ReadOnly: Story = { args: { canEdit: false } };
