"use client";

import { Button } from "../ui/Button";
import { ConfirmButton } from "../ui/ConfirmDialog";
import { PendingButton } from "../ui/PendingButton";
import type { ReviewAction } from "./api";
import type { ActionRequest } from "./types";

const REVIEW_BUTTONS: Record<ReviewAction, { label: string; pendingLabel: string; variant?: "secondary" }> = {
  decline: { label: "Decline", pendingLabel: "Declining…", variant: "secondary" },
  approve: { label: "Approve", pendingLabel: "Approving…" },
  execute: { label: "Execute", pendingLabel: "Executing…" },
};

/** The server's limit on a decision note (`DecisionNoteInput` in server/approvals/review.ts). */
export const DECISION_NOTE_MAX = 2000;

/** What the confirmation of an approve or decline says; execute runs what was already approved. */
export function reviewConfirmation(action: "approve" | "decline", toolName?: string) {
  const tool = toolName ?? "this call";
  if (action === "approve")
    return {
      title: `Approve ${tool}?`,
      body: "The call can then run once, with the arguments shown, before the approval expires.",
      confirmLabel: "Approve",
      pendingLabel: "Approving…",
      tone: "primary" as const,
      errorTitle: "Could not approve the call",
    };
  return {
    title: `Decline ${tool}?`,
    body: "The call will not run; the agent is told it was declined. This cannot be undone.",
    confirmLabel: "Decline",
    pendingLabel: "Declining…",
    tone: "danger" as const,
    errorTitle: "Could not decline the call",
  };
}

/**
 * One review action's button (Decline, Approve, Execute), spinning while that action runs.
 * Approve and Decline first ask for confirmation, with an optional note sent along.
 */
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
  /** Runs the action; a rejection is shown inside the confirmation dialog. */
  onReview: (action: ReviewAction, note?: string) => Promise<unknown> | undefined;
  testId: string;
}) {
  const { label, pendingLabel, variant } = REVIEW_BUTTONS[action];
  if (action === "execute")
    return (
      <PendingButton
        pending={busyAction === action}
        pendingLabel={pendingLabel}
        variant={variant}
        size="sm"
        disabled={disabled}
        aria-label={toolName ? `${label} ${toolName}` : undefined}
        onClick={() => void onReview(action)?.catch(() => {})}
        data-testid={testId}
      >
        {label}
      </PendingButton>
    );
  return (
    <ConfirmButton
      {...reviewConfirmation(action, toolName)}
      variant={variant ?? "primary"}
      size="sm"
      disabled={disabled}
      aria-label={toolName ? `${label} ${toolName}` : undefined}
      note={{
        label: action === "approve" ? "Note (optional)" : "Reason (optional)",
        maxLength: DECISION_NOTE_MAX,
        hint: "Kept with the decision and shown on the card",
      }}
      onConfirm={(note) => onReview(action, note || undefined)}
      triggerTestId={testId}
    >
      {busyAction === action ? pendingLabel : label}
    </ConfirmButton>
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
  onReview: (action: ReviewAction, note?: string) => Promise<unknown> | undefined;
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
