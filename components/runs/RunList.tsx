import Link from "next/link";
import type { DateInput } from "../format";
import { durationBetween, formatDuration, humanize } from "../format";
import { runStatusTone } from "../status";
import type { RunSummary } from "../types";
import { Badge } from "../ui/Badge";
import { cn, focusRing } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { RelativeTime } from "../ui/RelativeTime";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";

export type { RunStatus, RunSummary } from "../types";

export interface RunListProps {
  companyId: string;
  runs: RunSummary[];
  /** Reference time for relative dates and the duration of running runs. */
  now?: DateInput;
  className?: string;
}

export function runHref(companyId: string, runId: string): string {
  return `/c/${encodeURIComponent(companyId)}/runs/${encodeURIComponent(runId)}`;
}

/** Table of runs with status and duration; rows have `data-testid="run-row"`. */
export function RunList({ companyId, runs, now, className }: RunListProps) {
  if (runs.length === 0) {
    return (
      <EmptyState
        className={className}
        data-testid="runs-empty"
        title="No runs yet"
        description="A run is recorded each time an agent starts working. Runs will be listed here with their status and duration."
      />
    );
  }
  return (
    <Table containerClassName={className} data-testid="run-list">
      <HeaderRow
        columns={[
          "Run",
          "Agent",
          "Issue",
          "Status",
          "Created",
          { label: "Duration", className: "text-right" },
        ]}
      />
      <TBody>
        {runs.map((run) => {
          const ms = durationBetween(run.startedAt, run.finishedAt, now);
          return (
            <TR key={run.id} data-testid="run-row" data-run-id={run.id} data-status={run.status}>
              <TD>
                <Link
                  href={runHref(companyId, run.id)}
                  className={cn(
                    "rounded font-mono text-xs text-zinc-900 hover:text-accent-700 hover:underline",
                    focusRing,
                  )}
                >
                  {run.id.slice(0, 8)}
                </Link>
              </TD>
              <TD className="font-medium whitespace-nowrap text-zinc-900">{run.agentName}</TD>
              <TD className="font-mono text-xs whitespace-nowrap">
                {run.issueIdentifier ?? <span className="font-sans text-sm text-zinc-500">—</span>}
              </TD>
              <TD>
                <Badge tone={runStatusTone(run.status)} dot>
                  {humanize(run.status)}
                </Badge>
              </TD>
              <TD>
                <RelativeTime value={run.createdAt} now={now} />
              </TD>
              <TD className="text-right whitespace-nowrap tabular-nums">
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
        })}
      </TBody>
    </Table>
  );
}
