import { runStatusTone } from "@/components/labels";
import type { DateInput } from "../format";
import { durationBetween, formatDuration, humanize } from "../format";
import type { RunSummary } from "../types";
import { Badge } from "../ui/Badge";
import { ListTable } from "../ui/ListTable";
import { RelativeTime } from "../ui/RelativeTime";
import { companyItemHref, RowLink } from "../ui/RowLink";
import { TD, TR } from "../ui/Table";

export type { RunStatus, RunSummary } from "../types";

export interface RunListProps {
  companyId: string;
  runs: RunSummary[];
  /** Reference time for relative dates and the duration of running runs. */
  now?: DateInput;
  className?: string;
}

export function runHref(companyId: string, runId: string): string {
  return companyItemHref(companyId, "runs", runId);
}

/** Table of runs with status and duration; rows have `data-testid="run-row"`. */
export function RunList({ companyId, runs, now, className }: RunListProps) {
  return (
    <ListTable
      items={runs}
      columns={["Run", "Agent", "Issue", "Status", "Created", { label: "Duration", className: "text-right" }]}
      testId="run-list"
      stacked
      empty={{
        "data-testid": "runs-empty",
        title: "No runs yet",
        description:
          "A run is recorded each time an agent starts working. Runs will be listed here with their status and duration.",
      }}
      className={className}
    >
      {(run) => {
        const ms = durationBetween(run.startedAt, run.finishedAt, now);
        return (
          <TR key={run.id} data-testid="run-row" data-run-id={run.id} data-status={run.status}>
            <TD data-label="Run">
              <RowLink href={runHref(companyId, run.id)} mono>
                {run.id.slice(0, 8)}
              </RowLink>
            </TD>
            <TD data-label="Agent" className="font-medium whitespace-nowrap text-zinc-900">
              {run.agentName}
            </TD>
            <TD data-label="Issue" className="font-mono text-xs whitespace-nowrap">
              {run.issueIdentifier ?? <span className="font-sans text-sm text-zinc-500">—</span>}
            </TD>
            <TD data-label="Status">
              <Badge tone={runStatusTone(run.status)} dot>
                {humanize(run.status)}
              </Badge>
            </TD>
            <TD data-label="Created">
              <RelativeTime value={run.createdAt} now={now} />
            </TD>
            <TD data-label="Duration" className="text-right whitespace-nowrap tabular-nums">
              {ms === null ? (
                <span className="text-zinc-500">Not started</span>
              ) : (
                <>
                  {formatDuration(ms)}
                  {run.finishedAt ? null : <span className="sr-only"> so far</span>}
                </>
              )}
            </TD>
          </TR>
        );
      }}
    </ListTable>
  );
}
