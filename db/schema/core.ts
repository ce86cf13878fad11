import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  companyFk,
  companyId,
  companyKey,
  companyNamedKeys,
  createdAt,
  id,
  oneOf,
  timestamps,
  ts,
  updatedAt,
} from "./_columns";
import { users } from "./auth";
import {
  ACTOR_TYPES,
  AGENT_STATUSES,
  APPROVAL_STATUSES,
  COMMENT_AUTHOR_TYPES,
  COMMENT_KINDS,
  ISSUE_STATUSES,
  MEMBERSHIP_ROLES,
  PROJECT_STATUSES,
  ROUTINE_STATUSES,
  RUN_STATUSES,
} from "./values";

export const companies = pgTable(
  "companies",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    /** Prefix of human issue identifiers, e.g. `ACME` in `ACME-12`. */
    issuePrefix: text("issue_prefix").notNull(),
    /** Next issue number; taken with an atomic UPDATE … RETURNING when an issue is created. */
    nextIssueNumber: integer("next_issue_number").notNull().default(1),
    /**
     * Bumped in the same transaction as any change to tool access state (profiles, policies,
     * bindings, catalog, connections); in-process snapshot caches compare against it.
     */
    accessVersion: bigint("access_version", { mode: "number" }).notNull().default(0),
    /**
     * Company policy: may an owner accept a formal approval they proposed themselves? Off by
     * default (two people); when used, the approval records it (`owner_self_approved`).
     */
    ownerMaySelfApprove: boolean("owner_may_self_approve").notNull().default(false),
    /**
     * Set only on the instance's two hidden smoke companies (`a`, `b`; server/examples/
     * smoke-companies.ts): they have no members, so no company list, switcher or count shows
     * them; the unique index makes their creation race-safe across replicas.
     */
    smokeRole: text("smoke_role").$type<"a" | "b">(),
    /**
     * The company's ledger key (32 random bytes), encrypted with the master key and bound to
     * the company: idempotency keys are kept only as HMACs under it (server/secrets/
     * ledger-key.ts), so a key that carried a secret is not readable from any record.
     * Created on first use; rotation re-encrypts it and its value never changes.
     */
    ledgerKeyEncrypted: jsonb("ledger_key_encrypted").$type<{
      ciphertext: string;
      iv: string;
      authTag: string;
      keyId: string;
    }>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("companies_slug_uq").on(t.slug),
    uniqueIndex("companies_smoke_role_uq").on(t.smokeRole),
    check("companies_smoke_role_ck", sql`${t.smokeRole} is null or ${t.smokeRole} in ('a', 'b')`),
  ],
);

/**
 * The first columns of every company-scoped table: its `id` and the owning company, deleted
 * with it (spread into a table's columns; `companyKey` and `companyFk` build on the pair).
 */
export function companyOwned() {
  return {
    id: id(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
  };
}

export const companyMemberships = pgTable(
  "company_memberships",
  {
    ...companyOwned(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<(typeof MEMBERSHIP_ROLES)[number]>().notNull(),
    ...timestamps(),
  },
  (t) => [
    unique("company_memberships_company_user_uq").on(t.companyId, t.userId),
    index("company_memberships_user_idx").on(t.userId),
    oneOf("company_memberships_role_ck", t.role, MEMBERSHIP_ROLES),
  ],
);

/**
 * Board API keys act for the company with a fixed role (never `owner`), on behalf of the user
 * who created them. Only the SHA-256 of the key is stored; `prefix` is for display.
 */
export const boardApiKeys = pgTable(
  "board_api_keys",
  {
    ...companyOwned(),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    role: text("role").$type<"admin" | "member" | "viewer">().notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("board_api_keys_hash_uq").on(t.keyHash),
    index("board_api_keys_company_idx").on(t.companyId),
    oneOf("board_api_keys_role_ck", t.role, ["admin", "member", "viewer"]),
  ],
);

export const agents = pgTable(
  "agents",
  {
    ...companyOwned(),
    name: text("name").notNull(),
    title: text("title"),
    description: text("description"),
    adapterType: text("adapter_type").notNull().default("generic"),
    status: text("status").$type<(typeof AGENT_STATUSES)[number]>().notNull().default("active"),
    /** The model the agent's runner asks for (docs/agents.md); null: the adapter's default. */
    model: text("model"),
    /** Monthly spending limit in integer cents; null: no limit set. */
    monthlyBudgetCents: integer("monthly_budget_cents"),
    /**
     * The unversioned legacy prompt template (`promptTemplate.legacy.md`). Assistants read it
     * but may not edit it: it has no revision to protect a concurrent edit.
     */
    legacyPromptTemplate: text("legacy_prompt_template"),
    ...timestamps(),
  },
  (t) => [
    ...companyNamedKeys("agents", t),
    oneOf("agents_status_ck", t.status, AGENT_STATUSES),
    check(
      "agents_monthly_budget_ck",
      sql`${t.monthlyBudgetCents} is null or ${t.monthlyBudgetCents} between 0 and 100000000`,
    ),
  ],
);

export const agentApiKeys = pgTable(
  "agent_api_keys",
  {
    ...companyOwned(),
    agentId: uuid("agent_id").notNull(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("agent_api_keys_hash_uq").on(t.keyHash),
    index("agent_api_keys_agent_idx").on(t.companyId, t.agentId),
    companyFk("agent_api_keys_agent_fk", t.companyId, t.agentId, agents, "cascade"),
  ],
);

export const projects = pgTable(
  "projects",
  {
    ...companyOwned(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status").$type<(typeof PROJECT_STATUSES)[number]>().notNull().default("active"),
    ...timestamps(),
  },
  (t) => [...companyNamedKeys("projects", t), oneOf("projects_status_ck", t.status, PROJECT_STATUSES)],
);

export const routines = pgTable(
  "routines",
  {
    ...companyOwned(),
    projectId: uuid("project_id"),
    agentId: uuid("agent_id"),
    name: text("name").notNull(),
    description: text("description"),
    /** Cron expression (five fields) or null for manually triggered routines. */
    schedule: text("schedule"),
    status: text("status").$type<(typeof ROUTINE_STATUSES)[number]>().notNull().default("active"),
    ...timestamps(),
  },
  (t) => [
    companyKey("routines", t.companyId, t.id),
    companyFk("routines_project_fk", t.companyId, t.projectId, projects),
    companyFk("routines_agent_fk", t.companyId, t.agentId, agents),
    oneOf("routines_status_ck", t.status, ROUTINE_STATUSES),
  ],
);

export const issues = pgTable(
  "issues",
  {
    ...companyOwned(),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    status: text("status").$type<(typeof ISSUE_STATUSES)[number]>().notNull().default("todo"),
    assigneeAgentId: uuid("assignee_agent_id"),
    projectId: uuid("project_id"),
    parentId: uuid("parent_id"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdByAgentId: uuid("created_by_agent_id"),
    /**
     * Set when a person created the issue through an assistant connection (public MCP): the
     * grant and its client, so the issue page says "created by <person> via <client>".
     */
    createdVia: jsonb("created_via").$type<{
      grantId: string;
      clientId: string;
      clientName: string | null;
    }>(),
    /** Why the issue is `blocked` (required by the block verb); cleared when it moves on. */
    blockedReason: text("blocked_reason"),
    /** When the issue was finished (`done`); cleared when it is reopened. */
    completedAt: ts("completed_at"),
    ...timestamps(),
  },
  (t) => [
    companyKey("issues", t.companyId, t.id),
    unique("issues_company_number_uq").on(t.companyId, t.number),
    index("issues_company_status_idx").on(t.companyId, t.status),
    companyFk("issues_assignee_fk", t.companyId, t.assigneeAgentId, agents),
    companyFk("issues_created_by_agent_fk", t.companyId, t.createdByAgentId, agents),
    companyFk("issues_project_fk", t.companyId, t.projectId, projects),
    companyFk("issues_parent_fk", t.companyId, t.parentId, {
      companyId: t.companyId,
      id: t.id,
    } as { companyId: AnyPgColumn; id: AnyPgColumn }),
    check("issues_parent_not_self_ck", sql`${t.parentId} is null or ${t.parentId} <> ${t.id}`),
    oneOf("issues_status_ck", t.status, ISSUE_STATUSES),
  ],
);

export const issueComments = pgTable(
  "issue_comments",
  {
    ...companyOwned(),
    issueId: uuid("issue_id").notNull(),
    authorType: text("author_type").$type<(typeof COMMENT_AUTHOR_TYPES)[number]>().notNull(),
    authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
    authorAgentId: uuid("author_agent_id"),
    kind: text("kind").$type<(typeof COMMENT_KINDS)[number]>().notNull().default("text"),
    body: text("body").notNull().default(""),
    /** Structured content, e.g. an action card's request id and status. Never secrets. */
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    ...timestamps(),
  },
  (t) => [
    companyKey("issue_comments", t.companyId, t.id),
    index("issue_comments_issue_idx").on(t.companyId, t.issueId, t.createdAt),
    companyFk("issue_comments_issue_fk", t.companyId, t.issueId, issues, "cascade"),
    companyFk("issue_comments_agent_fk", t.companyId, t.authorAgentId, agents),
    oneOf("issue_comments_author_type_ck", t.authorType, COMMENT_AUTHOR_TYPES),
    oneOf("issue_comments_kind_ck", t.kind, COMMENT_KINDS),
    // An agent comment names its agent; a system comment names nobody. (A user comment may
    // outlive its author's account, so author_user_id may be nulled by ON DELETE SET NULL.)
    check(
      "issue_comments_author_ck",
      sql`(${t.authorType} = 'agent' and ${t.authorAgentId} is not null and ${t.authorUserId} is null)
        or (${t.authorType} = 'user' and ${t.authorAgentId} is null)
        or (${t.authorType} = 'system' and ${t.authorAgentId} is null and ${t.authorUserId} is null)`,
    ),
  ],
);

export const issueDocuments = pgTable(
  "issue_documents",
  {
    ...companyOwned(),
    issueId: uuid("issue_id").notNull(),
    key: text("key").notNull(),
    /** Optional display title (the key names the document). */
    title: text("title"),
    body: text("body").notNull().default(""),
    /** The current revision; its row in issue_document_revisions (db/schema/work.ts) has the body. */
    revision: integer("revision").notNull().default(1),
    updatedByUserId: uuid("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
    updatedByAgentId: uuid("updated_by_agent_id"),
    ...timestamps(),
  },
  (t) => [
    companyKey("issue_documents", t.companyId, t.id),
    unique("issue_documents_issue_key_uq").on(t.companyId, t.issueId, t.key),
    companyFk("issue_documents_issue_fk", t.companyId, t.issueId, issues, "cascade"),
    companyFk("issue_documents_agent_fk", t.companyId, t.updatedByAgentId, agents),
    check("issue_documents_revision_ck", sql`${t.revision} >= 1`),
  ],
);

export const heartbeatRuns = pgTable(
  "heartbeat_runs",
  {
    ...companyOwned(),
    agentId: uuid("agent_id").notNull(),
    issueId: uuid("issue_id"),
    projectId: uuid("project_id"),
    routineId: uuid("routine_id"),
    status: text("status").$type<(typeof RUN_STATUSES)[number]>().notNull().default("queued"),
    /** Who started the run: a board user, a board key, or the agent's own key. */
    startedByActorType: text("started_by_actor_type").$type<(typeof ACTOR_TYPES)[number]>().notNull(),
    startedByActorId: text("started_by_actor_id").notNull(),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    companyKey("heartbeat_runs", t.companyId, t.id),
    index("heartbeat_runs_agent_idx").on(t.companyId, t.agentId, t.createdAt),
    index("heartbeat_runs_issue_idx").on(t.companyId, t.issueId),
    // INVARIANT: at most one queued run per issue — the heartbeat queue (server/core/scheduling.ts)
    // relies on it when concurrent assignments race.
    uniqueIndex("heartbeat_runs_issue_queued_uq")
      .on(t.companyId, t.issueId)
      .where(sql`${t.status} = 'queued' and ${t.issueId} is not null`),
    companyFk("heartbeat_runs_agent_fk", t.companyId, t.agentId, agents),
    companyFk("heartbeat_runs_issue_fk", t.companyId, t.issueId, issues),
    companyFk("heartbeat_runs_project_fk", t.companyId, t.projectId, projects),
    companyFk("heartbeat_runs_routine_fk", t.companyId, t.routineId, routines),
    oneOf("heartbeat_runs_status_ck", t.status, RUN_STATUSES),
    oneOf("heartbeat_runs_actor_type_ck", t.startedByActorType, ACTOR_TYPES),
    check(
      "heartbeat_runs_finished_ck",
      sql`(${t.status} in ('succeeded','failed','cancelled')) = (${t.finishedAt} is not null)`,
    ),
  ],
);

/**
 * Formal approvals: board decisions that change future autonomy (trust rules, broad policy
 * changes, high-risk connection changes). Ordinary single tool calls use action cards.
 */
export const approvals = pgTable(
  "approvals",
  {
    ...companyOwned(),
    kind: text("kind").notNull(),
    status: text("status").$type<(typeof APPROVAL_STATUSES)[number]>().notNull().default("pending"),
    title: text("title").notNull(),
    summary: text("summary"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    issueId: uuid("issue_id"),
    requestedByActorType: text("requested_by_actor_type").$type<(typeof ACTOR_TYPES)[number]>().notNull(),
    requestedByActorId: text("requested_by_actor_id").notNull(),
    /** The person behind the proposing actor (a session's user, a board key's creator). */
    requestedByUserId: uuid("requested_by_user_id").references(() => users.id, { onDelete: "set null" }),
    decidedByUserId: uuid("decided_by_user_id").references(() => users.id, { onDelete: "set null" }),
    decidedAt: ts("decided_at"),
    decisionNote: text("decision_note"),
    /** The proposer accepted it themselves under the company's owner exemption. */
    ownerSelfApproved: boolean("owner_self_approved").notNull().default(false),
    expiresAt: ts("expires_at"),
    ...timestamps(),
  },
  (t) => [
    companyKey("approvals", t.companyId, t.id),
    index("approvals_company_status_idx").on(t.companyId, t.status),
    companyFk("approvals_issue_fk", t.companyId, t.issueId, issues),
    oneOf("approvals_status_ck", t.status, APPROVAL_STATUSES),
    oneOf("approvals_actor_type_ck", t.requestedByActorType, ACTOR_TYPES),
  ],
);

/** Administrative mutations (who changed what). Tool runtime decisions go to tool_call_events. */
export const activityLog = pgTable(
  "activity_log",
  {
    id: id(),
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "cascade" }),
    actorType: text("actor_type").$type<(typeof ACTOR_TYPES)[number]>().notNull(),
    actorId: text("actor_id").notNull(),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    /** A narrowed, redacted snapshot; never secret values. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    requestId: text("request_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("activity_log_company_created_idx").on(t.companyId, t.createdAt),
    // A task's history and a connection's activity read one entity's rows, newest first.
    index("activity_log_entity_idx").on(t.companyId, t.entityType, t.entityId, t.createdAt),
    oneOf("activity_log_actor_type_ck", t.actorType, ACTOR_TYPES),
  ],
);

/** Instance-wide settings as key → JSON value (e.g. whether the demo seed ran). */
export const instanceSettings = pgTable("instance_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  updatedAt: updatedAt(),
});
