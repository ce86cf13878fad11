import Link from "next/link";
import type { ReactNode } from "react";
import type { DateInput } from "../format";
import { humanize } from "../format";
import { agentStatusTone } from "../status";
import type { AgentSummary } from "../types";
import { Badge } from "../ui/Badge";
import { cn, focusRing } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { RelativeTime } from "../ui/RelativeTime";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";

export type { AgentSummary } from "../types";

export interface AgentListProps {
  companyId: string;
  agents: AgentSummary[];
  /** Reference time for relative dates. */
  now?: DateInput;
  /** Optional call to action in the empty state (e.g. a "Hire an agent" link). */
  emptyAction?: ReactNode;
  className?: string;
}

export function agentHref(companyId: string, agentId: string): string {
  return `/c/${encodeURIComponent(companyId)}/agents/${encodeURIComponent(agentId)}`;
}

/** Table of agents; rows have `data-testid="agent-row"`. */
export function AgentList({ companyId, agents, now, emptyAction, className }: AgentListProps) {
  if (agents.length === 0) {
    return (
      <EmptyState
        className={className}
        data-testid="agents-empty"
        title="No agents yet"
        description="Agents that work on this company's issues will be listed here with their status and latest run."
        action={emptyAction}
      />
    );
  }
  return (
    <Table containerClassName={className} data-testid="agent-list">
      <HeaderRow columns={["Agent", "Status", "Last run", "Created"]} />
      <TBody>
        {agents.map((agent) => (
          <TR key={agent.id} data-testid="agent-row" data-agent-id={agent.id}>
            <TD>
              <Link
                href={agentHref(companyId, agent.id)}
                className={cn(
                  "rounded font-medium text-zinc-900 hover:text-accent-700 hover:underline",
                  focusRing,
                )}
              >
                {agent.name}
              </Link>
              {agent.title ? <p className="text-xs text-zinc-500">{agent.title}</p> : null}
            </TD>
            <TD>
              <Badge tone={agentStatusTone(agent.status)}>{humanize(agent.status)}</Badge>
            </TD>
            <TD>
              {agent.lastRunAt ? (
                <RelativeTime value={agent.lastRunAt} now={now} />
              ) : (
                <span className="text-zinc-500">Never</span>
              )}
            </TD>
            <TD>
              <RelativeTime value={agent.createdAt} now={now} />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
