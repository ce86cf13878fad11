import type { ReactNode } from "react";
import { agentStatusTone } from "@/components/labels";
import type { DateInput } from "../format";
import { humanize } from "../format";
import type { AgentSummary } from "../types";
import { Badge } from "../ui/Badge";
import { ListTable } from "../ui/ListTable";
import { RelativeTime } from "../ui/RelativeTime";
import { companyItemHref, RowLink } from "../ui/RowLink";
import { TD, TR } from "../ui/Table";

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
  return companyItemHref(companyId, "agents", agentId);
}

/** Table of agents; rows have `data-testid="agent-row"`. */
export function AgentList({ companyId, agents, now, emptyAction, className }: AgentListProps) {
  return (
    <ListTable
      items={agents}
      columns={["Agent", "Status", "Last run", "Created"]}
      testId="agent-list"
      stacked
      empty={{
        "data-testid": "agents-empty",
        title: "No agents yet",
        description:
          "Agents that work on this company's issues will be listed here with their status and latest run.",
        action: emptyAction,
      }}
      className={className}
    >
      {(agent) => (
        <TR key={agent.id} data-testid="agent-row" data-agent-id={agent.id}>
          <TD data-label="Agent">
            <RowLink href={agentHref(companyId, agent.id)}>{agent.name}</RowLink>
            {agent.title ? <p className="text-xs text-zinc-500">{agent.title}</p> : null}
          </TD>
          <TD data-label="Status">
            <Badge tone={agentStatusTone(agent.status)}>{humanize(agent.status)}</Badge>
          </TD>
          <TD data-label="Last run">
            {agent.lastRunAt ? (
              <RelativeTime value={agent.lastRunAt} now={now} />
            ) : (
              <span className="text-zinc-500">Never</span>
            )}
          </TD>
          <TD data-label="Created">
            <RelativeTime value={agent.createdAt} now={now} />
          </TD>
        </TR>
      )}
    </ListTable>
  );
}
