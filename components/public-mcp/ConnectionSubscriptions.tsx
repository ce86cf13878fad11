"use client";

import { QueryClientContext, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useContext, useState } from "react";
import type { ConnectionSubscription, SubscriptionViewState } from "@/server/contracts/api/public-mcp-events";
import { QueryProvider } from "../providers/QueryProvider";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { apiFetch } from "../tools-access/api";
import { ConfirmRow } from "../tools-access/controls";
import { Badge, type BadgeTone } from "../ui/Badge";
import { Button } from "../ui/Button";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { companyItemHref } from "../ui/RowLink";
import { TableSkeleton } from "../ui/Skeleton";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";

/** How an MCP Events event reads in the list (docs/public-mcp.md, "Events"). */
const EVENT_LABELS: Record<string, string> = {
  "paperclip.task.status_changed": "Status changes",
  "paperclip.task.comment_created": "New comments",
  "paperclip.task.document_updated": "Document updates",
};
export const eventLabel = (name: string): string => EVENT_LABELS[name] ?? name;

const STATE_TONES: Record<SubscriptionViewState, BadgeTone> = {
  pending: "info",
  active: "success",
  stopped: "neutral",
  expired: "neutral",
};
const STOPPED_REASONS: Record<string, string> = {
  gone: "the assistant ended it",
  stopped_by_person: "stopped by a person",
  access_lost: "access lost",
  grant_revoked: "connection revoked",
};

const COLUMNS = ["Event", "Task", "State", "Last delivery", "Failures"] as const;

/** `GET` of one connection's subscriptions; the query key. */
export const subscriptionsPath = (grantId: string) =>
  `/api/me/assistant-connections/${encodeURIComponent(grantId)}/subscriptions`;
export const subscriptionsKey = (grantId: string) =>
  ["assistant-connections", grantId, "subscriptions"] as const;

/**
 * What an assistant connection watches through MCP Events: one row a subscription (event, task,
 * state, last delivery, failures), with Stop for a pending or active one. Fetched when shown;
 * never the callback URL or its secrets (the server does not send them).
 */
export function ConnectionSubscriptions(props: { grantId: string }) {
  // The Assistant connections pages have no QueryClient of their own; give the list one.
  const client = useContext(QueryClientContext);
  return client ? (
    <SubscriptionsTable {...props} />
  ) : (
    <QueryProvider>
      <SubscriptionsTable {...props} />
    </QueryProvider>
  );
}

function SubscriptionsTable({ grantId }: { grantId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: subscriptionsKey(grantId),
    queryFn: () => apiFetch<{ subscriptions: ConnectionSubscription[] }>(subscriptionsPath(grantId)),
  });
  const [confirming, setConfirming] = useState<string | null>(null);
  const stop = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${subscriptionsPath(grantId)}/${encodeURIComponent(id)}/stop`, { method: "POST" }),
    onSettled: () => {
      setConfirming(null);
      return queryClient.invalidateQueries({ queryKey: subscriptionsKey(grantId) });
    },
  });

  if (query.isPending)
    return (
      <div data-testid="connection-subscriptions-loading">
        <TableSkeleton rows={2} columns={COLUMNS.length} label="Loading event subscriptions…" />
      </div>
    );
  if (query.isError)
    return (
      <ApiErrorAlert
        error={query.error}
        title="Could not load the event subscriptions"
        retry={() => void query.refetch()}
        data-testid="connection-subscriptions-error"
      />
    );
  const rows = query.data.subscriptions;
  if (rows.length === 0)
    return (
      <p className="text-xs text-zinc-500" data-testid="connection-subscriptions-empty">
        No event subscriptions. An assistant that supports MCP Events can watch a task; this lists what it
        watches.
      </p>
    );
  return (
    <div className="space-y-2" data-testid="connection-subscriptions">
      <ApiErrorAlert
        error={stop.error}
        title="Could not stop the subscription"
        data-testid="connection-subscription-stop-error"
      />
      <Table aria-label="Event subscriptions">
        <HeaderRow columns={COLUMNS} actions />
        <TBody>
          {rows.map((s) => (
            <Fragment key={s.id}>
              <TR data-testid="connection-subscription" data-state={s.state}>
                <TD className="whitespace-nowrap">{eventLabel(s.eventName)}</TD>
                <TD className="min-w-0">
                  <Link
                    href={companyItemHref(s.companyId, "issues", s.taskId)}
                    className={cn("rounded hover:text-accent-700 hover:underline", focusRing)}
                  >
                    <span className="font-mono text-xs text-zinc-900">{s.taskIdentifier}</span>{" "}
                    <span className="text-zinc-700">{s.taskTitle}</span>
                  </Link>
                </TD>
                <TD>
                  <Badge tone={STATE_TONES[s.state]} data-testid="connection-subscription-state">
                    {s.state}
                  </Badge>
                  {s.state === "stopped" && s.stoppedReason ? (
                    <span className="block text-xs text-zinc-500">
                      {STOPPED_REASONS[s.stoppedReason] ?? s.stoppedReason}
                    </span>
                  ) : null}
                </TD>
                <TD className="whitespace-nowrap text-xs">
                  {s.lastDeliveryAt ? <RelativeTime value={s.lastDeliveryAt} /> : "never"}
                  {s.pendingDeliveries > 0 ? (
                    <span className="block text-zinc-500">{s.pendingDeliveries} queued</span>
                  ) : null}
                </TD>
                <TD className="text-xs" data-testid="connection-subscription-failures">
                  {s.failedCount > 0 || s.lastError ? (
                    <span className="text-red-700">
                      {s.failedCount} failed
                      {s.lastError ? <span className="block font-mono">{s.lastError}</span> : null}
                      {s.failedSince ? (
                        <span className="block text-zinc-500">
                          since <RelativeTime value={s.failedSince} />
                        </span>
                      ) : null}
                    </span>
                  ) : (
                    <span className="text-zinc-500">none</span>
                  )}
                </TD>
                <TD className="text-right">
                  {s.state === "pending" || s.state === "active" ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setConfirming(s.id)}
                      disabled={stop.isPending}
                      aria-label={`Stop: ${eventLabel(s.eventName)} on ${s.taskIdentifier}`}
                      data-testid="connection-subscription-stop"
                    >
                      Stop
                    </Button>
                  ) : null}
                </TD>
              </TR>
              {confirming === s.id ? (
                <ConfirmRow
                  colSpan={COLUMNS.length + 1}
                  confirmLabel="Stop"
                  pending={stop.isPending}
                  error={stop.error}
                  onConfirm={() => stop.mutate(s.id)}
                  onCancel={() => setConfirming(null)}
                  data-testid="connection-subscription-confirm"
                >
                  Stop watching {eventLabel(s.eventName).toLowerCase()} of {s.taskIdentifier}? The assistant
                  is sent nothing more for it.
                </ConfirmRow>
              ) : null}
            </Fragment>
          ))}
        </TBody>
      </Table>
    </div>
  );
}
