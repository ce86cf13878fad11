/**
 * View-model types shared by the presentational components. Dates are ISO-8601 strings.
 * These are shapes for props only; they do not mirror database rows.
 */

export type ISODateString = string;

/** A React server action passed to a form by its page. */
export type FormAction = (formData: FormData) => void | Promise<void>;

// Shell

export interface ShellUser {
  name: string | null;
  email: string;
}

export interface ShellCompany {
  id: string;
  name: string;
}

// Agents

export interface AgentSummary {
  id: string;
  name: string;
  title: string | null;
  /** e.g. "active", "idle", "paused", "error" */
  status: string;
  createdAt: ISODateString;
  lastRunAt: ISODateString | null;
}

// Runs

export type RunStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface RunSummary {
  id: string;
  agentName: string;
  status: RunStatus;
  issueIdentifier: string | null;
  createdAt: ISODateString;
  startedAt: ISODateString | null;
  finishedAt: ISODateString | null;
}

/** A run as shown on an agent's page (the agent is implied). */
export type AgentRunSummary = Omit<RunSummary, "agentName"> & { agentName?: string };

/** A run with optional extra fields used on the run detail page. */
export type RunDetailData = RunSummary & {
  /** When present, the agent name links to the agent. */
  agentId?: string | null;
  /** When present, the issue identifier links to the issue. */
  issueId?: string | null;
  /** Failure reason, shown for failed runs. */
  error?: string | null;
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
}

// Issues

export interface IssueSummary {
  id: string;
  /** e.g. "ACME-3" */
  identifier: string;
  title: string;
  /** e.g. "backlog", "todo", "in_progress", "in_review", "done", "cancelled" */
  status: string;
  assigneeName: string | null;
  projectName: string | null;
  updatedAt: ISODateString;
}

export interface IssueDetail {
  id: string;
  identifier: string;
  title: string;
  body: string | null;
  status: string;
  assigneeName: string | null;
  projectName: string | null;
  parentIdentifier: string | null;
  /** When present, the parent identifier links to the parent issue. */
  parentId?: string | null;
  createdAt?: ISODateString;
  updatedAt?: ISODateString;
}

export type CommentAuthorType = "user" | "agent" | "system";
export type CommentKind = "text" | "action_card" | "event";

export interface IssueComment {
  id: string;
  authorType: CommentAuthorType;
  authorName: string;
  kind: CommentKind;
  body: string;
  payload: Record<string, unknown> | null;
  createdAt: ISODateString;
}

// Tools & Access

export interface OverviewCounts {
  applications: number;
  activeConnections: number;
  denials24h: number;
  highRiskCalls24h: number;
  rateLimited24h: number;
  runtimeSlots: number;
}
