// Closed value sets used by CHECK constraints, zod schemas and the UI. Pure constants with
// no imports: shared by server and client, and re-exported by db/schema/values.ts for the
// drizzle schema (contracts never import db/).

export const MEMBERSHIP_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

export const AGENT_STATUSES = ["active", "paused", "archived"] as const;
export const PROJECT_STATUSES = ["active", "archived"] as const;
export const ROUTINE_STATUSES = ["active", "paused", "archived"] as const;

export const ISSUE_STATUSES = [
  "backlog",
  "todo",
  "in_progress",
  "in_review",
  "blocked",
  "done",
  "cancelled",
] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** What a deliverable (issue work product) points at (server/core/work-products.ts). */
export const WORK_PRODUCT_KINDS = ["document", "attachment", "link"] as const;
export type WorkProductKind = (typeof WORK_PRODUCT_KINDS)[number];

export const COMMENT_AUTHOR_TYPES = ["user", "agent", "system"] as const;
export const COMMENT_KINDS = ["text", "action_card", "event"] as const;

export const RUN_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_FINAL_STATUSES = ["succeeded", "failed", "cancelled"] as const;

export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "cancelled", "expired"] as const;

export const ACTOR_TYPES = [
  "user",
  "board_key",
  "agent",
  "agent_key",
  "gateway_session",
  "oauth_grant",
  "system",
] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

// Tools & Access
export const APPLICATION_TYPES = ["mcp_http", "mcp_stdio", "paperclip_self", "paperclip_plugin"] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];
export const APPLICATION_STATUSES = ["active", "archived"] as const;

export const CONNECTION_STATUSES = ["draft", "active", "disabled", "archived"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export const CONNECTION_HEALTH = ["unknown", "ok", "error", "missing_secret"] as const;
/**
 * How a remote connection authorises upstream (docs/upstream-oauth.md): `static` — bound
 * secrets or nothing; `oauth_company` — one grant an admin gave, owned by the connection;
 * `oauth_user` — each person's own grant, used for the runs they are responsible for;
 * `client_credentials` — machine to machine (RFC 6749 §4.4).
 */
export const CONNECTION_AUTH_KINDS = ["static", "oauth_company", "oauth_user", "client_credentials"] as const;
export type ConnectionAuthKind = (typeof CONNECTION_AUTH_KINDS)[number];
/** A stored upstream grant: usable, or refused until a person authorises again. */
export const UPSTREAM_GRANT_STATUSES = ["connected", "needs_reauthorization"] as const;
export type UpstreamGrantStatus = (typeof UPSTREAM_GRANT_STATUSES)[number];
/** How the gateway identified itself to the authorization server. */
export const UPSTREAM_CLIENT_REGISTRATIONS = ["pre_registered", "cimd", "dynamic"] as const;
export const UPSTREAM_TOKEN_AUTH_METHODS = [
  "none",
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
] as const;

export const CATALOG_KINDS = ["tool", "resource", "resource_template", "prompt"] as const;
export const CATALOG_STATUSES = ["active", "quarantined", "disabled", "removed"] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];
export const RISKS = ["read", "write", "destructive"] as const;
export type Risk = (typeof RISKS)[number];

export const PROFILE_STATUSES = ["active", "archived"] as const;
export const PROFILE_ENTRY_MODES = ["include", "exclude"] as const;
export const PROFILE_SELECTOR_TYPES = [
  "application",
  "connection",
  "catalog_entry",
  "tool_glob",
  "risk",
] as const;
export const BINDING_TARGETS = ["company", "project", "agent", "routine", "issue"] as const;
export type BindingTarget = (typeof BINDING_TARGETS)[number];

export const POLICY_KINDS = [
  "allow",
  "block",
  "require_approval",
  "redact_arguments",
  "redact_result",
  "rate_limit",
] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** The operators of a policy's argument conditions, in the order the console offers them. */
export const POLICY_OPERATORS = [
  "equals",
  "not_equals",
  "in",
  "not_in",
  "prefix",
  "suffix",
  "contains",
  "glob",
  "exists",
  "not_exists",
  "max_length",
  "lte",
  "gte",
] as const;
export type PolicyOperator = (typeof POLICY_OPERATORS)[number];

/** Fixture servers shipped with the product that a catalogue command may run (from a read-only bundle). */
export const BUNDLED_FIXTURES = ["lab", "fs-sandbox", "echo", "sandbox-probe"] as const;
export const STDIO_CWD_POLICIES = ["none", "project_workspace", "issue_workspace"] as const;
export const TEMPLATE_STATUSES = ["active", "disabled"] as const;

export const APPROVAL_STATES = ["none", "pending", "approved", "declined", "expired", "consumed"] as const;
export const EXECUTION_STATUSES = [
  "pending",
  "denied",
  "awaiting_approval",
  "deferred",
  "running",
  "succeeded",
  "failed",
  "timeout",
  /** The executing process lost its lease (crash, hang): the upstream may or may not have run. */
  "outcome_unknown",
  "cancelled",
] as const;

export const ACTION_REQUEST_STATUSES = [
  "pending",
  "approved",
  "declined",
  "executing",
  "executed",
  "failed",
  "superseded",
  "expired",
] as const;

export const TRUST_RULE_STATUSES = ["pending_approval", "active", "revoked", "expired"] as const;
export const TRUST_RULE_SCOPES = ["company", "project", "agent", "issue"] as const;

export const SLOT_STATUSES = [
  "starting",
  "running",
  "idle",
  "stopping",
  "stopped",
  "crashed",
  "suppressed",
] as const;

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
  /** An execution's lease expired (crash, hang): swept to `outcome_unknown`. */
  "outcome_unknown",
  /** A person resolved an `outcome_unknown` invocation (done / not done / retry once). */
  "resolved",
  /** The agent (or a dropped connection) cancelled the call while it ran upstream. */
  "cancelled",
  /** An upstream's request to the agent during a call (sampling, elicitation, roots): relayed or refused. */
  "upstream_request",
  /** A stored result artifact read through the gateway (`resources/read`). */
  "artifact_read",
  /** Expired result artifacts deleted by the maintenance sweep (one event per company and batch). */
  "artifact_expired",
] as const;
export type ToolEventType = (typeof TOOL_EVENT_TYPES)[number];

/** Decision values recorded on audit events and invocations. */
export const DECISIONS = ["allow", "deny", "approval_required", "rate_limited", "deferred"] as const;
export type DecisionValue = (typeof DECISIONS)[number];

export const SECRET_STATUSES = ["active", "revoked"] as const;
export const SECRET_PLACEMENTS = ["http_header", "env_var"] as const;
export const SECRET_ACCESS_OUTCOMES = ["granted", "denied"] as const;

/** The decision engine's reason codes (server/access `decide`; `REASON_CODES` there is this list). */
export const DECISION_REASON_CODES = [
  "allowed",
  "company_mismatch",
  "session_invalid",
  "tool_not_found",
  "application_archived",
  "connection_disabled",
  "missing_secret",
  "unsafe_command_template",
  "tool_quarantined",
  "tool_disabled",
  "policy_malformed",
  "policy_block",
  "approval_required",
  "not_in_profile",
  "arguments_invalid",
  "arguments_unstorable",
  "rate_limited",
  "runtime_deferred",
] as const;
export type DecisionReasonCode = (typeof DECISION_REASON_CODES)[number];

/**
 * Every refusal code of a governed call (server/gateway/outcome.ts builds `OUTCOME_CODES` from it,
 * each code's HTTP status read from the error catalogue).
 */
export const GATEWAY_OUTCOME_CODES = [
  "invalid_request",
  "arguments_invalid",
  "tool_denied",
  "approval_path_missing",
  "command_not_approved",
  "runtime_host_untrusted",
  "runtime_isolation_unavailable",
  "slot_isolation_unavailable",
  "approval_not_found",
  "approval_required",
  "invocation_in_progress",
  "invocation_outcome_unknown",
  "approval_wrong_run",
  "approval_tool_mismatch",
  "approval_arguments_mismatch",
  "approval_signature_invalid",
  "approval_expired",
  "approval_schema_changed",
  "approval_no_longer_allowed",
  "approval_declined",
  "approval_superseded",
  "approval_consumed",
  "approval_pending",
  "approval_invalid",
  "rate_limited",
  "upstream_error",
  "result_blocked",
  "missing_secret",
  "upstream_authorization_required",
  "user_grant_required",
  "runtime_deferred",
  "runtime_suppressed",
  "runtime_crashed",
  "runtime_stopped",
  "runtime_start_failed",
  "runtime_unavailable",
  "upstream_timeout",
  "upstream_cancelled",
] as const;
export type GatewayOutcomeCode = (typeof GATEWAY_OUTCOME_CODES)[number];

/**
 * Every reason code an audit event or a ledger row can carry (`reason_code`, `error_code`): the
 * decision engine's and the gateway's lists above (one source each), the ledger's answers
 * (server/gateway/outcome.ts `LEDGER_ANSWERS`) and the events' own.
 * The console labels each (components/labels `REASON_LABELS`); components/labels/codes.test.ts
 * fails when a server list has a code missing here or a code here has no label.
 */
export const AUDIT_REASON_CODES = [
  ...DECISION_REASON_CODES,
  ...GATEWAY_OUTCOME_CODES.filter((c) => !(DECISION_REASON_CODES as readonly string[]).includes(c)),
  // execution failures, ledger answers and the events' own
  "tool_input_invalid",
  "upstream_unreachable",
  "upstream_blocked",
  "upstream_requires_operator",
  "upstream_redirect_refused",
  "upstream_too_large",
  "upstream_auth_failed",
  "upstream_tls_error",
  "upstream_protocol_error",
  "upstream_oauth_refused",
  "upstream_oauth_discovery_failed",
  "upstream_oauth_issuer_mismatch",
  "upstream_oauth_unsupported",
  "upstream_oauth_not_configured",
  "upstream_oauth_state_invalid",
  "running",
  "outcome_unknown",
  "ok",
  "listed",
  "approved",
  "declined",
  "replayed",
  "lease_expired",
  "result_truncated",
  "artifact_read",
  "expired",
  "granted",
  "decrypt_failed",
  "invalid_header_value",
  "other_secret_missing",
  "secret_revoked",
  "tool_hidden",
  "resolved_done",
  "resolved_not_done",
  "resolved_retry",
  "upstream_request_not_allowed",
  "sampling/createMessage",
  "elicitation/create",
  "roots/list",
] as const;
export type AuditReasonCode = (typeof AUDIT_REASON_CODES)[number];
