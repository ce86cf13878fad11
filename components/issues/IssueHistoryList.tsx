import type { Wire } from "@/server/contracts/api/common";
import type { IssueHistoryEvent } from "@/server/contracts/api/work";
import type { DateInput } from "../format";
import { humanize } from "../format";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { RelativeTime } from "../ui/RelativeTime";

export type IssueHistoryItem = Pick<
  Wire<typeof IssueHistoryEvent>,
  "id" | "action" | "actorType" | "actorName" | "via" | "details" | "createdAt"
>;

const str = (v: unknown) => (typeof v === "string" ? v : null);

/** What happened, in a few words ("moved to Done", "wrote document `plan`"). */
export function describeEvent(event: Pick<IssueHistoryItem, "action" | "details">): string {
  const d = event.details as Record<string, unknown>;
  const changes = (d.changes ?? {}) as Record<string, { to?: unknown }>;
  switch (event.action) {
    case "issue.create":
      return "created the issue";
    case "issue.comment":
      return "commented";
    case "issue.finish":
      return "finished the issue";
    case "issue.block":
      return `blocked the issue${str(d.reason) ? `: ${d.reason}` : ""}`;
    case "issue.update": {
      const to = str(changes.status?.to);
      if (to) return `moved the issue to ${humanize(to)}`;
      if ("assigneeAgentId" in changes)
        return changes.assigneeAgentId?.to ? "assigned the issue" : "unassigned the issue";
      return `edited ${Object.keys(changes).join(", ") || "the issue"}`;
    }
    case "issue.document_write":
      return `wrote document ${str(d.document) ?? ""} (revision ${d.revision ?? "?"})`;
    case "issue.work_product_register":
      return `registered deliverable ${str(d.title) ?? ""}`;
    case "issue.work_product_update":
      return `updated deliverable ${str(d.title) ?? ""}`;
    case "issue.attachment_add":
      return `attached ${str(d.filename) ?? "a file"}`;
    case "issue.attachment_remove":
      return `removed attachment ${str(d.filename) ?? ""}`;
    case "issue.run_queued":
      return "queued a run for the assignee";
    default:
      return humanize(event.action.replace(/^issue\./, ""));
  }
}

/** The issue's history, newest first: who (and through which assistant) did what, when. */
export function IssueHistoryList({ events, now }: { events: IssueHistoryItem[]; now?: DateInput }) {
  return (
    <Card data-testid="issue-history">
      <CardHeader title="History" titleAs="h2" />
      <CardBody>
        {events.length === 0 ? (
          <p className="text-sm text-zinc-500">Nothing recorded yet.</p>
        ) : (
          <ol className="space-y-2 text-sm">
            {events.map((event) => (
              <li
                key={event.id}
                className="flex flex-wrap items-baseline gap-x-1.5"
                data-testid="history-event"
              >
                <span className="font-medium text-zinc-800">{event.actorName}</span>
                {event.via?.clientName ? (
                  <span className="text-zinc-500" data-testid="history-via">
                    via <bdi>{event.via.clientName}</bdi>
                  </span>
                ) : null}
                <span className="text-zinc-700">{describeEvent(event)}</span>
                <span aria-hidden="true" className="text-zinc-400">
                  ·
                </span>
                <RelativeTime value={event.createdAt} now={now} className="text-xs text-zinc-500" />
              </li>
            ))}
          </ol>
        )}
      </CardBody>
    </Card>
  );
}
