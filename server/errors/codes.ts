/**
 * The error catalogue: every `code` the server answers with, its HTTP status and one line of
 * documentation. A code is stable API (snake_case, never renamed); its status is decided here
 * and nowhere else — `new ServiceError(code, message, details?)` looks it up, and the
 * adapters (server/http/route.ts, server/gateway/*) only copy it onto the response.
 *
 * Adding a code: add it here (status + doc), then to the error table of the doc page that
 * describes the feature (docs/*.md); `codes.test.ts` fails when a code is in no table.
 * Rewriting old `new ServiceError(code, message, status)` calls: scripts/codemods/service-error-codes.ts.
 *
 * `also` lists a second status a code is answered with for a documented reason (raise it with
 * `ServiceError.withStatus`); keep it rare — a new meaning deserves a new code.
 */
export const ERRORS = {
  // ── generic (server/errors, server/http) ────────────────────────────────────────────────
  invalid_request: {
    status: 400,
    doc: "malformed JSON, a schema violation (`details.issues`), text that cannot be stored",
  },
  path_malformed: {
    status: 400,
    doc: "the address holds a percent-encoding that does not decode to UTF-8 (node listener)",
  },
  unauthenticated: { status: 401, doc: "no valid credential was presented" },
  forbidden: {
    status: 403,
    doc: "the caller is known but lacks the capability (or sent an `Origin` that is not a URL)",
  },
  csrf_rejected: {
    status: 403,
    doc: "a cookie-authenticated write whose `Origin` is not this instance's origin",
  },
  not_found: { status: 404, doc: "unknown, malformed or other-company id (reveals nothing)" },
  method_not_allowed: { status: 405, doc: "the gateway's MCP endpoint takes JSON-RPC over POST" },
  already_exists: { status: 409, doc: "a record with the same unique value already exists" },
  payload_too_large: { status: 413, doc: "the body is larger than the route accepts" },
  unsupported_media_type: { status: 415, doc: "the body is not `application/json`" },
  internal_error: { status: 500, doc: "generic message plus the request id; details only in the server log" },

  // ── accounts, sessions, members (server/auth, server/core) ─────────────────────────────
  password_link_invalid: { status: 400, doc: "the set-password link is unknown, used or expired" },
  invalid_credentials: {
    status: 401,
    doc: "sign-in: wrong email or password (one answer for all causes)",
    // Documented in docs/accounts.md and relied on by the account page since issue 13: a
    // signed-in person who mistypes the current password is authenticated, hence 403.
    also: { 403: "password change: the current password is wrong" },
  },
  key_revoked: { status: 401, doc: "the board key was revoked, or its creator lost access" },
  sign_in_throttled: { status: 429, doc: "too many sign-in attempts; see `Retry-After`" },
  device_code_throttled: {
    status: 429,
    doc: "too many device-login codes tried by this person or source; see `Retry-After`",
  },
  run_scope_forbidden: { status: 403, doc: "an agent asked for a run outside its own work" },
  already_member: { status: 409, doc: "the person is already a member" },
  last_owner: { status: 409, doc: "the company's last owner cannot be demoted or removed" },
  run_already_finished: { status: 409, doc: "the run has already finished" },
  run_not_running: { status: 409, doc: "the run is not running (a gateway session needs a running run)" },
  agent_not_active: { status: 409, doc: "the agent is not active" },

  // ── instance (server/instance) ──────────────────────────────────────────────────────────
  instance_admin_required: { status: 403, doc: "the caller is not an instance administrator" },
  last_instance_admin: { status: 409, doc: "the last instance administrator cannot be revoked" },
  private_upstream_exists: { status: 409, doc: "the origin is already on the private-upstream list" },
  private_upstreams_full: { status: 409, doc: "the private-upstream list is full" },

  // ── public MCP connection (server/oauth, server/public-mcp; docs/public-mcp.md) ───────
  public_mcp_disabled: {
    status: 503,
    doc: "assistant connections (MCP) are turned off on this instance (Settings › Experimental)",
  },

  // ── approvals (server/approvals) ────────────────────────────────────────────────────────
  approval_same_person: { status: 403, doc: "another person must accept a change you proposed" },
  approval_decided: { status: 409, doc: "the approval is already decided" },
  approval_not_executed: { status: 409, doc: "only an executed approval can become a trust rule" },
  approval_required: { status: 409, doc: "a person must approve this call first (`actionRequestId`)" },
  approval_path_missing: {
    status: 403,
    doc: "the call needs approval and the run has no issue thread to ask on",
  },
  approval_not_found: { status: 404, doc: "`approvedActionRequestId` names no action request" },
  approval_wrong_run: { status: 409, doc: "the action request belongs to another run or agent" },
  approval_tool_mismatch: { status: 409, doc: "the action request approved a different tool" },
  approval_arguments_mismatch: { status: 409, doc: "the arguments differ from the approved ones" },
  approval_pending: { status: 409, doc: "the action request has not been approved yet" },
  approval_declined: { status: 409, doc: "the action request was declined" },
  approval_expired: { status: 409, doc: "the action request has expired" },
  approval_superseded: { status: 409, doc: "a newer request from the same run replaced this one" },
  approval_consumed: { status: 409, doc: "the approved call has already run (its outcome is replayed)" },
  approval_invalid: { status: 409, doc: "the action request is in a state that cannot run" },
  approval_signature_invalid: {
    status: 409,
    doc: "the stored request does not match its signature; not run",
  },
  approval_schema_changed: {
    status: 409,
    doc: "the tool's schema changed since the request was made; not run",
  },
  approval_no_longer_allowed: { status: 409, doc: "the policy no longer permits the approved call; not run" },

  // ── gateway (server/gateway) ────────────────────────────────────────────────────────────
  token_in_query: {
    status: 400,
    doc: "the session token was sent in the URL instead of the `Authorization` header",
  },
  arguments_invalid: {
    status: 400,
    doc: "arguments are not a JSON object, too large, or fail the tool's input schema",
  },
  tool_input_invalid: {
    status: 400,
    doc: "a Paperclip tool refused its input (answered to agents as `arguments_invalid`)",
  },
  session_invalid: {
    status: 401,
    doc: "unknown, expired or revoked gateway token, or the run is no longer running",
  },
  host_not_allowed: { status: 403, doc: "the request did not come to this instance's configured origin" },
  tool_denied: {
    status: 403,
    doc: "not available to this session — identical for hidden and non-existent tools",
  },
  invocation_in_progress: { status: 409, doc: "the same write is executing right now" },
  invocation_outcome_unknown: {
    status: 409,
    doc: "an earlier attempt of the same write may have run upstream",
  },
  relay_call_gone: {
    status: 410,
    doc: "the call that sent this request to the agent is gone (its server stopped); the answer was not delivered",
  },
  invocation_not_unknown: {
    status: 409,
    doc: "only an invocation whose outcome is unknown can be resolved (it was resolved already, or is not stuck)",
  },
  change_streams_limit: {
    status: 409,
    doc: "the gateway session already holds its 2 open change streams (GET); close one first",
  },
  change_streams_full: { status: 503, doc: "this server holds all the change streams (GET) it may; retry" },
  rate_limited: { status: 429, doc: "a rate limit was reached; retry after `retryAfterMs`" },
  result_blocked: { status: 502, doc: "the call ran, and its result was withheld by the content guard" },

  // ── tools, connections, secrets, examples (server/tools, server/secrets, server/examples) ─
  inline_secret: {
    status: 400,
    doc: "a configuration value holds a credential; store it as a company secret",
  },
  env_target_forbidden: { status: 400, doc: "a secret may not be bound to that environment variable" },
  application_archived: { status: 409, doc: "the application is archived" },
  connection_archived: { status: 409, doc: "the connection is archived" },
  connection_not_ready: {
    status: 409,
    doc: "the connection needs a reviewed catalog (or more) before it can be enabled",
  },
  connection_misconfigured: { status: 409, doc: "the connection has no URL" },
  entry_removed: { status: 409, doc: "the catalog entry is no longer offered upstream" },
  tool_schema_unusable: { status: 409, doc: "the tool's input schema cannot be compiled" },
  plugin_not_found: { status: 409, doc: "the connection's plugin is not installed" },
  secret_name_taken: { status: 409, doc: "a secret with that name exists (or existed and was revoked)" },
  secret_revoked: { status: 409, doc: "the secret is revoked" },
  binding_target_taken: {
    status: 409,
    doc: "the connection already has a secret bound to that header or variable",
  },
  example_installed: { status: 409, doc: "the example is already installed" },
  example_unhealthy: { status: 409, doc: "the example's connection failed its health check" },
  example_not_installed: { status: 409, doc: "the example must be installed before its smoke checks run" },
  examples_disabled: { status: 409, doc: "example fixtures are switched off (`PAPERCLIP_EXAMPLES=off`)" },
  template_needs_operator: {
    status: 409,
    doc: "the template's stdio command is not in the operator's catalogue yet (Instance settings → stdio commands)",
  },
  smoke_running: { status: 409, doc: "another smoke run is in progress on this instance" },
  no_agent: { status: 409, doc: "the smoke check needs an agent in the company" },
  missing_secret: { status: 503, doc: "a secret bound to the connection is missing or revoked" },
  secret_store_unavailable: { status: 503, doc: "the secret store's master key is unavailable or unsafe" },
  database_unavailable: {
    status: 503,
    doc: "the database cannot be reached or timed out (the breaker is open); retry after `Retry-After`",
  },
  server_draining: {
    status: 503,
    doc: "this server is shutting down and ran nothing of the request; retry (another replica) after `Retry-After`",
  },

  // ── local runtime (server/runtime) ──────────────────────────────────────────────────────
  command_not_approved: {
    status: 403,
    doc: "not a command the operator's catalogue approves, or it was disabled",
  },
  runtime_host_untrusted: {
    status: 403,
    doc: "local stdio servers are off on this host (`PAPERCLIP_STDIO`)",
  },
  runtime_isolation_unavailable: {
    status: 403,
    doc: "the command requires isolation this host cannot provide",
  },
  slot_isolation_unavailable: {
    status: 403,
    doc: "a slot with bound secrets needs a uid (or sandbox) of its own, and this host cannot give one",
  },
  stdio_command_exists: { status: 409, doc: "a catalogue command with that key exists" },
  unsafe_command_template: {
    status: 409,
    doc: "the connection's command template is missing, disabled or changed",
  },
  workspace_unavailable: {
    status: 409,
    doc: "the template runs in a workspace and none is available for this call",
  },
  slot_stopped: { status: 409, doc: "the slot is stopped; the next call starts a new one" },
  slot_not_running: { status: 409, doc: "the slot is not running; the next call starts a new one" },
  slot_on_other_host: { status: 409, doc: "another host supervises the slot" },
  slot_on_other_server: { status: 409, doc: "another server process on this host supervises the slot" },
  runtime_crashed: { status: 502, doc: "the local tool server exited during the call" },
  runtime_start_failed: { status: 502, doc: "the local tool server could not be started" },
  runtime_deferred: {
    status: 503,
    doc: "no runtime capacity for a local tool now; retry after `retryAfterMs`",
  },
  runtime_stopped: { status: 503, doc: "the runtime slot was stopped during the call" },
  runtime_suppressed: { status: 503, doc: "the local tool server crashed repeatedly and is suppressed" },
  runtime_unavailable: {
    status: 503,
    doc: "the runtime cannot serve this connection type or record the slot",
  },

  // ── agent configuration, instructions, skills, repositories (server/core; docs/public-mcp.md) ─
  revision_conflict: {
    status: 409,
    doc: "the document or file changed since the revision (or hash) the edit was based on (`details.current`)",
  },
  // Spelled as spec 004 gives it ("Expanded direct assistant tools"), hence upper case.
  MCP_LEGACY_INSTRUCTIONS_UNVERSIONED: {
    status: 409,
    doc: "the legacy prompt template has no revision to protect an edit; migrate it to a managed file first",
  },

  // ── public MCP write receipts (server/public-mcp/receipts.ts; docs/public-mcp.md) ────────
  request_id_reused: {
    status: 409,
    doc: "the requestId was already used for this operation with different arguments; nothing ran",
  },
  resolved_not_done: {
    status: 409,
    doc: "a person marked an uncertain call as not done (a public MCP write: nothing runs under its requestId)",
  },
  receipt_not_unknown: { status: 409, doc: "the write receipt is not awaiting a decision (not unknown)" },

  // ── public MCP tools (server/public-mcp/tools.ts; docs/public-mcp.md, "Tools") ──────────
  insufficient_scope: {
    status: 403,
    doc: "the assistant connection lacks the scope the operation needs (a tool error over MCP)",
  },
  company_not_granted: {
    status: 403,
    doc: "`companyId` is not the company of this assistant connection (a tool error over MCP)",
  },
  unknown_operation: {
    status: 400,
    doc: "`paperclip_call_api` names no operation of the registry (a tool error over MCP)",
  },
  // ── work: tasks, documents, deliverables (server/core/{issue-updates,documents,work-products}.ts;
  //    docs/public-mcp.md, "Tasks and documents") ─────────────────────────────────────────
  invalid_transition: {
    status: 409,
    doc: "the task cannot move from its status to the one asked for (`details.from`, `details.allowed`)",
  },
  document_too_large: { status: 413, doc: "the document body exceeds 200 KB (UTF-8)" },
  // ── attachments and file transfer (server/core/attachments.ts, server/public-mcp/transfer.ts;
  //    docs/public-mcp.md "Attachments", "File transfer") ─────────────────────────────────────
  attachment_too_large: {
    status: 413,
    doc: "the file is larger than `PAPERCLIP_ATTACHMENT_MAX_BYTES` (10 MB by default)",
  },
  attachment_type_not_allowed: {
    status: 415,
    doc: "the content type is not in `PAPERCLIP_ATTACHMENT_TYPES` (or is not a `type/subtype`)",
  },
  attachment_hash_mismatch: {
    status: 400,
    doc: "the uploaded bytes do not have the SHA-256 sent in `x-content-sha256`",
  },
  transfer_unknown: { status: 404, doc: "the file URL is unknown, malformed or for another method" },
  transfer_expired: { status: 410, doc: "the file URL's ten minutes are over; ask for a new one" },
  transfer_revoked: {
    status: 403,
    doc: "the connection was revoked, or its person lost membership or the scope the URL needs",
  },
  transfer_size_mismatch: { status: 400, doc: "the body's size is not the declared `byteSize`" },
  transfer_hash_mismatch: { status: 400, doc: "the body's SHA-256 is not the declared `sha256`" },
  transfer_type_mismatch: {
    status: 400,
    doc: "the request's `Content-Type` is not the declared `contentType`",
  },
  transfer_conflict: {
    status: 409,
    doc: "this `requestId` already names an upload of a different file (name, type, size, hash or task)",
  },
  transfer_already_completed: {
    status: 409,
    doc: "the upload was already saved with different bytes; a repeat with the same bytes answers 200",
  },

  // ── MCP Events console (server/events/admin.ts; docs/public-mcp.md, "Events") ─────────
  subscription_not_active: {
    status: 409,
    doc: "the event subscription is already stopped (only a pending or active one can be stopped)",
  },

  // ── upstreams (server/net, server/connectors) ───────────────────────────────────────────
  upstream_requires_operator: {
    status: 403,
    doc: "loopback/private address whose origin is not on the instance's list",
  },
  upstream_blocked: {
    status: 403,
    doc: "an address that is never allowed (metadata, link-local, reserved, bad URL)",
  },
  upstream_cancelled: { status: 499, doc: "the call was cancelled before the upstream answered" },
  upstream_error: { status: 502, doc: "the upstream call failed" },
  upstream_redirect_refused: { status: 502, doc: "a redirect to a place the connection may not go" },
  upstream_unreachable: { status: 502, doc: "name lookup failed, connection refused or closed" },
  upstream_too_large: { status: 502, doc: "the answer exceeded the size limits" },
  upstream_auth_failed: { status: 502, doc: "HTTP 401/403 from the upstream (`details.httpStatus`)" },
  upstream_tls_error: { status: 502, doc: "TLS handshake failed (certificate or protocol)" },
  upstream_protocol_error: {
    status: 502,
    doc: "anything else the upstream got wrong: not MCP, a JSON-RPC error, 5xx",
  },
  upstream_timeout: { status: 504, doc: "the upstream did not answer in time" },

  // ── upstream OAuth (server/upstream-auth, docs/upstream-oauth.md) ───────────────────────
  upstream_authorization_required: {
    status: 409,
    doc: "the connection's OAuth grant is missing or needs a person to authorise again (Reconnect)",
  },
  user_grant_required: {
    status: 409,
    doc: "the connection acts as each person: the run's responsible person has not linked their account (`details.linkUrl`)",
  },
  upstream_oauth_not_configured: {
    status: 409,
    doc: "the connection does not authorise with OAuth (its authorization kind is another)",
  },
  upstream_oauth_discovery_failed: {
    status: 502,
    doc: "the server's protected-resource or authorization-server metadata could not be found or read",
  },
  upstream_oauth_issuer_mismatch: {
    status: 502,
    doc: "the authorization server's metadata or answer names another issuer (RFC 8414 §3.3, RFC 9207)",
  },
  upstream_oauth_unsupported: {
    status: 502,
    doc: "the authorization server lacks what the gateway requires (PKCE S256, a client identity it can use)",
  },
  upstream_oauth_refused: {
    status: 502,
    doc: "the authorization server refused (a registration, token or refresh request; `details.error`)",
  },
  upstream_oauth_state_invalid: {
    status: 400,
    doc: "the authorization answer's state is unknown, expired, used, or another person's",
  },
} as const satisfies Record<string, ErrorEntry>;

interface ErrorEntry {
  readonly status: number;
  readonly doc: string;
  readonly also?: Readonly<Record<number, string>>;
}

export type ErrorCode = keyof typeof ERRORS;

/** The codes answered with 409 (the ones `conflict(code, …)` accepts). */
export type ConflictCode = {
  [C in ErrorCode]: (typeof ERRORS)[C]["status"] extends 409 ? C : never;
}[ErrorCode];

/** The documented second status of a code (`also`), or never. */
export type AlternateStatus<C extends ErrorCode> = (typeof ERRORS)[C] extends { also: infer A }
  ? keyof A & number
  : never;
