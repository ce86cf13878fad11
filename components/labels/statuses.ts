/** Labels and badge tones for the approvals views. */

import type {
  ActionRequestStatus,
  FormalApprovalKind,
  FormalApprovalStatus,
  TrustRuleScope,
  TrustRuleStatus,
} from "../approvals/types";
import type { BadgeTone } from "../ui/Badge";

export interface StatusStyle {
  label: string;
  tone: BadgeTone;
}

/** pending amber; approved and executing blue; executed green; failed red; the closed states neutral. */
export const ACTION_STATUS_STYLES: Record<ActionRequestStatus, StatusStyle> = {
  pending: { label: "Awaiting approval", tone: "warning" },
  approved: { label: "Approved", tone: "info" },
  executing: { label: "Executing", tone: "info" },
  executed: { label: "Executed", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  declined: { label: "Declined", tone: "neutral" },
  expired: { label: "Expired", tone: "neutral" },
  superseded: { label: "Superseded", tone: "neutral" },
};

export const TRUST_RULE_STATUS_STYLES: Record<TrustRuleStatus, StatusStyle> = {
  pending_approval: { label: "Pending approval", tone: "warning" },
  active: { label: "Active", tone: "success" },
  revoked: { label: "Revoked", tone: "neutral" },
  expired: { label: "Expired", tone: "neutral" },
};

export const FORMAL_STATUS_STYLES: Record<FormalApprovalStatus, StatusStyle> = {
  pending: { label: "Pending", tone: "warning" },
  approved: { label: "Accepted", tone: "success" },
  rejected: { label: "Rejected", tone: "danger" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  expired: { label: "Expired", tone: "neutral" },
};

export const TRUST_RULE_SCOPE_LABELS: Record<TrustRuleScope, string> = {
  company: "Company",
  project: "Project",
  agent: "Agent",
  issue: "Issue",
};

/** What a trust rule of each scope covers, relative to the approved call it comes from. */
export const TRUST_RULE_SCOPE_HINTS: Record<TrustRuleScope, string> = {
  company: "Any agent in the company.",
  project: "Agents working in the same project as the approved call's run.",
  agent: "Only the agent that made the approved call.",
  issue: "Only calls made while working on the same issue.",
};

export const FORMAL_KIND_LABELS: Record<FormalApprovalKind, string> = {
  trust_rule: "Trust rule",
  policy_enable: "Enable policy",
};

/** Who proposed a change, for "Proposed by …". */
export const ACTOR_TYPE_PHRASES: Record<string, string> = {
  user: "a board member",
  board_key: "a board API key",
  agent: "an agent",
  agent_key: "an agent key",
  gateway_session: "a gateway session",
  system: "the system",
};

/** Looks a status up, falling back to a humanised, neutral badge for values the UI does not know. */
export function styleFor<K extends string>(styles: Record<K, StatusStyle>, key: string): StatusStyle {
  const known = (styles as Record<string, StatusStyle | undefined>)[key];
  if (known) return known;
  const text = key.replace(/[_-]+/g, " ").trim();
  return { label: text ? text.charAt(0).toUpperCase() + text.slice(1) : key, tone: "neutral" };
}

/** A supervised local (stdio) process: running green, idle and starting blue, crashed and suppressed red. */
export const SLOT_STATUS_STYLES: Record<string, StatusStyle> = {
  starting: { label: "Starting", tone: "info" },
  running: { label: "Running", tone: "success" },
  idle: { label: "Idle", tone: "info" },
  stopping: { label: "Stopping", tone: "neutral" },
  stopped: { label: "Stopped", tone: "neutral" },
  crashed: { label: "Crashed", tone: "danger" },
  suppressed: { label: "Suppressed after crashes", tone: "danger" },
};

/**
 * The Runtime page's "vm"-style label is the server host (its hostname) whose process supervises
 * the slot (issue 21, item 10): named and explained rather than shown bare.
 */
export const SLOT_HOST_LABEL = "Server host";
export const SLOT_HOST_HINT =
  "The machine (by hostname) whose server process runs this local MCP server. Stop and restart work from a server on that host.";

/** What a slot's kind means; `stdio` is the only kind today. */
export const SLOT_KIND_LABELS: Record<string, string> = {
  stdio: "Local process (stdio)",
};

/** A remote session's replica: the server process (`host/pid`) that holds the pooled session. */
export const REPLICA_HINT =
  "The server process (hostname/process id) that holds this pooled session; each server process keeps its own.";
