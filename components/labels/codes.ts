/**
 * People-readable labels for the machine codes the server records: audit event types,
 * decisions, invocation outcomes and reason codes. The code itself stays stable API and is
 * shown as a tooltip (see `CodeLabel`); people read the label.
 */

import { TOOL_EVENT_TYPES, type ToolEventType } from "@/server/contracts/values";
import { humanize } from "../format";

export const EVENT_TYPE_LABELS: Record<ToolEventType, string> = {
  discovery: "Tools listed",
  decision: "Policy decision",
  approval_requested: "Approval requested",
  approval_accepted: "Approved by a person",
  approval_rejected: "Declined by a person",
  execution_started: "Call started",
  result_returned: "Result returned",
  execution_failed: "Call failed",
  timeout: "Timed out",
  runtime_failure: "Tool server failed",
  replayed: "Answered from the ledger (retry)",
  outcome_unknown: "Outcome unknown",
  resolved: "Resolved by a person",
  cancelled: "Cancelled",
  upstream_request: "Tool server asked the agent",
  artifact_read: "Stored result read",
  artifact_expired: "Stored results expired",
};

export const EVENT_TYPES: readonly ToolEventType[] = TOOL_EVENT_TYPES;

/** Decision values on audit events and invocations. */
export const DECISION_CODE_LABELS: Record<string, string> = {
  allow: "Allowed",
  deny: "Denied",
  approval_required: "Needs approval",
  rate_limited: "Rate-limited",
  deferred: "Deferred",
};

/** Invocation outcomes in the ledger. */
export const OUTCOME_LABELS: Record<string, string> = {
  pending: "In progress",
  succeeded: "Succeeded",
  failed: "Failed",
  denied: "Denied",
  unknown: "Outcome unknown",
  awaiting_approval: "Awaiting approval",
  declined: "Declined",
  cancelled: "Cancelled",
  resolved_done: "Resolved: done",
  resolved_not_done: "Resolved: not done",
};

/**
 * Reason codes (mostly error codes from server/errors/codes.ts). Each entry says what happened
 * in words an admin would use; codes without an entry fall back to a humanised code.
 */
export const REASON_LABELS: Record<string, string> = {
  ok: "Completed",
  listed: "Listed",
  allowed: "Allowed by policy",
  tool_hidden: "Tool is not in the agent's profile",
  tool_not_found: "No such tool for this agent",
  rate_limited: "Rate limit reached",
  arguments_invalid: "Arguments did not match the tool's schema",
  arguments_unstorable: "Arguments could not be stored",
  lease_expired: "The call's lease expired (crash or hang)",
  invocation_outcome_unknown: "Earlier attempt's outcome is unknown",
  invocation_in_progress: "Same call already in progress",
  artifact_read: "Stored result read",
  approval_required: "Held for a person's approval",
  policy_blocked: "Blocked by a policy",
  upstream_blocked: "Tool server address not allowed",
  secret_missing: "A required secret is missing",
};

/** A label from a table, or the code humanised when the table does not know it. */
export function codeLabel(table: Record<string, string>, code: string | null | undefined): string {
  if (!code) return "";
  return table[code] ?? humanize(code);
}
