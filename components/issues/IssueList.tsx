import type { ReactNode } from "react";
import { issueStatusTone } from "@/components/labels";
import type { DateInput } from "../format";
import { humanize } from "../format";
import type { IssueSummary } from "../types";
import { Badge } from "../ui/Badge";
import { ListTable } from "../ui/ListTable";
import { RelativeTime } from "../ui/RelativeTime";
import { companyItemHref, RowLink } from "../ui/RowLink";
import { TD, TR } from "../ui/Table";

export type { IssueSummary } from "../types";

export interface IssueListProps {
  companyId: string;
  issues: IssueSummary[];
  /** Reference time for relative dates. */
  now?: DateInput;
  /** Optional call to action in the empty state (e.g. a "New issue" link). */
  emptyAction?: ReactNode;
  className?: string;
}

export function issueHref(companyId: string, issueId: string): string {
  return companyItemHref(companyId, "issues", issueId);
}

/** Table of issues; rows have `data-testid="issue-row"`. */
export function IssueList({ companyId, issues, now, emptyAction, className }: IssueListProps) {
  return (
    <ListTable
      items={issues}
      columns={[{ label: "ID", className: "w-28" }, "Title", "Status", "Assignee", "Project", "Updated"]}
      testId="issue-list"
      stacked
      empty={{
        "data-testid": "issues-empty",
        title: "No issues yet",
        description:
          "Issues are the units of work you hand to agents. They will be listed here with their status and assignee.",
        action: emptyAction,
      }}
      className={className}
    >
      {(issue) => (
        <TR key={issue.id} data-testid="issue-row" data-issue-id={issue.id}>
          <TD data-label="ID" className="font-mono text-xs whitespace-nowrap text-zinc-500">
            {issue.identifier}
          </TD>
          <TD data-label="Title" className="min-w-64">
            <RowLink href={issueHref(companyId, issue.id)}>{issue.title}</RowLink>
          </TD>
          <TD data-label="Status">
            <Badge tone={issueStatusTone(issue.status)}>{humanize(issue.status)}</Badge>
          </TD>
          <TD data-label="Assignee" className="whitespace-nowrap">
            {issue.assigneeName ?? <span className="text-zinc-500">Unassigned</span>}
          </TD>
          <TD data-label="Project" className="whitespace-nowrap">
            {issue.projectName ?? <span className="text-zinc-500">—</span>}
          </TD>
          <TD data-label="Updated">
            <RelativeTime value={issue.updatedAt} now={now} />
          </TD>
        </TR>
      )}
    </ListTable>
  );
}
