import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { ActionRequestPreview } from "../../server/contracts/api/approvals";
import {
  companyFk,
  companyId,
  companyKey,
  createdAt,
  id,
  oneOf,
  timestamps,
  ts,
  updatedAt,
} from "./_columns";
import { users } from "./auth";
import {
  agents,
  approvals,
  companies,
  companyOwned,
  heartbeatRuns,
  issueComments,
  issues,
  projects,
  routines,
} from "./core";
import { toolApplications, toolCatalogEntries, toolConnections, toolPolicies } from "./tools";
import {
  ACTION_REQUEST_STATUSES,
  ACTOR_TYPES,
  APPROVAL_STATES,
  type DecisionValue,
  EXECUTION_STATUSES,
  SLOT_STATUSES,
} from "./values";

/** A short-lived, run-bound gateway session. Only the SHA-256 of the `pcgt_` token is stored. */
export const toolGatewaySessions = pgTable(
  "tool_gateway_sessions",
  {
    ...companyOwned(),
    agentId: uuid("agent_id").notNull(),
    runId: uuid("run_id").notNull(),
    issueId: uuid("issue_id"),
    projectId: uuid("project_id"),
    routineId: uuid("routine_id"),
    responsibleUserId: uuid("responsible_user_id").references(() => users.id, { onDelete: "set null" }),
    tokenPrefix: text("token_prefix").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    revokedReason: text("revoked_reason"),
    createdByActorType: text("created_by_actor_type").$type<(typeof ACTOR_TYPES)[number]>().notNull(),
    createdByActorId: text("created_by_actor_id").notNull(),
    lastUsedAt: ts("last_used_at"),
    /** What the agent's MCP client declared at `initialize` (sampling, elicitation, roots). */
    mcpClientCapabilities: jsonb("mcp_client_capabilities").$type<Record<string, unknown>>(),
    /** The level set by the agent's `logging/setLevel` (null: relay nothing below `info`). */
    mcpLogLevel: text("mcp_log_level"),
    createdAt: createdAt(),
  },
  (t) => [
    companyKey("tool_gateway_sessions", t.companyId, t.id),
    uniqueIndex("tool_gateway_sessions_token_hash_uq").on(t.tokenHash),
    index("tool_gateway_sessions_run_idx").on(t.companyId, t.runId),
    companyFk("tool_gateway_sessions_agent_fk", t.companyId, t.agentId, agents),
    companyFk("tool_gateway_sessions_run_fk", t.companyId, t.runId, heartbeatRuns),
    companyFk("tool_gateway_sessions_issue_fk", t.companyId, t.issueId, issues),
    companyFk("tool_gateway_sessions_project_fk", t.companyId, t.projectId, projects),
    companyFk("tool_gateway_sessions_routine_fk", t.companyId, t.routineId, routines),
    oneOf("tool_gateway_sessions_actor_type_ck", t.createdByActorType, ACTOR_TYPES),
  ],
);

/**
 * A request an upstream sent during a call (sampling, elicitation, roots) relayed to the
 * agent, waiting for its answer. The answer may reach any replica: it is written here and
 * announced with `NOTIFY`, and the replica running the call reads it from this row.
 */
export const toolGatewayRelayRequests = pgTable(
  "tool_gateway_relay_requests",
  {
    id: id(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").notNull(),
    invocationId: uuid("invocation_id"),
    /** The JSON-RPC id the gateway gave the request on the agent's stream (unique per session). */
    relayId: text("relay_id").notNull(),
    method: text("method").notNull(),
    status: text("status").notNull().default("pending"),
    /** The agent's JSON-RPC answer (`result` or `error`), bounded. */
    response: jsonb("response").$type<Record<string, unknown>>(),
    expiresAt: ts("expires_at").notNull(),
    answeredAt: ts("answered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    unique("tool_gateway_relay_requests_relay_uq").on(t.sessionId, t.relayId),
    index("tool_gateway_relay_requests_expiry_idx").on(t.expiresAt),
    companyFk(
      "tool_gateway_relay_requests_session_fk",
      t.companyId,
      t.sessionId,
      toolGatewaySessions,
      "cascade",
    ),
    // The call the relayed request belongs to, in the same company (the company boundary rule).
    companyFk(
      "tool_gateway_relay_requests_invocation_fk",
      t.companyId,
      t.invocationId,
      toolInvocations,
      "cascade",
    ),
    oneOf("tool_gateway_relay_requests_status_ck", t.status, ["pending", "answered", "cancelled"]),
  ],
);

/**
 * A session's `resources/subscribe` (issue 17): written when a governed subscribe succeeds,
 * deleted on unsubscribe and when the session ends. The agent's GET stream listens for the
 * upstream's `notifications/resources/updated` of these URIs (announced on every replica) and
 * relays them under `agent_uri`, the URI as the agent named it (namespaced on the combined
 * endpoint).
 */
export const toolGatewayResourceSubscriptions = pgTable(
  "tool_gateway_resource_subscriptions",
  {
    id: id(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").notNull(),
    connectionId: uuid("connection_id").notNull(),
    catalogEntryId: uuid("catalog_entry_id").notNull(),
    upstreamUri: text("upstream_uri").notNull(),
    agentUri: text("agent_uri").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique("tool_gateway_resource_subscriptions_uq").on(t.sessionId, t.connectionId, t.upstreamUri),
    index("tool_gateway_resource_subscriptions_conn_idx").on(t.connectionId, t.upstreamUri),
    companyFk(
      "tool_gateway_resource_subscriptions_session_fk",
      t.companyId,
      t.sessionId,
      toolGatewaySessions,
      "cascade",
    ),
    companyFk(
      "tool_gateway_resource_subscriptions_connection_fk",
      t.companyId,
      t.connectionId,
      toolConnections,
      "cascade",
    ),
    companyFk(
      "tool_gateway_resource_subscriptions_entry_fk",
      t.companyId,
      t.catalogEntryId,
      toolCatalogEntries,
      "cascade",
    ),
  ],
);

/**
 * The remote (HTTP) MCP sessions of the connector pool, per replica: what the Runtime page
 * shows beside the stdio slots. Written by the pool on connect, use (at most every 30 s),
 * error and close (`server/connectors/remote-sessions.ts`); a call's own short-lived sessions
 * (relayed calls) are not recorded.
 */
export const toolRemoteSessions = pgTable(
  "tool_remote_sessions",
  {
    id: id(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id").notNull(),
    /** `calls` (the shared client) or `discovery` (catalog listing). */
    purpose: text("purpose").notNull(),
    /** The server process holding the session (`host/pid`). */
    replica: text("replica").notNull(),
    /** scheme://host:port only. */
    origin: text("origin").notNull(),
    transport: text("transport").notNull(),
    state: text("state").notNull().default("ready"),
    errors: integer("errors").notNull().default(0),
    /** Scrubbed of header values, bounded. */
    lastError: text("last_error"),
    reconnects: integer("reconnects").notNull().default(0),
    closeReason: text("close_reason"),
    openedAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    closedAt: ts("closed_at"),
  },
  (t) => [
    index("tool_remote_sessions_company_idx").on(t.companyId, t.state, t.openedAt),
    companyFk("tool_remote_sessions_connection_fk", t.companyId, t.connectionId, toolConnections, "cascade"),
    oneOf("tool_remote_sessions_state_ck", t.state, ["ready", "closed"]),
  ],
);

/** Supervised runtime units: a local stdio process or a remote session handle. */
export const toolRuntimeSlots = pgTable(
  "tool_runtime_slots",
  {
    ...companyOwned(),
    connectionId: uuid("connection_id").notNull(),
    templateId: uuid("template_id"),
    kind: text("kind").notNull().default("stdio"),
    /** Hash of (companyId, connectionId, workspaceScope, credentialScope, trustScope). */
    slotKey: text("slot_key").notNull(),
    workspaceScope: text("workspace_scope").notNull(),
    credentialScope: text("credential_scope").notNull(),
    trustScope: text("trust_scope").notNull(),
    runId: uuid("run_id"),
    status: text("status").$type<(typeof SLOT_STATUSES)[number]>().notNull().default("starting"),
    host: text("host").notNull(),
    pid: integer("pid"),
    processGroupId: integer("process_group_id"),
    providerRef: text("provider_ref"),
    idleTtlMs: integer("idle_ttl_ms").notNull(),
    health: text("health").notNull().default("unknown"),
    restartCount: integer("restart_count").notNull().default(0),
    recentRestarts: jsonb("recent_restarts").$type<string[]>().notNull().default([]),
    lastError: text("last_error"),
    startedAt: ts("started_at"),
    lastUsedAt: ts("last_used_at"),
    stoppedAt: ts("stopped_at"),
    ...timestamps(),
    /** The supervising server process (`host/pid/start ticks`): orphan reaping skips live owners. */
    supervisorId: text("supervisor_id"),
    /** The last lines of the slot's stderr, redacted and bounded, saved when it stops or crashes. */
    stderrTail: text("stderr_tail"),
    /**
     * The uid (and gid) the slot's current process runs as, when the server is root: one of
     * its own (server/runtime/slot-uids.ts). Cleared when a new process is about to start.
     */
    slotUid: integer("slot_uid"),
  },
  (t) => [
    companyKey("tool_runtime_slots", t.companyId, t.id),
    index("tool_runtime_slots_host_status_idx").on(t.host, t.status),
    // At most one live row per slot identity; stopped rows are history.
    uniqueIndex("tool_runtime_slots_live_key_uq")
      .on(t.slotKey)
      .where(sql`${t.status} not in ('stopped', 'crashed')`),
    // INVARIANT: no two live slots of one host run as one uid (across replicas too). A
    // crashed, suppressed or stopped row's process is gone (or being killed; the allocator
    // also skips every uid a live process of the host holds).
    uniqueIndex("tool_runtime_slots_host_uid_uq")
      .on(t.host, t.slotUid)
      .where(sql`${t.slotUid} is not null and ${t.status} not in ('stopped', 'crashed', 'suppressed')`),
    companyFk("tool_runtime_slots_connection_fk", t.companyId, t.connectionId, toolConnections, "cascade"),
    companyFk("tool_runtime_slots_run_fk", t.companyId, t.runId, heartbeatRuns),
    oneOf("tool_runtime_slots_status_ck", t.status, SLOT_STATUSES),
  ],
);

/**
 * Who made a call and through what: the columns a ledger row and its event trail share
 * (spread into both tables, in this order).
 */
const callActor = () => ({
  sessionId: uuid("session_id"),
  actorType: text("actor_type").$type<(typeof ACTOR_TYPES)[number]>().notNull(),
  actorId: text("actor_id").notNull(),
  applicationId: uuid("application_id"),
  connectionId: uuid("connection_id"),
  catalogEntryId: uuid("catalog_entry_id"),
});

/**
 * The invocation ledger: one row per tool call attempt, allowed or not. Write/destructive
 * calls carry an idempotency identity, unique per company, so a retry finds the first row
 * instead of repeating the side effect.
 */
export const toolInvocations = pgTable(
  "tool_invocations",
  {
    ...companyOwned(),
    runId: uuid("run_id"),
    issueId: uuid("issue_id"),
    agentId: uuid("agent_id"),
    ...callActor(),
    /** The name the caller asked for, bounded; kept even when it resolves to nothing. */
    toolName: text("tool_name").notNull(),
    argsHash: text("args_hash").notNull(),
    argsSummary: jsonb("args_summary").$type<Record<string, unknown>>(),
    idempotencyKey: text("idempotency_key"),
    idempotencyIdentity: text("idempotency_identity"),
    decision: text("decision").$type<DecisionValue>(),
    reasonCode: text("reason_code"),
    matchedPolicyIds: jsonb("matched_policy_ids").$type<string[]>().notNull().default([]),
    approvalState: text("approval_state").$type<(typeof APPROVAL_STATES)[number]>().notNull().default("none"),
    executionStatus: text("execution_status")
      .$type<(typeof EXECUTION_STATUSES)[number]>()
      .notNull()
      .default("pending"),
    resultHash: text("result_hash"),
    resultSize: integer("result_size"),
    resultSummary: jsonb("result_summary").$type<Record<string, unknown>>(),
    errorCode: text("error_code"),
    latencyMs: integer("latency_ms"),
    runtimeSlotId: uuid("runtime_slot_id"),
    attempts: integer("attempts").notNull().default(1),
    /**
     * The execution lease (docs/gateway.md "Execution states"): who runs the call — host, pid,
     * the process's boot id — and until when; `lease_token` is one claim's own id, so only
     * that execution renews it and records its outcome. Past `lease_expires_at` a sweeper
     * marks the row `outcome_unknown`.
     */
    leaseHost: text("lease_host"),
    leasePid: integer("lease_pid"),
    leaseBootId: text("lease_boot_id"),
    leaseToken: uuid("lease_token"),
    leaseExpiresAt: ts("lease_expires_at"),
    /**
     * The bounded, guarded result as first returned (`{content, structuredContent?, isError?}`
     * JSON), encrypted with the master key and bound to this row, so a replay answers exactly
     * the same (server/ledger/replay-result.ts). Writes and destructive calls only.
     */
    resultEncrypted: jsonb("result_encrypted").$type<{
      ciphertext: string;
      iv: string;
      authTag: string;
      keyId: string;
    }>(),
    createdAt: createdAt(),
    startedAt: ts("started_at"),
    completedAt: ts("completed_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    companyKey("tool_invocations", t.companyId, t.id),
    // The lease sweeper's scan: only executing rows, oldest lease first.
    index("tool_invocations_lease_idx").on(t.leaseExpiresAt).where(sql`${t.executionStatus} = 'running'`),
    uniqueIndex("tool_invocations_idempotency_uq")
      .on(t.companyId, t.idempotencyIdentity)
      .where(sql`${t.idempotencyIdentity} is not null`),
    index("tool_invocations_run_idx").on(t.companyId, t.runId, t.createdAt),
    index("tool_invocations_company_created_idx").on(t.companyId, t.createdAt),
    companyFk("tool_invocations_run_fk", t.companyId, t.runId, heartbeatRuns),
    companyFk("tool_invocations_issue_fk", t.companyId, t.issueId, issues),
    companyFk("tool_invocations_agent_fk", t.companyId, t.agentId, agents),
    companyFk("tool_invocations_session_fk", t.companyId, t.sessionId, toolGatewaySessions),
    companyFk("tool_invocations_application_fk", t.companyId, t.applicationId, toolApplications),
    companyFk("tool_invocations_connection_fk", t.companyId, t.connectionId, toolConnections),
    companyFk("tool_invocations_catalog_entry_fk", t.companyId, t.catalogEntryId, toolCatalogEntries),
    companyFk("tool_invocations_slot_fk", t.companyId, t.runtimeSlotId, toolRuntimeSlots),
    oneOf("tool_invocations_actor_type_ck", t.actorType, ACTOR_TYPES),
    oneOf("tool_invocations_approval_state_ck", t.approvalState, APPROVAL_STATES),
    oneOf("tool_invocations_execution_status_ck", t.executionStatus, EXECUTION_STATUSES),
  ],
);

/**
 * A reviewable, signed request to run one tool call with stored arguments. Execution uses
 * exactly the reviewed arguments (`reviewed_args_encrypted`); consumption is a conditional update `approved → executing`.
 */
export const toolActionRequests = pgTable(
  "tool_action_requests",
  {
    ...companyOwned(),
    invocationId: uuid("invocation_id").notNull(),
    runId: uuid("run_id"),
    agentId: uuid("agent_id"),
    issueId: uuid("issue_id"),
    commentId: uuid("comment_id"),
    approvalId: uuid("approval_id"),
    catalogEntryId: uuid("catalog_entry_id").notNull(),
    toolName: text("tool_name").notNull(),
    /**
     * Legacy: reviewed arguments in clear (rows written before they were encrypted). New rows
     * leave it null and keep them in `reviewed_args_encrypted`.
     */
    reviewedArgs: jsonb("reviewed_args").$type<unknown>(),
    /**
     * The canonical (RFC 8785) reviewed arguments, exactly what execution will send, encrypted
     * with the secrets provider (AES-256-GCM; additional data binds them to the company and
     * this action request): `{ciphertext, iv, authTag, keyId}`.
     */
    reviewedArgsEncrypted: jsonb("reviewed_args_encrypted").$type<{
      ciphertext: string;
      iv: string;
      authTag: string;
      keyId: string;
    }>(),
    argsHash: text("args_hash").notNull(),
    schemaHash: text("schema_hash").notNull(),
    versionHash: text("version_hash").notNull(),
    /** HMAC-SHA256 over the canonical request fields, with `signature_key_id`. */
    signature: text("signature").notNull(),
    signatureKeyId: text("signature_key_id").notNull(),
    preview: jsonb("preview").$type<ActionRequestPreview>().notNull(),
    status: text("status").$type<(typeof ACTION_REQUEST_STATUSES)[number]>().notNull().default("pending"),
    supersededById: uuid("superseded_by_id"),
    expiresAt: ts("expires_at").notNull(),
    decidedByUserId: uuid("decided_by_user_id").references(() => users.id, { onDelete: "set null" }),
    decidedAt: ts("decided_at"),
    decisionNote: text("decision_note"),
    executedAt: ts("executed_at"),
    executionInvocationId: uuid("execution_invocation_id"),
    ...timestamps(),
  },
  (t) => [
    companyKey("tool_action_requests", t.companyId, t.id),
    index("tool_action_requests_status_idx").on(t.companyId, t.status),
    // No floods: one pending card per run, tool and arguments hash.
    uniqueIndex("tool_action_requests_pending_uq")
      .on(t.companyId, t.runId, t.catalogEntryId, t.argsHash)
      .where(sql`${t.status} = 'pending'`),
    companyFk("tool_action_requests_invocation_fk", t.companyId, t.invocationId, toolInvocations),
    companyFk("tool_action_requests_run_fk", t.companyId, t.runId, heartbeatRuns),
    companyFk("tool_action_requests_agent_fk", t.companyId, t.agentId, agents),
    companyFk("tool_action_requests_issue_fk", t.companyId, t.issueId, issues),
    companyFk("tool_action_requests_comment_fk", t.companyId, t.commentId, issueComments),
    companyFk("tool_action_requests_approval_fk", t.companyId, t.approvalId, approvals),
    companyFk("tool_action_requests_catalog_entry_fk", t.companyId, t.catalogEntryId, toolCatalogEntries),
    companyFk("tool_action_requests_superseded_by_fk", t.companyId, t.supersededById, {
      companyId: t.companyId,
      id: t.id,
    }),
    companyFk(
      "tool_action_requests_execution_invocation_fk",
      t.companyId,
      t.executionInvocationId,
      toolInvocations,
    ),
    oneOf("tool_action_requests_status_ck", t.status, ACTION_REQUEST_STATUSES),
  ],
);

/**
 * The tool audit trail: append-only (a trigger refuses UPDATE and DELETE), redacted and
 * bounded summaries only.
 */
export const toolCallEvents = pgTable(
  "tool_call_events",
  {
    id: id(),
    /** Monotonic order for cursor pagination (uuid ids are random). */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    invocationId: uuid("invocation_id"),
    runId: uuid("run_id"),
    issueId: uuid("issue_id"),
    agentId: uuid("agent_id"),
    projectId: uuid("project_id"),
    routineId: uuid("routine_id"),
    ...callActor(),
    toolName: text("tool_name"),
    risk: text("risk"),
    decision: text("decision").$type<DecisionValue>(),
    reasonCode: text("reason_code"),
    matchedPolicyIds: jsonb("matched_policy_ids").$type<string[]>().notNull().default([]),
    actionRequestId: uuid("action_request_id"),
    trustRuleId: uuid("trust_rule_id"),
    runtimeSlotId: uuid("runtime_slot_id"),
    argsHash: text("args_hash"),
    argsSummary: jsonb("args_summary").$type<Record<string, unknown>>(),
    resultHash: text("result_hash"),
    resultSize: integer("result_size"),
    resultSummary: jsonb("result_summary").$type<Record<string, unknown>>(),
    latencyMs: integer("latency_ms"),
    errorClass: text("error_class"),
    redactions: jsonb("redactions").$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    // `seq` is an identity column (GENERATED ALWAYS, from its own sequence) and every cursor
    // over it is per company, served by this index; a unique constraint on `seq` alone was a
    // fifth index written per event (three events per call) that no query used (migration
    // 0030, docs/benchmarks.md).
    index("tool_call_events_company_seq_idx").on(t.companyId, t.seq),
    index("tool_call_events_run_idx").on(t.companyId, t.runId),
    index("tool_call_events_invocation_idx").on(t.companyId, t.invocationId),
    // Only two references are enforced here: company_id (above) and the invocation below.
    // Audit rows are recorded facts copied from a ledger row (whose own composite FKs enforced
    // the company boundary) or from an authenticated session row; the invocation FK keeps the
    // event's company equal to its ledger row's. The other ids (run, issue, agent, project,
    // routine, session, application, connection, catalog entry, action request, trust rule,
    // runtime slot) are not re-verified per event: each would cost an index probe and a
    // FOR KEY SHARE lock on a shared parent row on every call (docs/benchmarks.md).
    // ON DELETE NO ACTION: the trail is never silently pruned with its ledger row.
    companyFk("tool_call_events_invocation_fk", t.companyId, t.invocationId, toolInvocations),
    oneOf("tool_call_events_actor_type_ck", t.actorType, ACTOR_TYPES),
  ],
);

/**
 * Rate-limit token buckets: one row per (policy, scope key). A call takes a token with one
 * conditional `INSERT … ON CONFLICT DO UPDATE … WHERE tokens-after-refill >= 1 RETURNING`,
 * so the limit is exact across replicas sharing the database.
 */
export const toolRateLimitCounters = pgTable(
  "tool_rate_limit_counters",
  {
    ...companyOwned(),
    policyId: uuid("policy_id").notNull(),
    scopeKey: text("scope_key").notNull(),
    tokens: doublePrecision("tokens").notNull(),
    refilledAt: ts("refilled_at").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("tool_rate_limit_counters_bucket_uq").on(t.companyId, t.policyId, t.scopeKey),
    companyFk("tool_rate_limit_counters_policy_fk", t.companyId, t.policyId, toolPolicies, "cascade"),
    check("tool_rate_limit_counters_tokens_ck", sql`${t.tokens} >= 0`),
  ],
);

/**
 * Full results that exceeded a connection's result bound: the agent receives a truncated
 * result plus this artifact's id; the complete (secret-scrubbed, redacted) JSON is kept here
 * until it expires.
 */
export const toolResultArtifacts = pgTable(
  "tool_result_artifacts",
  {
    ...companyOwned(),
    invocationId: uuid("invocation_id").notNull(),
    contentType: text("content_type").notNull().default("application/json"),
    content: text("content").notNull(),
    bytes: integer("bytes").notNull(),
    sha256: text("sha256").notNull(),
    createdAt: createdAt(),
    /**
     * Set at creation from the artifact retention (`server/gateway/artifact-retention.ts`);
     * past it the artifact reads as unknown and the maintenance sweep deletes it.
     */
    expiresAt: ts("expires_at").notNull().default(sql`now() + interval '30 days'`),
  },
  (t) => [
    companyKey("tool_result_artifacts", t.companyId, t.id),
    index("tool_result_artifacts_invocation_idx").on(t.companyId, t.invocationId),
    index("tool_result_artifacts_expires_idx").on(t.expiresAt),
    companyFk("tool_result_artifacts_invocation_fk", t.companyId, t.invocationId, toolInvocations, "cascade"),
  ],
);
