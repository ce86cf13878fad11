import Link from "next/link";
import type { ReactNode } from "react";
import { Badge, type BadgeTone } from "../ui/Badge";
import { Card, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { type OverviewInboxData, overviewHrefs } from "./types-overview";

export interface OverviewInboxProps {
  companyId: string;
  inbox: OverviewInboxData;
  /** Reference time for relative times (stories pass a fixed one). */
  now?: string;
  className?: string;
}

/** The kinds of inbox entry, in the order they are listed (a person's call first). */
export type InboxKind =
  | "approval"
  | "autonomy"
  | "review"
  | "suppressed"
  | "missing_secret"
  | "authorization"
  | "unhealthy"
  | "unknown_outcome";

const KIND: Record<InboxKind, { label: string; tone: BadgeTone }> = {
  approval: { label: "Approval", tone: "warning" },
  autonomy: { label: "Second admin", tone: "warning" },
  review: { label: "Review", tone: "info" },
  suppressed: { label: "Runtime", tone: "danger" },
  missing_secret: { label: "Secret", tone: "danger" },
  authorization: { label: "Authorize", tone: "danger" },
  unhealthy: { label: "Health", tone: "danger" },
  unknown_outcome: { label: "Outcome", tone: "warning" },
};

interface Entry {
  key: string;
  kind: InboxKind;
  href: string;
  title: ReactNode;
  detail?: ReactNode;
  /** Links to act on, shown under the entry (the oldest approvals). */
  children?: ReactNode;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The entries of an inbox, most pressing first. Exported for tests. */
export function inboxEntries(companyId: string, inbox: OverviewInboxData, now?: string): Entry[] {
  const to = overviewHrefs(companyId);
  const entries: Entry[] = [];
  const { pendingApprovals: pending } = inbox;
  if (pending.total > 0) {
    entries.push({
      key: "approvals",
      kind: "approval",
      href: to.approvals,
      title: `${plural(pending.total, "tool call waits", "tool calls wait")} for approval`,
      detail: "Nothing runs until a person approves or declines it.",
      children: (
        <ul className="mt-2 space-y-1" aria-label="Oldest waiting calls">
          {pending.oldest.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-baseline gap-x-2 text-sm"
              data-testid="inbox-approval"
            >
              <Link
                href={r.issueIdentifier ? to.issue(r.issueIdentifier) : to.approvals}
                className="font-mono text-xs text-zinc-900 underline underline-offset-2 hover:text-zinc-600"
              >
                {r.toolName}
              </Link>
              <span className="text-zinc-600">
                {r.agentName ? `asked by ${r.agentName}` : "asked by an agent"}
                {r.issueIdentifier ? ` on ${r.issueIdentifier}` : ""}
              </span>
              <span className="text-zinc-500">
                <RelativeTime value={r.createdAt} now={now} />
              </span>
            </li>
          ))}
        </ul>
      ),
    });
  }
  if (inbox.pendingAutonomyChanges > 0) {
    entries.push({
      key: "autonomy",
      kind: "autonomy",
      href: to.approvals,
      title: `${plural(inbox.pendingAutonomyChanges, "change to an agent's autonomy waits", "changes to agents' autonomy wait")} for a second admin`,
    });
  }
  for (const c of inbox.toolsToReview) {
    entries.push({
      key: `review-${c.connectionId}`,
      kind: "review",
      href: to.connection(c.connectionId),
      title: `${c.connectionName}: ${plural(c.quarantined, "tool waits", "tools wait")} for review`,
      detail:
        c.changed > 0
          ? `${plural(c.changed, "tool changed", "tools changed")} upstream since it was reviewed; quarantined tools are hidden from agents.`
          : "New tools stay hidden from agents until someone reviews them.",
    });
  }
  for (const s of inbox.suppressedSlots) {
    entries.push({
      key: `suppressed-${s.slotId}`,
      kind: "suppressed",
      href: to.runtime,
      title: `${s.connectionName}: its local tool server is suppressed after repeated crashes`,
      detail: s.lastError ?? "Calls to it fail until an admin restarts the slot.",
    });
  }
  for (const c of inbox.missingSecrets) {
    entries.push({
      key: `secret-${c.connectionId}`,
      kind: "missing_secret",
      href: to.connection(c.connectionId),
      title: `${c.connectionName}: a bound secret is missing or revoked`,
      detail: "Its calls are refused until the binding points at an active secret.",
    });
  }
  for (const c of inbox.needsAuthorization ?? []) {
    entries.push({
      key: `auth-${c.connectionId}`,
      kind: "authorization",
      href: c.personal ? "/account#linked-accounts" : to.connection(c.connectionId),
      title: c.personal
        ? `${c.connectionName}: link your account so your runs can use it`
        : `${c.connectionName}: ${c.reason ? "authorise it again (Reconnect)" : "connect it with OAuth"}`,
      detail:
        c.reason ??
        (c.personal
          ? "Its tools act as the person who started the run; yours are refused until you link it."
          : "Its calls are refused until an admin connects it."),
    });
  }
  for (const c of inbox.unhealthyConnections) {
    entries.push({
      key: `health-${c.connectionId}`,
      kind: "unhealthy",
      href: to.connection(c.connectionId),
      title: `${c.connectionName}: the last health check failed`,
      detail: c.healthError ?? undefined,
    });
  }
  if (inbox.unknownOutcomes > 0) {
    entries.push({
      key: "unknown",
      kind: "unknown_outcome",
      href: to.audit({ outcome: "outcome_unknown" }),
      title: `${plural(inbox.unknownOutcomes, "call has", "calls have")} an unknown outcome`,
      detail: "The server running it stopped mid-call; say whether it happened so a retry is safe.",
    });
  }
  return entries;
}

/** "Needs you": what a person should act on, each entry a link to the place to act. */
export function OverviewInbox({ companyId, inbox, now, className }: OverviewInboxProps) {
  const entries = inboxEntries(companyId, inbox, now);
  return (
    <Card className={className} data-testid="overview-inbox" data-count={entries.length}>
      <CardHeader
        title="Needs you"
        description={
          entries.length === 0
            ? undefined
            : "Waiting approvals, tools to review and problems that stop calls, oldest first."
        }
      />
      {entries.length === 0 ? (
        <p className="px-5 py-4 text-sm text-zinc-600" data-testid="overview-inbox-empty">
          Nothing needs you. No calls wait for approval, no tools wait for review, and every connection and
          runtime slot is healthy.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100">
          {entries.map((e) => (
            <li key={e.key} className="px-5 py-3" data-testid="inbox-item" data-kind={e.kind}>
              <div className="flex items-start gap-3">
                <Badge tone={KIND[e.kind].tone} className="mt-0.5 shrink-0">
                  {KIND[e.kind].label}
                </Badge>
                <div className="min-w-0 flex-1">
                  <Link
                    href={e.href}
                    className={cn(
                      "font-medium break-words text-zinc-900 underline-offset-2 hover:underline",
                      "focus-visible:outline-2 focus-visible:outline-offset-2",
                    )}
                    data-testid="inbox-link"
                  >
                    {e.title}
                  </Link>
                  {e.detail ? <p className="mt-0.5 text-sm break-words text-zinc-600">{e.detail}</p> : null}
                  {e.children}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
