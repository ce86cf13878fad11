import Link from "next/link";
import { runStatusTone } from "@/components/labels";
import type { DateInput } from "../format";
import { durationBetween, formatAbsolute, formatClock, formatDuration, humanize } from "../format";
import type { RunDetailData, RunEvent } from "../types";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { KeyValueList } from "../ui/KeyValueList";
import { PageHeader } from "../ui/PageHeader";
import { RelativeTime } from "../ui/RelativeTime";

export type { RunDetailData, RunEvent } from "../types";

export interface RunDetailProps {
  companyId: string;
  run: RunDetailData;
  /** Transcript events, oldest first. Empty until the gateway records tool calls. */
  events: RunEvent[];
  /** Reference time for relative dates and the duration of a running run. */
  now?: DateInput;
}

function timeValue(value: string | null, now?: DateInput) {
  return value ? <RelativeTime value={value} now={now} /> : null;
}

const linkClass = cn("rounded text-accent-700 hover:underline", focusRing);

/** Run header, fields and transcript. */
export function RunDetail({ companyId, run, events, now }: RunDetailProps) {
  const base = `/c/${encodeURIComponent(companyId)}`;
  const ms = durationBetween(run.startedAt, run.finishedAt, now);
  const agent = run.agentId ? (
    <Link href={`${base}/agents/${encodeURIComponent(run.agentId)}`} className={linkClass}>
      {run.agentName}
    </Link>
  ) : (
    run.agentName
  );
  const issue = run.issueIdentifier ? (
    run.issueId ? (
      <Link
        href={`${base}/issues/${encodeURIComponent(run.issueId)}`}
        className={cn(linkClass, "font-mono text-xs")}
      >
        {run.issueIdentifier}
      </Link>
    ) : (
      <span className="font-mono text-xs">{run.issueIdentifier}</span>
    )
  ) : null;

  return (
    <div className="space-y-6" data-testid="run-detail">
      <PageHeader
        eyebrow={
          <Link href={`${base}/runs`} className={cn("rounded hover:text-zinc-800", focusRing)}>
            Runs
          </Link>
        }
        title={
          <>
            Run <span className="font-mono text-xl">{run.id.slice(0, 8)}</span>
          </>
        }
        description={`${run.agentName}${run.issueIdentifier ? ` on ${run.issueIdentifier}` : ""}`}
        actions={
          <Badge tone={runStatusTone(run.status)} dot data-testid="run-status">
            {humanize(run.status)}
          </Badge>
        }
      />
      {run.status === "failed" && run.error ? (
        <Alert tone="danger" title="This run failed" data-testid="run-error">
          {run.error}
        </Alert>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="h-fit lg:order-last">
          <CardHeader title="Details" />
          <CardBody className="py-2">
            <KeyValueList
              items={[
                { label: "Status", value: humanize(run.status) },
                { label: "Agent", value: agent },
                { label: "Issue", value: issue },
                { label: "Created", value: timeValue(run.createdAt, now) },
                { label: "Started", value: timeValue(run.startedAt, now) ?? "Not started" },
                {
                  label: "Finished",
                  value: timeValue(run.finishedAt, now) ?? (run.startedAt ? "Still running" : null),
                },
                { label: "Duration", value: ms === null ? null : formatDuration(ms) },
                { label: "Run ID", value: <span className="font-mono text-xs break-all">{run.id}</span> },
              ]}
            />
          </CardBody>
        </Card>
        <Card className="lg:col-span-2" data-testid="run-transcript">
          <CardHeader title="Transcript" description="Tool calls the agent made during this run, in order." />
          {events.length === 0 ? (
            <CardBody>
              <p className="text-sm text-zinc-600" data-testid="run-transcript-empty">
                No tool calls recorded for this run. Calls the agent makes through the gateway appear here.
              </p>
            </CardBody>
          ) : (
            <ol className="divide-y divide-zinc-100">
              {events.map((event) => (
                <li
                  key={event.id}
                  data-testid="run-event"
                  className="grid gap-1 px-5 py-3 text-sm sm:grid-cols-[7rem_9rem_1fr] sm:gap-4"
                >
                  <time
                    dateTime={event.at}
                    title={formatAbsolute(event.at)}
                    className="font-mono text-xs text-zinc-500 tabular-nums"
                  >
                    {formatClock(event.at)}
                  </time>
                  <span>
                    <Badge tone={event.tone ?? "neutral"} title={event.title} data-testid="run-event-kind">
                      {event.kind}
                    </Badge>
                  </span>
                  <span className="min-w-0 break-words text-zinc-800">
                    {event.summary}
                    {event.href ? (
                      <>
                        {" "}
                        <Link
                          href={event.href}
                          // In running text a link is underlined, not told apart by colour alone (WCAG 1.4.1).
                          className={cn(linkClass, "underline underline-offset-2")}
                          data-testid="run-event-link"
                        >
                          details
                        </Link>
                      </>
                    ) : null}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </div>
  );
}
