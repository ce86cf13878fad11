"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, type KeyboardEvent, useId, useRef, useState } from "react";
import type { DateInput } from "../format";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { approvalKeys } from "../tools-access/api";
import { RiskBadge } from "../tools-access/badges";
import { ReadOnlyNote } from "../tools-access/ReadOnlyNote";
import { useToolsApi } from "../tools-access/ToolsApiProvider";
import { Alert } from "../ui/Alert";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { CodeBlock } from "../ui/CodeBlock";
import { cn, focusRing } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { RelativeTime } from "../ui/RelativeTime";
import { FullRow, HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { RowActions } from "./ApprovalRowActions";
import {
  actionCardHref,
  executionResultJson,
  fetchActionRequests,
  type ReviewAction,
  type ReviewOutcome,
  reviewActionRequest,
  shortId,
} from "./api";
import { ActionRequestStatusBadge } from "./StatusBadges";
import { TrustRuleForm } from "./TrustRuleForm";
import type { ActionRequest, ActionRequestStatus } from "./types";

export type { ActionRequest } from "./types";

export type InboxTab = "pending" | "approved" | "all";

export interface ApprovalsInboxProps {
  companyId: string;
  /** Shows approve, decline and execute (`tools:approve`). */
  canReview: boolean;
  /** Shows "Trust this…" on executed requests (`tools:admin`). Defaults to `canReview`. */
  canTrust?: boolean;
  /** Server-rendered `GET /action-requests?limit=200`; seeds `approvalKeys.actionRequests(companyId)`. */
  initialRequests: ActionRequest[];
  initialTab?: InboxTab;
  /** Reference time for relative dates. */
  now?: DateInput;
  className?: string;
}

const TABS: { key: InboxTab; label: string }[] = [
  { key: "pending", label: "Pending" },
  { key: "approved", label: "Approved" },
  { key: "all", label: "All" },
];

const EMPTY: Record<InboxTab, { title: string; description: string }> = {
  pending: {
    title: "Nothing waiting for review",
    description:
      "When a policy holds an agent's tool call for approval, it appears here and on the issue the agent is working on.",
  },
  approved: {
    title: "No approved calls waiting to run",
    description: "Approved calls stay here until they are executed, declined or expire.",
  },
  all: {
    title: "No action requests yet",
    description:
      "Tool calls that a policy sends for approval are listed here with their outcome: approved, declined, executed, expired or replaced.",
  },
};

const ERROR_TITLES: Record<ReviewAction, string> = {
  approve: "Could not approve the call",
  decline: "Could not decline the call",
  execute: "The approved call did not run",
};

function inTab(tab: InboxTab, status: ActionRequestStatus): boolean {
  if (tab === "pending") return status === "pending";
  if (tab === "approved") return status === "approved" || status === "executing";
  return true;
}

/** Tool calls held for review: Pending / Approved / All, with the review actions and trust rules. */
export function ApprovalsInbox({
  companyId,
  canReview,
  canTrust = canReview,
  initialRequests,
  initialTab = "pending",
  now,
  className,
}: ApprovalsInboxProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const key = approvalKeys.actionRequests(companyId);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchActionRequests(api, companyId, signal),
    initialData: initialRequests,
  });
  const requests = query.data;
  const [tab, setTab] = useState<InboxTab>(initialTab);
  const [trustOpen, setTrustOpen] = useState<string | null>(null);
  const [trusted, setTrusted] = useState<ReadonlySet<string>>(() => new Set());
  const [executed, setExecuted] = useState<{ id: string; outcome: ReviewOutcome } | null>(null);
  // Rows acted on stay in the current tab (with their new status) until the tab changes.
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set());
  const baseId = useId();
  const tabRefs = useRef<Record<InboxTab, HTMLButtonElement | null>>({
    pending: null,
    approved: null,
    all: null,
  });

  const review = useMutation({
    mutationFn: (args: { id: string; action: ReviewAction; note?: string }) =>
      reviewActionRequest(api, companyId, args.id, args.action, args.note),
    onSuccess: (outcome, args) => {
      client.setQueryData<ActionRequest[]>(key, (old) =>
        old?.map((r) => (r.id === args.id ? { ...r, status: outcome.status } : r)),
      );
      if (outcome.execution) setExecuted({ id: args.id, outcome });
    },
    // A refusal can change the request too (e.g. it expired), so refresh either way.
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });

  const counts: Record<InboxTab, number> = {
    pending: requests.filter((r) => inTab("pending", r.status)).length,
    approved: requests.filter((r) => inTab("approved", r.status)).length,
    all: requests.length,
  };
  const visible = requests.filter((r) => inTab(tab, r.status) || kept.has(r.id));
  const columns = 6;

  function selectTab(next: InboxTab) {
    if (next === tab) return;
    setTab(next);
    setKept(new Set());
  }

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    let next: number | null = null;
    if (delta) next = (index + delta + TABS.length) % TABS.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = TABS.length - 1;
    if (next === null) return;
    event.preventDefault();
    const target = TABS[next]!.key;
    selectTab(target);
    tabRefs.current[target]?.focus();
  }

  /** Approve and decline come from a confirmation dialog, which shows a refusal itself. */
  function runReview(id: string, action: ReviewAction, note?: string) {
    setExecuted(null);
    setKept((prev) => new Set(prev).add(id));
    return review.mutateAsync({ id, action, note });
  }

  return (
    <div className={cn("space-y-4", className)} data-testid="approvals-inbox">
      <ApiErrorAlert
        error={query.error}
        title="Could not refresh the action requests"
        retry={() => void query.refetch()}
      />
      <Card>
        <CardHeader
          title="Tool calls awaiting review"
          description="Calls a policy held for a person's approval. An approved call runs once, with exactly the arguments you reviewed."
          refreshing={query.isFetching ? "Refreshing action requests" : undefined}
        />
        <CardBody className="space-y-4">
          {!canReview ? (
            <ReadOnlyNote data-testid="inbox-read-only">
              You can see the requests but not approve, decline or run them.
            </ReadOnlyNote>
          ) : null}
          <div
            role="tablist"
            aria-label="Filter action requests"
            className="flex gap-1 border-b border-zinc-200"
          >
            {TABS.map((t, index) => {
              const active = t.key === tab;
              return (
                <button
                  key={t.key}
                  ref={(el) => {
                    tabRefs.current[t.key] = el;
                  }}
                  type="button"
                  role="tab"
                  id={`${baseId}-tab-${t.key}`}
                  aria-selected={active}
                  aria-controls={`${baseId}-panel`}
                  tabIndex={active ? 0 : -1}
                  onClick={() => selectTab(t.key)}
                  onKeyDown={(event) => onTabKey(event, index)}
                  data-testid={`inbox-tab-${t.key}`}
                  className={cn(
                    "-mb-px inline-flex items-center gap-2 rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors",
                    focusRing,
                    "focus-visible:-outline-offset-2",
                    active
                      ? "border-accent-600 text-accent-700"
                      : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900",
                  )}
                >
                  {t.label}
                  <span
                    className={cn(
                      "rounded-full px-1.5 text-xs tabular-nums",
                      active ? "bg-accent-50 text-accent-700" : "bg-zinc-100 text-zinc-600",
                    )}
                  >
                    {counts[t.key]}
                  </span>
                </button>
              );
            })}
          </div>
          <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
            {visible.length === 0 ? (
              <EmptyState
                headingAs="h3"
                className="py-10"
                title={EMPTY[tab].title}
                description={EMPTY[tab].description}
                data-testid="inbox-empty"
              />
            ) : (
              <Table stacked data-testid="inbox-table">
                <HeaderRow columns={["Tool", "Agent", "Issue", "Reason", "Requested", "Status"]} />
                <TBody>
                  {visible.map((r) => {
                    const busy = review.isPending && review.variables?.id === r.id;
                    const busyAction = busy ? review.variables?.action : null;
                    const rowError =
                      review.error && review.variables?.id === r.id && review.variables.action === "execute"
                        ? review.error
                        : null;
                    const status = busyAction === "execute" ? "executing" : r.status;
                    const canTrustRow = canTrust && r.status === "executed" && !trusted.has(r.id);
                    return (
                      <Fragment key={r.id}>
                        <TR data-testid="inbox-row" data-action-request-id={r.id} data-status={r.status}>
                          <TD data-label="Tool" className="min-w-44">
                            <code className="font-mono text-xs text-zinc-900">{r.toolName}</code>
                            <span className="mt-1 block">
                              <RiskBadge risk={r.preview.risk} />
                            </span>
                            {r.preview.arguments !== undefined ? (
                              <details className="mt-1 text-xs" data-testid="inbox-arguments">
                                <summary className={cn("cursor-pointer rounded text-zinc-600", focusRing)}>
                                  Arguments
                                </summary>
                                <CodeBlock
                                  code={JSON.stringify(r.preview.arguments, null, 2).slice(0, 4000)}
                                  language="json"
                                  className="mt-1 max-w-md"
                                />
                              </details>
                            ) : null}
                          </TD>
                          <TD data-label="Agent">
                            {r.agentId ? (
                              r.agentName ? (
                                <Link
                                  href={`/c/${companyId}/agents/${r.agentId}`}
                                  className={cn("rounded text-zinc-900 hover:underline", focusRing)}
                                  data-testid="inbox-agent"
                                >
                                  {r.agentName}
                                </Link>
                              ) : (
                                <code className="font-mono text-xs" title={r.agentId}>
                                  {shortId(r.agentId)}
                                </code>
                              )
                            ) : (
                              <span className="text-zinc-500">—</span>
                            )}
                          </TD>
                          <TD data-label="Issue" className="whitespace-nowrap">
                            {r.issueId ? (
                              <Link
                                href={actionCardHref(companyId, r.issueId, r.id)}
                                className={cn(
                                  "rounded text-accent-700 hover:text-accent-800 hover:underline",
                                  focusRing,
                                )}
                                data-testid="inbox-issue-link"
                                title="Open the action card in the issue"
                              >
                                {r.issueIdentifier ?? "Open in issue"}
                              </Link>
                            ) : (
                              <span className="text-zinc-500">—</span>
                            )}
                          </TD>
                          <TD data-label="Reason" className="min-w-56 text-xs text-zinc-600">
                            {r.preview.reason}
                          </TD>
                          <TD data-label="Requested" className="text-xs text-zinc-600">
                            <RelativeTime value={r.createdAt} now={now} />
                          </TD>
                          <TD data-label="Status" className="min-w-40">
                            <ActionRequestStatusBadge status={status} />
                            {/* The actions sit under the status, so the row fits at 1440 px
                                (a separate column was cut off past the table's edge). */}
                            {canReview || canTrust ? (
                              <div className="mt-2 flex flex-wrap gap-2">
                                <RowActions
                                  request={r}
                                  canReview={canReview}
                                  canTrust={canTrustRow}
                                  busyAction={busyAction ?? null}
                                  disabled={review.isPending}
                                  trustOpen={trustOpen === r.id}
                                  onReview={(action, note) => runReview(r.id, action, note)}
                                  onTrust={() => setTrustOpen(trustOpen === r.id ? null : r.id)}
                                />
                              </div>
                            ) : null}
                          </TD>
                        </TR>
                        {rowError ? (
                          <FullRow colSpan={columns}>
                            <ApiErrorAlert
                              error={rowError}
                              title={ERROR_TITLES[review.variables?.action ?? "approve"]}
                              data-testid="inbox-error"
                            />
                          </FullRow>
                        ) : null}
                        {executed?.id === r.id && executed.outcome.execution ? (
                          <FullRow colSpan={columns}>
                            <CodeBlock
                              code={executionResultJson(executed.outcome.execution)}
                              language="json"
                              title={
                                executed.outcome.execution.replayed ? "Result (recorded earlier)" : "Result"
                              }
                              data-testid="inbox-result"
                            />
                          </FullRow>
                        ) : null}
                        {trusted.has(r.id) ? (
                          <FullRow colSpan={columns}>
                            <Alert tone="success" title="Trust rule proposed" data-testid="trust-created">
                              It needs another admin's approval before it takes effect. Until then this call
                              still asks for approval.
                            </Alert>
                          </FullRow>
                        ) : null}
                        {trustOpen === r.id && canTrustRow ? (
                          <FullRow colSpan={columns} cellClassName="px-4 py-3">
                            <TrustRuleForm
                              companyId={companyId}
                              request={r}
                              onCancel={() => setTrustOpen(null)}
                              onCreated={() => {
                                setTrustOpen(null);
                                setTrusted((prev) => new Set(prev).add(r.id));
                              }}
                            />
                          </FullRow>
                        ) : null}
                      </Fragment>
                    );
                  })}
                </TBody>
              </Table>
            )}
          </div>
        </CardBody>
      </Card>
    </div>
  );
}
