import Link from "next/link";
import type { ConnectionActivity as Activity } from "@/server/contracts/public-mcp";
import { humanize } from "../format";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { companyItemHref } from "../ui/RowLink";

/** How an activity row reads in a connection's list ("Created a task"). */
const LABELS: Record<string, string> = {
  "issue.create": "Created a task",
  "issue.comment": "Commented on a task",
  "issue.update": "Updated a task",
  "issue.finish": "Finished a task",
  "issue.block": "Blocked a task",
  "issue.document_write": "Wrote a task document",
  "issue.attachment_add": "Attached a file",
  "issue.attachment_remove": "Removed a file",
  "issue.work_product_register": "Registered a deliverable",
  "issue.work_product_update": "Updated a deliverable",
  "issue.run_queued": "Queued a run",
  "public_mcp.read": "Read",
  "mcp_event_subscription.create": "Started watching a task",
  "mcp_event_subscription.delete": "Stopped watching a task",
  "mcp_event_subscription.refused": "Tried to watch a task (callback refused)",
  "mcp_event_subscription.rotate_secret": "Rotated an event signing key",
  "mcp_event_subscription.stop": "Event subscription stopped",
};

export const activityLabel = (action: string): string => LABELS[action] ?? humanize(action.replace(".", " "));

/** What one assistant connection did recently (the server bounds the list), newest first. */
export function ConnectionActivity({ items }: { items: readonly Activity[] }) {
  if (items.length === 0)
    return (
      <p className="text-xs text-zinc-500" data-testid="connection-activity-empty">
        No activity yet.
      </p>
    );
  return (
    <ul
      className="space-y-0.5 text-xs text-zinc-600"
      data-testid="connection-activity"
      aria-label="Recent activity"
    >
      {items.map((a) => {
        const href =
          a.entityType === "issue" && a.companyId && a.entityId
            ? companyItemHref(a.companyId, "issues", a.entityId)
            : null;
        return (
          <li key={a.id} className="flex flex-wrap gap-x-1">
            {href ? (
              <Link href={href} className={cn("rounded hover:text-accent-700 hover:underline", focusRing)}>
                {activityLabel(a.action)}
              </Link>
            ) : (
              <span>{activityLabel(a.action)}</span>
            )}
            <span aria-hidden="true">·</span>
            <RelativeTime value={a.createdAt} className="text-zinc-500" />
          </li>
        );
      })}
    </ul>
  );
}
