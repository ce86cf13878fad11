/**
 * View-model types shared by the presentational components. Dates are ISO-8601 strings.
 * These are shapes for props only; they do not mirror database rows. Where a prop is a piece
 * of an API answer it is picked from the server's contract as the browser receives it
 * (`Wire<…>`, server/contracts/api/core.ts and records.ts), so a renamed or retyped field
 * is a type error here too.
 */

import type { Wire } from "@/server/contracts/api/common";
import type * as Core from "@/server/contracts/api/core";
import type * as Records from "@/server/contracts/api/records";
import type { COMMENT_AUTHOR_TYPES, COMMENT_KINDS, RUN_STATUSES } from "@/server/contracts/values";

export type ISODateString = string;

/** A React server action passed to a form by its page. */
export type FormAction = (formData: FormData) => void | Promise<void>;

// Shell

export interface ShellUser {
  name: string | null;
  email: string;
}

export type ShellCompany = Pick<Wire<typeof Records.CompanySummary>, "id" | "name">;

// Agents

/** An agent as listed (`GET /agents`), with the time of its latest run. */
export type AgentSummary = Pick<
  Wire<typeof Core.AgentsResponse>["agents"][number],
  "id" | "name" | "title" | "status" | "createdAt" | "lastRunAt"
>;

// Runs

export type RunStatus = (typeof RUN_STATUSES)[number];

export type RunSummary = Pick<
  Wire<typeof Core.Run>,
  "id" | "agentName" | "status" | "issueIdentifier" | "createdAt" | "startedAt" | "finishedAt"
>;

/** A run as shown on an agent's page (the agent is implied). */
export type AgentRunSummary = Omit<RunSummary, "agentName"> & { agentName?: string };

/** A run with optional extra fields used on the run detail page. */
export type RunDetailData = RunSummary & {
  /** When present, the agent name links to the agent. */
  agentId?: Wire<typeof Core.Run>["agentId"] | null;
  /** When present, the issue identifier links to the issue. */
  issueId?: Wire<typeof Core.Run>["issueId"];
  /** Failure reason, shown for failed runs. */
  error?: Wire<typeof Core.Run>["error"];
};

export interface RunEvent {
  id: string;
  at: ISODateString;
  kind: string;
  summary: string;
  /** e.g. "allow", "deny", "rate_limited": colours the kind badge. */
  tone?: "neutral" | "success" | "warning" | "danger" | "info";
  /** Where the event's details live (the audit trail, filtered to its invocation). */
  href?: string | null;
  /** The stable code(s) behind `kind`, shown on hover. */
  title?: string;
}

// Issues

/** An issue as listed; `identifier` is e.g. "ACME-3". */
export type IssueSummary = Pick<
  Wire<typeof Core.Issue>,
  "id" | "identifier" | "title" | "status" | "assigneeName" | "projectName" | "updatedAt"
>;

type IssueWire = Wire<typeof Records.IssueDetail>;

export type IssueDetail = Pick<
  IssueWire,
  "id" | "identifier" | "title" | "status" | "assigneeName" | "projectName" | "parentIdentifier"
> & {
  body: IssueWire["body"] | null;
  /** When present, the parent identifier links to the parent issue. */
  parentId?: IssueWire["parentId"];
  createdAt?: IssueWire["createdAt"];
  updatedAt?: IssueWire["updatedAt"];
  /** The person who created it, and the assistant client they created it through. */
  createdByName?: IssueWire["createdByName"];
  createdViaClient?: string | null;
};

export type CommentAuthorType = (typeof COMMENT_AUTHOR_TYPES)[number];
export type CommentKind = (typeof COMMENT_KINDS)[number];

export type IssueComment = Pick<
  Wire<typeof Records.IssueComment>,
  "id" | "authorType" | "authorName" | "kind" | "body" | "payload" | "createdAt"
>;

// Tools & Access

export interface OverviewCounts {
  applications: number;
  activeConnections: number;
  denials24h: number;
  highRiskCalls24h: number;
  rateLimited24h: number;
  runtimeSlots: number;
}
