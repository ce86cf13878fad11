import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { useState } from "react";
import { expect, userEvent, within } from "storybook/test";
import { ActionCard, type ActionCardChange, type ActionCardProps } from "@/components/approvals/ActionCard";
import { inWidth } from "../support/layout";
import { click, findText, steps } from "../support/play";
import {
  allRequests,
  approvedRequest,
  COMPANY_ID,
  cardComment,
  declinedRequest,
  executedRequest,
  executingRequest,
  expiredRequest,
  failedRequest,
  NOW,
  pendingRequest,
  supersededRequest,
} from "./fixtures";
import { withApprovalsApi } from "./mock-api";

/**
 * Stands in for the server-rendered thread: applies each action's new status to the card's payload
 * (as the server does before `router.refresh()` re-renders the thread).
 */
function LiveActionCard(props: ActionCardProps) {
  const [comment, setComment] = useState(props.comment);
  function onChanged(change: ActionCardChange) {
    props.onChanged?.(change);
    const status = change.status;
    if (!status) return;
    setComment((c) => ({
      ...c,
      payload: {
        ...c.payload,
        status,
        ...(status === "approved" || status === "declined"
          ? { decidedAt: NOW, decidedByName: "Ada Owner", note: change.note ?? null }
          : {}),
        ...(status === "executed" ? { executedAt: NOW } : {}),
      },
    }));
  }
  return <ActionCard {...props} comment={comment} onChanged={onChanged} />;
}

const meta = {
  title: "Approvals/ActionCard",
  component: ActionCard,
  args: { companyId: COMPANY_ID, canReview: true, now: NOW, comment: cardComment(pendingRequest) },
  decorators: [withApprovalsApi({ actionRequests: allRequests }), inWidth("max-w-2xl")],
} satisfies Meta<typeof ActionCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A reviewer sees Approve and Decline. Approving turns the card blue and offers Execute. */
export const PendingWithReview: Story = {
  render: (args) => <LiveActionCard {...args} />,
};

/** Approve, then Execute, against the in-memory API. */
export const ApproveThenExecute: Story = {
  render: (args) => <LiveActionCard {...args} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("action-approve"));
    await userEvent.type(canvas.getByTestId("action-approve-dialog-note"), "Checked the draft");
    await userEvent.click(canvas.getByTestId("action-approve-dialog-confirm"));
    await expect(await canvas.findByTestId("action-execute")).toBeVisible();
    await expect(canvas.getByTestId("action-card")).toHaveAttribute("data-status", "approved");
    await userEvent.click(canvas.getByTestId("action-execute"));
    await expect(await canvas.findByTestId("action-card-result")).toBeVisible();
    await expect(canvas.getByTestId("action-card")).toHaveAttribute("data-status", "executed");
  },
};

/** Without `tools:approve` the card is read-only. */
export const PendingReadOnly: Story = { args: { canReview: false } };

export const Approved: Story = {
  args: { comment: cardComment(approvedRequest) },
  render: (args) => <LiveActionCard {...args} />,
};

export const Executing: Story = { args: { comment: cardComment(executingRequest) } };

export const Executed: Story = { args: { comment: cardComment(executedRequest) } };

/** Declined with a note. */
export const Declined: Story = { args: { comment: cardComment(declinedRequest) } };

export const Expired: Story = { args: { comment: cardComment(expiredRequest) } };

/** Still `pending` in the payload but past its expiry: shown as expired, without actions. */
export const PendingPastExpiry: Story = {
  args: { comment: cardComment({ ...pendingRequest, expiresAt: "2025-06-12T14:00:00.000Z" }) },
};

/** Links to the newer card that replaced it (`#action-<id>`). */
export const Superseded: Story = {
  args: { comment: cardComment(supersededRequest) },
  render: (args) => (
    <div className="space-y-4">
      <ActionCard {...args} />
      <ActionCard {...args} comment={cardComment(pendingRequest)} />
    </div>
  ),
};

/** The approved call ran and the tool failed. */
export const Failed: Story = {
  args: { comment: cardComment(failedRequest, { error: "upstream_timeout" }) },
};

/** The server refuses to run it (the tool's schema changed since review); its message is shown. */
export const ExecuteRefused: Story = {
  args: { comment: cardComment(approvedRequest) },
  decorators: [
    withApprovalsApi({
      actionRequests: allRequests,
      failures: [
        {
          method: "POST",
          path: /\/execute$/,
          status: 409,
          code: "approval_schema_changed",
          message: "the tool's schema changed since the request was made; it was not run",
        },
      ],
    }),
  ],
  play: steps(
    click("action-execute"),
    findText("the tool's schema changed since the request was made; it was not run"),
  ),
};

/** A card written before the payload carried the request (no actions, body text instead of a reason). */
export const LegacyPayload: Story = {
  args: {
    comment: {
      id: "c-legacy",
      authorType: "agent",
      authorName: "Triage Bot",
      kind: "action_card",
      body: 'Create issue in acme/gripper-firmware: "Guard against NaN torque readings in torque_filter.c"',
      payload: { title: "Approval needed: github.create_issue", status: "pending" },
      createdAt: NOW,
    },
  },
};

/** Approve asks first, with an optional note (issue 21, item 7). */
export const ApproveConfirmation: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByTestId("action-approve"));
    await userEvent.type(canvas.getByTestId("action-approve-dialog-note"), "Checked the repository");
    await expect(canvas.getByRole("dialog")).toBeVisible();
  },
};

/** Decline asks first; its note becomes the reason the agent and the thread see. */
export const DeclineConfirmation: Story = {
  play: steps(click("action-decline")),
};

/** Approved by a person with a note, then run: the card reads what happened and can show the result. */
export const ExecutedWithApproverAndNote: Story = {
  args: {
    comment: cardComment(executedRequest, { decidedByName: "Ada Owner", note: "Checked the repository" }),
  },
  play: steps(click("action-card-show-result"), findText("Result (recorded earlier)")),
};
