import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { expect, userEvent, within } from "storybook/test";
import { ApiError } from "@/components/tools-access/api";
import { ConfirmButton, ConfirmDialog } from "@/components/ui/ConfirmDialog";

/**
 * The one confirmation (issue 21, deliverable 5): approve, decline, stop, restart, disable,
 * archive and revoke ask in a native modal `<dialog>`.
 */
const meta = {
  title: "UI/ConfirmDialog",
  component: ConfirmDialog,
  args: {
    open: true,
    onClose: () => {},
    onConfirm: () => new Promise(() => {}),
    title: "Stop Runtime lab?",
    body: "The process is ended; calls in flight on it fail. The next call to one of its tools starts it again.",
    confirmLabel: "Stop",
    pendingLabel: "Stopping…",
    tone: "danger",
  },
  parameters: { layout: "fullscreen" },
} satisfies Meta<typeof ConfirmDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A destructive action, no note. */
export const Plain: Story = {};

/** Approve with an optional note, sent with the decision. */
export const WithNote: Story = {
  args: {
    title: "Approve outbox__send_email?",
    body: "The call can then run once, with the arguments shown, before the approval expires.",
    confirmLabel: "Approve",
    pendingLabel: "Approving…",
    tone: "primary",
    note: { label: "Note (optional)", maxLength: 2000, hint: "Kept with the decision and shown on the card" },
  },
};

/** While the action runs: both buttons disabled, Escape ignored. */
export const Pending: Story = { args: { pending: true } };

/** The server refused: the error stays inside the dialog, which stays open. */
export const WithError: Story = {
  args: {
    errorTitle: "Could not stop the process",
    error: new ApiError({
      status: 409,
      code: "slot_on_other_host",
      message: "the slot runs on `vm-2`; stop or restart it from a server on that host",
    }),
  },
};

/** From its trigger: opens, Escape cancels, focus returns to the trigger. */
export const FromTrigger: Story = {
  render: () => (
    <div className="p-6">
      <ConfirmButton
        triggerTestId="stop"
        title="Stop Runtime lab?"
        body="The process is ended."
        confirmLabel="Stop"
        tone="danger"
        onConfirm={() => {}}
      >
        Stop
      </ConfirmButton>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("stop"));
    await expect(canvas.getByRole("dialog")).toBeVisible();
    await userEvent.keyboard("{Escape}");
    await expect(canvas.getByTestId("stop")).toHaveFocus();
  },
};
