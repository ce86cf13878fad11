"use client";

import { Button } from "../ui/Button";
import { PendingButton } from "../ui/PendingButton";
import type { ReviewAction } from "./api";
import type { ActionRequest } from "./types";

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
        <PendingButton
          pending={busyAction === "decline"}
          pendingLabel="Declining…"
          variant="secondary"
          size="sm"
          disabled={disabled}
          aria-label={`Decline ${toolName}`}
          onClick={() => onReview("decline")}
          data-testid="inbox-decline"
        >
          Decline
        </PendingButton>
      ) : null}
      {canReview && status === "pending" ? (
        <PendingButton
          pending={busyAction === "approve"}
          pendingLabel="Approving…"
          size="sm"
          disabled={disabled}
          aria-label={`Approve ${toolName}`}
          onClick={() => onReview("approve")}
          data-testid="inbox-approve"
        >
          Approve
        </PendingButton>
      ) : null}
      {canReview && status === "approved" ? (
        <PendingButton
          pending={busyAction === "execute"}
          pendingLabel="Executing…"
          size="sm"
          disabled={disabled}
          aria-label={`Execute ${toolName}`}
          onClick={() => onReview("execute")}
          data-testid="inbox-execute"
        >
          Execute
        </PendingButton>
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
