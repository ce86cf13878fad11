"use client";

import { Button } from "../ui/Button";
import { PendingButton } from "../ui/PendingButton";
import type { ReviewAction } from "./api";
import type { ActionRequest } from "./types";

const REVIEW_BUTTONS: Record<ReviewAction, { label: string; pendingLabel: string; variant?: "secondary" }> = {
  decline: { label: "Decline", pendingLabel: "Declining…", variant: "secondary" },
  approve: { label: "Approve", pendingLabel: "Approving…" },
  execute: { label: "Execute", pendingLabel: "Executing…" },
};

/** One review action's button (Decline, Approve, Execute), spinning while that action runs. */
export function ReviewButton({
  action,
  busyAction,
  disabled,
  toolName,
  onReview,
  testId,
}: {
  action: ReviewAction;
  busyAction: ReviewAction | null;
  disabled: boolean;
  /** Named in the accessible label where several requests' buttons share a screen. */
  toolName?: string;
  onReview: (action: ReviewAction) => void;
  testId: string;
}) {
  const { label, pendingLabel, variant } = REVIEW_BUTTONS[action];
  return (
    <PendingButton
      pending={busyAction === action}
      pendingLabel={pendingLabel}
      variant={variant}
      size="sm"
      disabled={disabled}
      aria-label={toolName ? `${label} ${toolName}` : undefined}
      onClick={() => onReview(action)}
      data-testid={testId}
    >
      {label}
    </PendingButton>
  );
}

export function RowActions({
  request,
  canReview,
  canTrust,
  busyAction,
  disabled,
  trustOpen,
  onReview,
  onTrust,
}: {
  request: ActionRequest;
  canReview: boolean;
  canTrust: boolean;
  busyAction: ReviewAction | null;
  disabled: boolean;
  trustOpen: boolean;
  onReview: (action: ReviewAction) => void;
  onTrust: () => void;
}) {
  const { status, toolName } = request;
  return (
    <span className="inline-flex gap-2">
      {canReview && (status === "pending" || status === "approved") ? (
        <ReviewButton
          action="decline"
          busyAction={busyAction}
          disabled={disabled}
          toolName={toolName}
          onReview={onReview}
          testId="inbox-decline"
        />
      ) : null}
      {canReview && status === "pending" ? (
        <ReviewButton
          action="approve"
          busyAction={busyAction}
          disabled={disabled}
          toolName={toolName}
          onReview={onReview}
          testId="inbox-approve"
        />
      ) : null}
      {canReview && status === "approved" ? (
        <ReviewButton
          action="execute"
          busyAction={busyAction}
          disabled={disabled}
          toolName={toolName}
          onReview={onReview}
          testId="inbox-execute"
        />
      ) : null}
      {canTrust ? (
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={trustOpen}
          onClick={onTrust}
          data-testid="trust-open"
        >
          Trust this…
        </Button>
      ) : null}
    </span>
  );
}
