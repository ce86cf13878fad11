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
  deferred: "Deferred",
  running: "Running",
  timeout: "Timed out",
  outcome_unknown: "Outcome unknown",
};

/**
 * Reason codes (mostly error codes from server/errors/codes.ts). Each entry says what happened
 * in words an admin would use; codes without an entry fall back to a humanised code.
 */
export const REASON_LABELS: Record<string, string> = {
  ok: "Completed",
  listed: "Listed",
  allowed: "In the agent's profile",
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
  // decision engine (server/access/types.ts REASON_CODES)
  company_mismatch: "Session belongs to another company",
  session_invalid: "Gateway session is not valid",
  application_archived: "Application is archived",
  connection_disabled: "Connection is disabled",
  missing_secret: "A required secret is missing",
  unsafe_command_template: "Local command is not safe to run",
  tool_quarantined: "Tool is waiting for review",
  tool_disabled: "Tool is disabled",
  policy_malformed: "A policy could not be read (fail closed)",
  policy_block: "Blocked by a policy",
  not_in_profile: "Tool is not in the agent's profile",
  runtime_deferred: "No runtime capacity; try later",
  // gateway refusals and failures (server/gateway/outcome.ts)
  invalid_request: "Request was malformed",
  tool_denied: "Tool call denied",
  approval_path_missing: "No approval path for this call",
  command_not_approved: "Local command not approved by an administrator",
  runtime_host_untrusted: "This host may not run the local command",
  runtime_isolation_unavailable: "Sandbox for the local command is unavailable",
  slot_isolation_unavailable: "Local command with secrets needs a separate user on this host",
  approval_not_found: "Approval not found",
  approval_wrong_run: "Approval belongs to another run",
  approval_tool_mismatch: "Approval was for another tool",
  approval_arguments_mismatch: "Arguments differ from the approved ones",
  approval_signature_invalid: "Approval signature is not valid",
  approval_expired: "Approval expired",
  approval_schema_changed: "Tool changed since the approval",
  approval_no_longer_allowed: "Call is no longer permitted",
  approval_declined: "Declined by a person",
  approval_superseded: "Approval was replaced by a newer one",
  approval_consumed: "Approval was already used",
  approval_pending: "Approval still pending",
  approval_invalid: "Approval is not valid",
  upstream_error: "Tool server returned an error",
  result_blocked: "Result blocked by the guard",
  runtime_suppressed: "Local tool server suppressed after crashes",
  runtime_crashed: "Local tool server crashed during the call",
  runtime_stopped: "Local tool server was stopped",
  runtime_start_failed: "Local tool server could not start",
  runtime_unavailable: "Local tool server unavailable",
  upstream_timeout: "Tool server timed out",
  upstream_cancelled: "Cancelled while the tool server ran",
  tool_input_invalid: "Tool server rejected the arguments",
  upstream_unreachable: "Tool server unreachable",
  upstream_requires_operator: "Tool server address needs an operator's allowance",
  upstream_redirect_refused: "Tool server redirect refused",
  upstream_too_large: "Tool server answer too large",
  upstream_auth_failed: "Tool server refused the credentials",
  upstream_tls_error: "Tool server TLS error",
  upstream_protocol_error: "Tool server spoke an unexpected protocol",
  upstream_authorization_required: "Connection must be authorised again",
  user_grant_required: "The person's account is not linked",
  upstream_oauth_refused: "Authorization server refused",
  upstream_oauth_discovery_failed: "Authorization metadata not found",
  upstream_oauth_issuer_mismatch: "Authorization server issuer mismatch",
  upstream_oauth_unsupported: "Authorization server lacks PKCE S256",
  upstream_oauth_not_configured: "Connection does not use OAuth",
  upstream_oauth_state_invalid: "Authorization answer not valid",
  running: "Still running",
  outcome_unknown: "Outcome unknown",
  // the events' own
  approved: "Approved by a person",
  declined: "Declined by a person",
  replayed: "Answered from the ledger (retry)",
  result_truncated: "Result truncated (full result stored)",
  expired: "Expired",
  granted: "Secret handed to the call",
  decrypt_failed: "Secret could not be decrypted",
  invalid_header_value: "Secret is not a valid header value",
  other_secret_missing: "Another required secret is missing",
  secret_revoked: "Secret was revoked",
  resolved_done: "Resolved by a person: done",
  resolved_not_done: "Resolved by a person: not done",
  resolved_retry: "Resolved by a person: retry",
  upstream_request_not_allowed: "Tool server's request to the agent refused",
  "sampling/createMessage": "Tool server asked the agent's model (sampling)",
  "elicitation/create": "Tool server asked the person a question",
  "roots/list": "Tool server asked for the agent's roots",
};

/** A label from a table, or the code humanised when the table does not know it. */
export function codeLabel(table: Record<string, string>, code: string | null | undefined): string {
  if (!code) return "";
  return table[code] ?? humanize(code);
}
