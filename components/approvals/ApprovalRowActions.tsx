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

/** The review buttons that apply, in their fixed order; `false` entries are skipped. */
export function ReviewButtons({
  actions,
  testIdPrefix,
  ...button
}: Omit<Parameters<typeof ReviewButton>[0], "action" | "testId"> & {
  actions: ReadonlyArray<ReviewAction | false>;
  /** Each button's test id is `<prefix>-<action>`. */
  testIdPrefix: string;
}) {
  return (
    <>
      {actions.map((action) =>
        action ? (
          <ReviewButton key={action} action={action} testId={`${testIdPrefix}-${action}`} {...button} />
        ) : null,
      )}
    </>
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
      {canReview ? (
        <ReviewButtons
          actions={[
            (status === "pending" || status === "approved") && "decline",
            status === "pending" && "approve",
            status === "approved" && "execute",
          ]}
          busyAction={busyAction}
          disabled={disabled}
          toolName={toolName}
          onReview={onReview}
          testIdPrefix="inbox"
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
