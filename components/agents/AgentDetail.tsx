import Link from "next/link";
import type { ReactNode } from "react";
import { agentStatusTone, runStatusTone } from "@/components/labels";
import type { DateInput } from "../format";
import { durationBetween, formatDuration, humanize } from "../format";
import { runHref } from "../runs/RunList";
import type { AgentRunSummary, AgentSummary } from "../types";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { KeyValueList } from "../ui/KeyValueList";
import { PageHeader } from "../ui/PageHeader";
import { RelativeTime } from "../ui/RelativeTime";

export type { AgentRunSummary, AgentSummary } from "../types";

export interface AgentDetailProps {
  companyId: string;
  agent: AgentSummary;
  /** Recent runs for this agent, newest first. */
  runs: AgentRunSummary[];
  /** Reference time for relative dates. */
  now?: DateInput;
  /** The effective-tools card (the page renders it from the same engine the gateway uses). */
  effectiveTools?: ReactNode;
  /** The configuration card (model, budget, instructions), below the recent runs. */
  config?: ReactNode;
}

/** Agent header, details, recent runs and the effective tools card. */
export function AgentDetail({ companyId, agent, runs, now, effectiveTools, config }: AgentDetailProps) {
  return (
    <div className="space-y-6" data-testid="agent-detail">
      <PageHeader
        eyebrow={
          <Link
            href={`/c/${encodeURIComponent(companyId)}/agents`}
            className={cn("rounded hover:text-zinc-800", focusRing)}
          >
            Agents
          </Link>
        }
        title={agent.name}
        description={agent.title ?? undefined}
        actions={<Badge tone={agentStatusTone(agent.status)}>{humanize(agent.status)}</Badge>}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardHeader title="Recent runs" description="The latest times this agent was started." />
            {runs.length === 0 ? (
              <CardBody>
                <p className="text-sm text-zinc-600" data-testid="agent-runs-empty">
                  This agent has not run yet. Runs appear here once it picks up work.
                </p>
              </CardBody>
            ) : (
              <ul className="divide-y divide-zinc-100" data-testid="agent-runs">
                {runs.map((run) => {
                  const ms = durationBetween(run.startedAt, run.finishedAt, now);
                  return (
                    <li
                      key={run.id}
                      className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-3 text-sm"
                    >
                      <Badge tone={runStatusTone(run.status)} dot>
                        {humanize(run.status)}
                      </Badge>
                      <Link
                        href={runHref(companyId, run.id)}
                        className={cn(
                          "rounded font-mono text-xs text-zinc-700 hover:text-accent-700 hover:underline",
                          focusRing,
                        )}
                      >
                        Run {run.id.slice(0, 8)}
                      </Link>
                      <span className="text-zinc-600">{run.issueIdentifier ?? "No issue"}</span>
                      <span className="ml-auto flex items-center gap-3 text-zinc-500">
                        {ms === null ? null : <span className="tabular-nums">{formatDuration(ms)}</span>}
                        <RelativeTime value={run.createdAt} now={now} />
                      </span>
                    </li>
                  );
                })}
              </ul>
            )}
          </Card>
          {config}
        </div>
        <div className="space-y-6">
          <Card>
            <CardHeader title="Details" />
            <CardBody className="py-2">
              <KeyValueList
                items={[
                  { label: "Status", value: humanize(agent.status) },
                  { label: "Title", value: agent.title },
                  { label: "Created", value: <RelativeTime value={agent.createdAt} now={now} /> },
                  {
                    label: "Last run",
                    value: agent.lastRunAt ? <RelativeTime value={agent.lastRunAt} now={now} /> : "Never",
                  },
                ]}
              />
            </CardBody>
          </Card>
        </div>
      </div>
      {/* Full width: an agent may see dozens of tools (issue 21 item 9). */}
      {effectiveTools ?? (
        <Card data-testid="agent-effective-tools">
          <CardHeader title="Effective tools" />
          <CardBody>
            <p className="text-sm text-zinc-600">
              Effective tools appear here once tool profiles exist for this company. A profile decides which
              applications and actions this agent may use through the gateway.
            </p>
          </CardBody>
        </Card>
      )}
    </div>
  );
}
