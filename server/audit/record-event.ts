import type { Tx } from "@/db/client";
import { toolCallEvents } from "@/db/schema";
import { MAX_SUMMARY_BYTES } from "./summarize";

/** Audit event types (stable API: the Audit page and exports filter on them). */
export const TOOL_EVENT_TYPES = [
  "discovery",
  "decision",
  "approval_requested",
  "approval_accepted",
  "approval_rejected",
  "execution_started",
  "result_returned",
  "execution_failed",
  "timeout",
  "runtime_failure",
  "replayed",
  /** The agent (or a dropped connection) cancelled the call while it ran upstream. */
  "cancelled",
  /** An upstream's request to the agent during a call (sampling, elicitation, roots): relayed or refused. */
  "upstream_request",
  /** A stored result artifact read through the gateway (`resources/read`). */
  "artifact_read",
] as const;
export type ToolEventType = (typeof TOOL_EVENT_TYPES)[number];

/** Decision values recorded on audit events and invocations. */
export const DECISIONS = ["allow", "deny", "approval_required", "rate_limited", "deferred"] as const;
export type DecisionValue = (typeof DECISIONS)[number];

export interface ToolEventInput {
  companyId: string;
  eventType: ToolEventType;
  actorType: typeof toolCallEvents.$inferInsert.actorType;
  actorId: string;
  invocationId?: string | null;
  runId?: string | null;
  issueId?: string | null;
  agentId?: string | null;
  projectId?: string | null;
  routineId?: string | null;
  sessionId?: string | null;
  applicationId?: string | null;
  connectionId?: string | null;
  catalogEntryId?: string | null;
  toolName?: string | null;
  risk?: string | null;
  decision?: DecisionValue | null;
  reasonCode?: string | null;
  matchedPolicyIds?: string[];
  actionRequestId?: string | null;
  trustRuleId?: string | null;
  runtimeSlotId?: string | null;
  argsHash?: string | null;
  argsSummary?: Record<string, unknown> | null;
  resultHash?: string | null;
  resultSize?: number | null;
  resultSummary?: Record<string, unknown> | null;
  latencyMs?: number | null;
  errorClass?: string | null;
  redactions?: string[];
}

// Re-bound at the last moment: whatever a caller passes, nothing unbounded reaches the trail.
function bounded(summary: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!summary) return null;
  const text = JSON.stringify(summary);
  return Buffer.byteLength(text, "utf8") <= MAX_SUMMARY_BYTES ? summary : { truncated: true };
}

const cut = (s: string | null | undefined, n: number) =>
  s == null ? null : s.length > n ? s.slice(0, n) : s;

/**
 * Appends audit events in the caller's transaction (one multi-row insert). If the insert
 * fails, the transaction — and with it the ledger change it describes — rolls back: a call
 * that cannot be audited does not happen.
 */
export async function recordToolEvents(tx: Tx, events: ToolEventInput[]): Promise<void> {
  if (events.length === 0) return;
  await tx.insert(toolCallEvents).values(toolEventRows(events));
}

/**
 * The bounded rows for `events`, for callers that put the insert into a larger statement
 * (the gateway's hot path writes a ledger row and its audit events in one statement).
 */
export function toolEventRows(events: ToolEventInput[]): (typeof toolCallEvents.$inferInsert)[] {
  return events.map((e) => ({
    companyId: e.companyId,
    eventType: e.eventType,
    actorType: e.actorType,
    actorId: e.actorId,
    invocationId: e.invocationId ?? null,
    runId: e.runId ?? null,
    issueId: e.issueId ?? null,
    agentId: e.agentId ?? null,
    projectId: e.projectId ?? null,
    routineId: e.routineId ?? null,
    sessionId: e.sessionId ?? null,
    applicationId: e.applicationId ?? null,
    connectionId: e.connectionId ?? null,
    catalogEntryId: e.catalogEntryId ?? null,
    toolName: cut(e.toolName, 200),
    risk: e.risk ?? null,
    decision: e.decision ?? null,
    reasonCode: cut(e.reasonCode, 64),
    matchedPolicyIds: (e.matchedPolicyIds ?? []).slice(0, 50),
    actionRequestId: e.actionRequestId ?? null,
    trustRuleId: e.trustRuleId ?? null,
    runtimeSlotId: e.runtimeSlotId ?? null,
    argsHash: e.argsHash ?? null,
    argsSummary: bounded(e.argsSummary),
    resultHash: e.resultHash ?? null,
    resultSize: e.resultSize ?? null,
    resultSummary: bounded(e.resultSummary),
    latencyMs: e.latencyMs ?? null,
    errorClass: cut(e.errorClass, 64),
    redactions: (e.redactions ?? []).slice(0, 50),
  }));
}
