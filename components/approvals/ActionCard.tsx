"use client";

import { QueryClientContext } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useContext, useState, useTransition } from "react";
import type { DateInput } from "../format";
import { toDate } from "../format";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { approvalKeys } from "../tools-access/api";
import { RiskBadge } from "../tools-access/badges";
import { useToolsApi } from "../tools-access/ToolsApiProvider";
import type { IssueComment } from "../types";
import { Button } from "../ui/Button";
import { CodeBlock } from "../ui/CodeBlock";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { ReviewButtons } from "./ApprovalRowActions";
import { executionResultJson, type ReviewAction, reviewActionRequest } from "./api";
import { actionCardTitle, effectiveActionStatus, parseActionCardPayload } from "./payload";
import { ActionRequestStatusBadge } from "./StatusBadges";
import type { ActionCardPayload, ActionRequestExecution, ActionRequestStatus } from "./types";

export interface ActionCardChange {
  actionRequestId: string;
  action: ReviewAction;
  /** The request's status after the action; null when the server refused (see `error`). */
  status: ActionRequestStatus | null;
  /** The `ApiError` (or other failure) of a refused action. */
  error: unknown;
  /** The reviewer's note sent with an approve or decline. */
  note?: string;
}

export interface ActionCardProps {
  companyId: string;
  /** A comment with `kind: "action_card"`; its `payload` describes the request. */
  comment: IssueComment;
  /** Shows Approve / Decline (pending) and Execute / Decline (approved). */
  canReview: boolean;
  /** Reference time for relative dates and expiry. */
  now?: DateInput;
  /**
   * Called after every review action (success or refusal). When given it replaces
   * `router.refresh()`, e.g. in stories or in a view that is not server-rendered.
   */
  onChanged?: (change: ActionCardChange) => void;
  className?: string;
}

const ERROR_TITLES: Record<ReviewAction, string> = {
  approve: "Could not approve the call",
  decline: "Could not decline the call",
  execute: "The approved call did not run",
};

function argumentsJson(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return JSON.stringify(value, null, 2) ?? null;
  } catch {
    return null;
  }
}

/**
 * The issue-thread card of a tool call waiting for (or past) a person's review: title, status, tool
 * and risk, the policy's reason, the redacted arguments, expiry and, for reviewers, the actions.
 * After an action it refreshes the server-rendered thread (or calls `onChanged`).
 */
export function ActionCard({ companyId, comment, canReview, now, onChanged, className }: ActionCardProps) {
  const api = useToolsApi();
  const router = useRouter();
  // Optional: the card also lives on pages without a QueryClientProvider (the issue thread).
  const queryClient = useContext(QueryClientContext);
  const [refreshing, startRefresh] = useTransition();
  const [busy, setBusy] = useState<ReviewAction | null>(null);
  const [failure, setFailure] = useState<{ action: ReviewAction; error: unknown } | null>(null);
  const [execution, setExecution] = useState<ActionRequestExecution | null>(null);
  const [loadingResult, setLoadingResult] = useState(false);
  // The answer's status until the refreshed payload moves away from the status it replaced.
  const [optimistic, setOptimistic] = useState<{ status: ActionRequestStatus; over: string | null } | null>(
    null,
  );

  const card = parseActionCardPayload(comment.payload);
  const id = card.actionRequestId;
  const nowMs = now === undefined ? Date.now() : toDate(now).getTime();
  const serverStatus = card.status;
  const shown = optimistic && optimistic.over === serverStatus ? optimistic.status : serverStatus;
  const status =
    busy === "execute" ? "executing" : shown ? effectiveActionStatus(shown, card.expiresAt, nowMs) : null;
  const expiresMs = card.expiresAt ? Date.parse(card.expiresAt) : Number.NaN;
  const pastExpiry = Number.isFinite(expiresMs) && expiresMs <= nowMs;
  const working = busy !== null || refreshing || loadingResult;
  const title = actionCardTitle(status, card.tool, card.title);

  function finish(change: ActionCardChange) {
    void queryClient?.invalidateQueries({ queryKey: approvalKeys.actionRequests(companyId) });
    if (onChanged) onChanged(change);
    else startRefresh(() => router.refresh());
  }

  /**
   * Runs a review action. Approve and decline come from a confirmation dialog, which shows a
   * refusal itself (so it is rethrown); execute's refusal is shown on the card.
   */
  async function review(action: ReviewAction, note?: string) {
    if (!id) return;
    setBusy(action);
    setFailure(null);
    try {
      const outcome = await reviewActionRequest(api, companyId, id, action, note);
      setOptimistic({ status: outcome.status, over: serverStatus });
      if (outcome.execution) setExecution(outcome.execution);
      finish({ actionRequestId: id, action, status: outcome.status, error: null, note });
    } catch (error) {
      if (action === "execute") setFailure({ action, error });
      finish({ actionRequestId: id, action, status: null, error });
      if (action !== "execute") throw error;
    } finally {
      setBusy(null);
    }
  }

  /** The recorded answer of a call that already ran: `execute` replays it, never runs it again. */
  async function showResult() {
    if (!id) return;
    setLoadingResult(true);
    setFailure(null);
    try {
      setExecution((await reviewActionRequest(api, companyId, id, "execute")).execution);
    } catch (error) {
      setFailure({ action: "execute", error });
    } finally {
      setLoadingResult(false);
    }
  }

  const args = argumentsJson(card.arguments);
  const canAct = canReview && id !== null;
  const showApprove = canAct && status === "pending";
  const showExecute = canAct && status === "approved" && !pastExpiry;
  const showDecline = canAct && (status === "pending" || status === "approved");

  return (
    <article
      id={id ? `action-${id}` : undefined}
      className={cn(
        "scroll-mt-24 rounded-lg border border-zinc-300 bg-white shadow-xs target:ring-2 target:ring-accent-500",
        status === "pending" && "border-l-4 border-l-amber-400",
        className,
      )}
      data-testid="action-card"
      data-status={status ?? undefined}
      data-action-request-id={id ?? undefined}
      aria-busy={working || undefined}
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2.5">
        <h3
          className="min-w-0 text-sm font-semibold break-words text-zinc-900"
          data-testid="action-card-title"
        >
          {title}
        </h3>
        {status ? (
          <ActionRequestStatusBadge status={status} error={card.error} data-testid="action-card-status" />
        ) : null}
      </div>
      <div className="space-y-3 px-4 py-3 text-sm">
        {card.tool ? (
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-800">
              {card.tool}
            </code>
            {card.risk ? <RiskBadge risk={card.risk} /> : null}
          </div>
        ) : null}
        {card.reason ? (
          <p className="leading-relaxed text-zinc-700" data-testid="action-card-reason">
            <span className="font-medium text-zinc-900">Why it needs approval: </span>
            {card.reason}
          </p>
        ) : comment.body ? (
          <p className="leading-relaxed whitespace-pre-wrap break-words text-zinc-700">{comment.body}</p>
        ) : null}
        {status === "superseded" ? (
          <p className="text-zinc-600" data-testid="action-card-superseded">
            This request was{" "}
            {card.supersededBy ? (
              <a
                href={`#action-${card.supersededBy}`}
                className={cn(
                  "rounded font-medium text-accent-700 underline hover:text-accent-800",
                  focusRing,
                )}
              >
                replaced by a newer request
              </a>
            ) : (
              "replaced by a newer request"
            )}{" "}
            from the same run.
          </p>
        ) : null}
        {status === "failed" ? (
          <p className="text-red-800" data-testid="action-card-error">
            The approved call ran and failed
            {card.error ? (
              <>
                {" "}
                with <code className="rounded bg-red-50 px-1 font-mono text-xs">{card.error}</code>
              </>
            ) : null}
            .
          </p>
        ) : null}
        {args !== null ? (
          <CodeBlock
            code={args}
            language="json"
            title="Arguments (redacted)"
            data-testid="action-card-arguments"
          />
        ) : null}
        <StatusLine card={card} status={status} now={now} pastExpiry={pastExpiry} />
        <Decision card={card} status={status} now={now} />
        {execution ? (
          <CodeBlock
            code={executionResultJson(execution)}
            language="json"
            title={execution.replayed ? "Result (recorded earlier)" : "Result"}
            data-testid="action-card-result"
          />
        ) : (status === "executed" || status === "failed") && id && canReview ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={working}
            onClick={() => void showResult()}
            data-testid="action-card-show-result"
          >
            {loadingResult ? "Loading the result…" : "Show the result"}
          </Button>
        ) : null}
        {failure ? <ApiErrorAlert error={failure.error} title={ERROR_TITLES[failure.action]} /> : null}
        {!canReview && status === "pending" ? (
          <p className="text-xs text-zinc-500" data-testid="action-card-read-only">
            Waiting for a board member who can approve tool calls.
          </p>
        ) : null}
      </div>
      {showApprove || showExecute || showDecline ? (
        <div className="flex flex-wrap items-center justify-end gap-2 border-t border-zinc-200 bg-zinc-50 px-4 py-2.5">
          {refreshing ? <span className="mr-auto text-xs text-zinc-500">Updating…</span> : null}
          <ReviewButtons
            actions={[showDecline && "decline", showApprove && "approve", showExecute && "execute"]}
            busyAction={busy}
            disabled={working}
            toolName={card.tool ?? undefined}
            onReview={(a, note) => review(a, note)}
            testIdPrefix="action"
          />
        </div>
      ) : null}
      <p className="border-t border-zinc-100 px-4 py-2 text-xs text-zinc-500">
        {comment.authorName} · <RelativeTime value={comment.createdAt} now={now} />
      </p>
    </article>
  );
}

function StatusLine({
  card,
  status,
  now,
  pastExpiry,
}: {
  card: ActionCardPayload;
  status: string | null;
  now?: DateInput;
  pastExpiry: boolean;
}) {
  let content: ReactNode = null;
  if ((status === "pending" || status === "approved") && card.expiresAt) {
    content = pastExpiry ? (
      <>
        The approval window closed <RelativeTime value={card.expiresAt} now={now} />.
      </>
    ) : (
      <>
        {status === "approved" ? "Run it before it expires " : "Expires "}
        <RelativeTime value={card.expiresAt} now={now} />.
      </>
    );
  } else if (status === "executing") {
    content = "Running the approved call with the reviewed arguments…";
  } else if (status === "expired" && card.expiresAt) {
    content = (
      <>
        Expired <RelativeTime value={card.expiresAt} now={now} /> without being run.
      </>
    );
  } else if (status === "executed" && card.executedAt) {
    content = (
      <>
        Ran <RelativeTime value={card.executedAt} now={now} />.
      </>
    );
  } else if (status === "failed" && card.executedAt) {
    content = (
      <>
        Tried <RelativeTime value={card.executedAt} now={now} />.
      </>
    );
  }
  if (!content) return null;
  return (
    <p className="text-xs text-zinc-500" data-testid="action-card-expiry">
      {content}
    </p>
  );
}

const DECIDED: Record<string, "Approved" | "Declined"> = {
  approved: "Approved",
  executing: "Approved",
  executed: "Approved",
  failed: "Approved",
  declined: "Declined",
};

/** Who approved or declined, when, and their note. */
function Decision({
  card,
  status,
  now,
}: {
  card: ActionCardPayload;
  status: string | null;
  now?: DateInput;
}) {
  const verb = status ? DECIDED[status] : undefined;
  if (!verb || (!card.decidedAt && !card.decidedByName && !card.note)) return null;
  return (
    <div
      className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm"
      data-testid="action-card-decision"
    >
      <p className="text-zinc-700">
        <span className="font-medium text-zinc-900">{verb}</span>
        {card.decidedByName ? (
          <>
            {" "}
            by{" "}
            <span className="font-medium text-zinc-900" data-testid="action-card-decider">
              {card.decidedByName}
            </span>
          </>
        ) : null}
        {card.decidedAt ? (
          <>
            {" "}
            <RelativeTime value={card.decidedAt} now={now} />
          </>
        ) : null}
      </p>
      {card.note ? (
        <blockquote
          className="mt-1 border-l-2 border-zinc-300 pl-2 whitespace-pre-wrap break-words text-zinc-700"
          data-testid="action-card-note"
        >
          {card.note}
        </blockquote>
      ) : null}
    </div>
  );
}
