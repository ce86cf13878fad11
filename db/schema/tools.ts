import { sql } from "drizzle-orm";
import {
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
import type { ReviewedVersion } from "../../server/contracts/api/catalog";
import type { TransportConfig } from "../../server/contracts/api/connections";
import type { PolicyEffect } from "../../server/contracts/api/policies";
import type { StdioArgSlot, StdioEnvSlot } from "../../server/contracts/api/stdio";
import type { UpstreamAuthConfig } from "../../server/contracts/api/upstream-auth";
import type {
  ArgumentConstraint,
  PolicyConditions,
  PolicySelectors,
} from "../../server/contracts/policy-schema";
import { companyFk, companyKey, companyNamedKeys, createdAt, id, oneOf, timestamps, ts } from "./_columns";
import { users } from "./auth";
import { agents, approvals, companyOwned, issues, projects, routines } from "./core";
import {
  APPLICATION_STATUSES,
  APPLICATION_TYPES,
  BINDING_TARGETS,
  BUNDLED_FIXTURES,
  CATALOG_KINDS,
  CATALOG_STATUSES,
  CONNECTION_AUTH_KINDS,
  CONNECTION_HEALTH,
  CONNECTION_STATUSES,
  PROFILE_ENTRY_MODES,
  PROFILE_SELECTOR_TYPES,
  PROFILE_STATUSES,
  RISKS,
  type Risk,
  STDIO_CWD_POLICIES,
  TEMPLATE_STATUSES,
  TRUST_RULE_SCOPES,
  TRUST_RULE_STATUSES,
} from "./values";

/** A company-visible tool source (GitHub, an internal MCP server, Paperclip itself, a plugin). */
export const toolApplications = pgTable(
  "tool_applications",
  {
    ...companyOwned(),
    /** Stable, namespacing slug: agents see tools as `<slug>__<tool>`. */
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    type: text("type").$type<(typeof APPLICATION_TYPES)[number]>().notNull(),
    status: text("status").$type<(typeof APPLICATION_STATUSES)[number]>().notNull().default("active"),
    ownerUserId: uuid("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
    archivedAt: ts("archived_at"),
  },
  (t) => [
    companyKey("tool_applications", t.companyId, t.id),
    unique("tool_applications_company_slug_uq").on(t.companyId, t.slug),
    oneOf("tool_applications_type_ck", t.type, APPLICATION_TYPES),
    oneOf("tool_applications_status_ck", t.status, APPLICATION_STATUSES),
    check("tool_applications_slug_ck", sql`${t.slug} ~ '^[a-z][a-z0-9_-]{0,47}$'`),
  ],
);

// The slots of a catalogue command: their zod schemas are contracts (shared with the client).
export type { StdioArgSlot, StdioEnvSlot, StdioSlotRule } from "../../server/contracts/api/stdio";

/**
 * The operator's stdio command catalogue (instance-level, not company-scoped): the only
 * commands a company's stdio template may start. Company admins pick one and fill its slots;
 * they never supply an executable or free arguments (docs/runtime.md).
 */
export const instanceStdioCommands = pgTable(
  "instance_stdio_commands",
  {
    id: id(),
    /** Stable key templates name (`paperclip.lab`). */
    key: text("key").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    /** A fixture server shipped with the product, run from a read-only bundle (else `command`). */
    fixture: text("fixture").$type<(typeof BUNDLED_FIXTURES)[number]>(),
    /** Absolute path of the executable (null for fixtures). */
    command: text("command"),
    /** Fixed leading arguments. */
    args: jsonb("args").$type<string[]>().notNull().default([]),
    argSlots: jsonb("arg_slots").$type<StdioArgSlot[]>().notNull().default([]),
    envSlots: jsonb("env_slots").$type<StdioEnvSlot[]>().notNull().default([]),
    /** Variables copied from the server's environment when set there. */
    passEnv: jsonb("pass_env").$type<string[]>().notNull().default([]),
    /** Whether the operator allows it on this host. */
    enabled: boolean("enabled").notNull().default(false),
    /** Refused where slots cannot be isolated (a server not running as root, no bwrap). */
    requiresIsolation: boolean("requires_isolation").notNull().default(false),
    /** Network inside the bwrap sandbox (without bwrap the network is not restricted). */
    allowNetwork: boolean("allow_network").notNull().default(false),
    /** Templates may run it in a project or issue workspace (else only a private directory). */
    allowWorkspace: boolean("allow_workspace").notNull().default(false),
    /** Overrides PAPERCLIP_SLOT_IDLE_MS for its slots. */
    idleTtlMs: integer("idle_ttl_ms"),
    /** Seeded by the product (its own fixture servers). */
    builtin: boolean("builtin").notNull().default(false),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    unique("instance_stdio_commands_key_uq").on(t.key),
    oneOf("instance_stdio_commands_fixture_ck", t.fixture, BUNDLED_FIXTURES),
    check("instance_stdio_commands_key_ck", sql`${t.key} ~ '^[a-z][a-z0-9_.-]{0,63}$'`),
    check("instance_stdio_commands_target_ck", sql`(${t.fixture} is null) <> (${t.command} is null)`),
    check(
      "instance_stdio_commands_idle_ck",
      sql`${t.idleTtlMs} is null or (${t.idleTtlMs} >= 1000 and ${t.idleTtlMs} <= 86400000)`,
    ),
  ],
);

/**
 * Admin-made command templates: the only way a local stdio MCP server can be started.
 * Agents never supply command, args, cwd, env or secret refs.
 */
export const toolStdioTemplates = pgTable(
  "tool_stdio_templates",
  {
    ...companyOwned(),
    name: text("name").notNull(),
    description: text("description"),
    command: text("command").notNull(),
    args: jsonb("args").$type<string[]>().notNull().default([]),
    allowedEnvKeys: jsonb("allowed_env_keys").$type<string[]>().notNull().default([]),
    cwdPolicy: text("cwd_policy").$type<(typeof STDIO_CWD_POLICIES)[number]>().notNull().default("none"),
    trustScope: text("trust_scope").notNull().default("company"),
    /** Untrusted templates get a fresh slot per run instead of a shared one. */
    perRunSlot: boolean("per_run_slot").notNull().default(false),
    /** The operator-approved command this template starts (null only for pre-catalogue rows, which never start). */
    catalogCommandId: uuid("catalog_command_id").references(() => instanceStdioCommands.id, {
      onDelete: "restrict",
    }),
    /** What the company filled in: argument slot values and literal environment slot values, by name. */
    slotValues: jsonb("slot_values")
      .$type<{ args: Record<string, string>; env: Record<string, string> }>()
      .notNull()
      .default({ args: {}, env: {} }),
    status: text("status").$type<(typeof TEMPLATE_STATUSES)[number]>().notNull().default("active"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
    disabledAt: ts("disabled_at"),
  },
  (t) => [
    ...companyNamedKeys("tool_stdio_templates", t),
    oneOf("tool_stdio_templates_cwd_policy_ck", t.cwdPolicy, STDIO_CWD_POLICIES),
    oneOf("tool_stdio_templates_status_ck", t.status, TEMPLATE_STATUSES),
  ],
);

/** A managed company connection: one endpoint/transport instance of an application. */
export const toolConnections = pgTable(
  "tool_connections",
  {
    ...companyOwned(),
    applicationId: uuid("application_id").notNull(),
    name: text("name").notNull(),
    /** MVP: managed company connections only (personal connections are deferred). */
    kind: text("kind").$type<"managed_company">().notNull().default("managed_company"),
    /** Transport settings without secret values (URL, timeouts, non-secret headers). */
    transportConfig: jsonb("transport_config").$type<TransportConfig>().notNull().default({}),
    stdioTemplateId: uuid("stdio_template_id"),
    status: text("status").$type<(typeof CONNECTION_STATUSES)[number]>().notNull().default("draft"),
    enabled: boolean("enabled").notNull().default(false),
    /** Set by an admin to let this connection reach loopback / private addresses. */
    trustedLocal: boolean("trusted_local").notNull().default(false),
    /** Read-only tools found on refresh may become active without review. */
    autoApproveReadTools: boolean("auto_approve_read_tools").notNull().default(false),
    /** The upstream may ask the agent's model to sample (spends the agent's model): off by default. */
    allowSampling: boolean("allow_sampling").notNull().default(false),
    /** The upstream may ask the agent (and its person) for input: off by default. */
    allowElicitation: boolean("allow_elicitation").notNull().default(false),
    /** How it authorises upstream (docs/upstream-oauth.md); `static` is bound secrets or none. */
    authKind: text("auth_kind").$type<(typeof CONNECTION_AUTH_KINDS)[number]>().notNull().default("static"),
    /** The admin's OAuth choices (scopes, a pre-registered client id); never a secret. */
    authConfig: jsonb("auth_config").$type<UpstreamAuthConfig>().notNull().default({}),
    healthStatus: text("health_status")
      .$type<(typeof CONNECTION_HEALTH)[number]>()
      .notNull()
      .default("unknown"),
    healthCheckedAt: ts("health_checked_at"),
    healthError: text("health_error"),
    catalogRefreshedAt: ts("catalog_refreshed_at"),
    catalogReviewedAt: ts("catalog_reviewed_at"),
    disabledReason: text("disabled_reason"),
    lastUsedAt: ts("last_used_at"),
    ...timestamps(),
    archivedAt: ts("archived_at"),
  },
  (t) => [
    companyKey("tool_connections", t.companyId, t.id),
    unique("tool_connections_app_name_uq").on(t.companyId, t.applicationId, t.name),
    companyFk("tool_connections_application_fk", t.companyId, t.applicationId, toolApplications),
    companyFk("tool_connections_template_fk", t.companyId, t.stdioTemplateId, toolStdioTemplates),
    oneOf("tool_connections_kind_ck", t.kind, ["managed_company"]),
    oneOf("tool_connections_status_ck", t.status, CONNECTION_STATUSES),
    oneOf("tool_connections_auth_kind_ck", t.authKind, CONNECTION_AUTH_KINDS),
    oneOf("tool_connections_health_ck", t.healthStatus, CONNECTION_HEALTH),
  ],
);

/** One discovered tool, resource or prompt of a connection, with hashes, risk and review state. */
export const toolCatalogEntries = pgTable(
  "tool_catalog_entries",
  {
    ...companyOwned(),
    connectionId: uuid("connection_id").notNull(),
    kind: text("kind").$type<(typeof CATALOG_KINDS)[number]>().notNull().default("tool"),
    name: text("name").notNull(),
    title: text("title"),
    description: text("description"),
    inputSchema: jsonb("input_schema").$type<Record<string, unknown>>(),
    annotations: jsonb("annotations").$type<Record<string, unknown>>(),
    /** A tool's `outputSchema` (checked to compile at refresh; results are validated against it). */
    outputSchema: jsonb("output_schema").$type<Record<string, unknown>>(),
    /** The upstream's `icons` (https sources only) and bounded `_meta`, as served to agents. */
    icons: jsonb("icons").$type<Record<string, unknown>[]>(),
    meta: jsonb("meta").$type<Record<string, unknown>>(),
    /** SHA-256 of the canonical input schema. */
    schemaHash: text("schema_hash").notNull(),
    /** SHA-256 of canonical {name, title, description, inputSchema, annotations}. */
    versionHash: text("version_hash").notNull(),
    risk: text("risk").$type<(typeof RISKS)[number]>().notNull(),
    riskOverride: text("risk_override").$type<Risk>(),
    /**
     * An admin marked the tool repeatable (a polling or status tool): a call without an
     * explicit idempotency key is then never answered from the ledger (docs/access.md).
     */
    repeatable: boolean("repeatable").notNull().default(false),
    status: text("status").$type<(typeof CATALOG_STATUSES)[number]>().notNull().default("quarantined"),
    /**
     * Why the upstream's input schema cannot be used (too deep or large, or ajv cannot compile
     * it); such a tool stays quarantined and its stored `input_schema` is a stand-in.
     */
    schemaProblem: text("schema_problem"),
    /** The last reviewed version, kept to show a diff when the upstream changes it. */
    reviewedVersion: jsonb("reviewed_version").$type<ReviewedVersion>(),
    reviewedAt: ts("reviewed_at"),
    reviewedByUserId: uuid("reviewed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    firstSeenAt: ts("first_seen_at").notNull().defaultNow(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [
    companyKey("tool_catalog_entries", t.companyId, t.id),
    unique("tool_catalog_entries_conn_kind_name_uq").on(t.companyId, t.connectionId, t.kind, t.name),
    companyFk("tool_catalog_entries_connection_fk", t.companyId, t.connectionId, toolConnections, "cascade"),
    oneOf("tool_catalog_entries_kind_ck", t.kind, CATALOG_KINDS),
    oneOf("tool_catalog_entries_status_ck", t.status, CATALOG_STATUSES),
    oneOf("tool_catalog_entries_risk_ck", t.risk, RISKS),
    check(
      "tool_catalog_entries_risk_override_ck",
      sql`${t.riskOverride} is null or ${t.riskOverride} in ('read','write','destructive')`,
    ),
  ],
);

/** A reusable bundle of visible tools. */
export const toolProfiles = pgTable(
  "tool_profiles",
  {
    ...companyOwned(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status").$type<(typeof PROFILE_STATUSES)[number]>().notNull().default("active"),
    ...timestamps(),
  },
  (t) => [
    ...companyNamedKeys("tool_profiles", t),
    oneOf("tool_profiles_status_ck", t.status, PROFILE_STATUSES),
  ],
);

/**
 * One include/exclude selector of a profile. Exactly the column named by `selector_type` is
 * set; references are company-bounded.
 */
export const toolProfileEntries = pgTable(
  "tool_profile_entries",
  {
    ...companyOwned(),
    profileId: uuid("profile_id").notNull(),
    mode: text("mode").$type<(typeof PROFILE_ENTRY_MODES)[number]>().notNull().default("include"),
    selectorType: text("selector_type").$type<(typeof PROFILE_SELECTOR_TYPES)[number]>().notNull(),
    applicationId: uuid("application_id"),
    connectionId: uuid("connection_id"),
    catalogEntryId: uuid("catalog_entry_id"),
    toolGlob: text("tool_glob"),
    risk: text("risk").$type<Risk>(),
    createdAt: createdAt(),
  },
  (t) => [
    companyKey("tool_profile_entries", t.companyId, t.id),
    index("tool_profile_entries_profile_idx").on(t.companyId, t.profileId),
    companyFk("tool_profile_entries_profile_fk", t.companyId, t.profileId, toolProfiles, "cascade"),
    companyFk(
      "tool_profile_entries_application_fk",
      t.companyId,
      t.applicationId,
      toolApplications,
      "cascade",
    ),
    companyFk("tool_profile_entries_connection_fk", t.companyId, t.connectionId, toolConnections, "cascade"),
    companyFk(
      "tool_profile_entries_catalog_entry_fk",
      t.companyId,
      t.catalogEntryId,
      toolCatalogEntries,
      "cascade",
    ),
    oneOf("tool_profile_entries_mode_ck", t.mode, PROFILE_ENTRY_MODES),
    oneOf("tool_profile_entries_selector_type_ck", t.selectorType, PROFILE_SELECTOR_TYPES),
    check(
      "tool_profile_entries_selector_ck",
      sql`num_nonnulls(${t.applicationId}, ${t.connectionId}, ${t.catalogEntryId}, ${t.toolGlob}, ${t.risk}) = 1
        and case ${t.selectorType}
          when 'application' then ${t.applicationId} is not null
          when 'connection' then ${t.connectionId} is not null
          when 'catalog_entry' then ${t.catalogEntryId} is not null
          when 'tool_glob' then ${t.toolGlob} is not null
          when 'risk' then ${t.risk} in ('read','write','destructive')
          else false end`,
    ),
  ],
);

/** Attaches a profile to the company, a project, an agent, a routine or an issue. */
export const toolProfileBindings = pgTable(
  "tool_profile_bindings",
  {
    ...companyOwned(),
    profileId: uuid("profile_id").notNull(),
    targetType: text("target_type").$type<(typeof BINDING_TARGETS)[number]>().notNull(),
    projectId: uuid("project_id"),
    agentId: uuid("agent_id"),
    routineId: uuid("routine_id"),
    issueId: uuid("issue_id"),
    createdAt: createdAt(),
  },
  (t) => [
    companyKey("tool_profile_bindings", t.companyId, t.id),
    index("tool_profile_bindings_profile_idx").on(t.companyId, t.profileId),
    uniqueIndex("tool_profile_bindings_target_uq").on(
      t.companyId,
      t.profileId,
      t.targetType,
      sql`coalesce(${t.projectId}, ${t.agentId}, ${t.routineId}, ${t.issueId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    companyFk("tool_profile_bindings_profile_fk", t.companyId, t.profileId, toolProfiles, "cascade"),
    companyFk("tool_profile_bindings_project_fk", t.companyId, t.projectId, projects, "cascade"),
    companyFk("tool_profile_bindings_agent_fk", t.companyId, t.agentId, agents, "cascade"),
    companyFk("tool_profile_bindings_routine_fk", t.companyId, t.routineId, routines, "cascade"),
    companyFk("tool_profile_bindings_issue_fk", t.companyId, t.issueId, issues, "cascade"),
    oneOf("tool_profile_bindings_target_type_ck", t.targetType, BINDING_TARGETS),
    check(
      "tool_profile_bindings_target_ck",
      sql`case ${t.targetType}
          when 'company' then num_nonnulls(${t.projectId}, ${t.agentId}, ${t.routineId}, ${t.issueId}) = 0
          when 'project' then ${t.projectId} is not null and num_nonnulls(${t.agentId}, ${t.routineId}, ${t.issueId}) = 0
          when 'agent' then ${t.agentId} is not null and num_nonnulls(${t.projectId}, ${t.routineId}, ${t.issueId}) = 0
          when 'routine' then ${t.routineId} is not null and num_nonnulls(${t.projectId}, ${t.agentId}, ${t.issueId}) = 0
          when 'issue' then ${t.issueId} is not null and num_nonnulls(${t.projectId}, ${t.agentId}, ${t.routineId}) = 0
          else false end`,
    ),
  ],
);

/**
 * A per-call rule. Selectors and conditions are JSON validated by the access engine; ids in
 * selectors that do not resolve in the company never match (fail closed).
 */
export const toolPolicies = pgTable(
  "tool_policies",
  {
    ...companyOwned(),
    name: text("name").notNull(),
    description: text("description"),
    kind: text("kind").notNull(),
    priority: integer("priority").notNull().default(100),
    selectors: jsonb("selectors").$type<PolicySelectors>().notNull().default({}),
    conditions: jsonb("conditions").$type<PolicyConditions>().notNull().default({}),
    /** Kind-specific settings: rate-limit window and count, redaction paths, approval expiry. */
    effect: jsonb("effect").$type<PolicyEffect>().notNull().default({}),
    enabled: boolean("enabled").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    companyKey("tool_policies", t.companyId, t.id),
    index("tool_policies_company_enabled_idx").on(t.companyId, t.enabled),
    // Deliberately no CHECK on `kind`: rows with a kind this build does not know must be
    // loadable so the engine can fail closed on them rather than the load erroring out.
  ],
);

/** A bounded, revocable promotion of an executed approval into future autonomy. */
export const toolTrustRules = pgTable(
  "tool_trust_rules",
  {
    ...companyOwned(),
    catalogEntryId: uuid("catalog_entry_id").notNull(),
    toolName: text("tool_name").notNull(),
    /** Pinned: the rule stops matching when the tool's schema changes. */
    schemaHash: text("schema_hash").notNull(),
    scopeType: text("scope_type").$type<(typeof TRUST_RULE_SCOPES)[number]>().notNull(),
    projectId: uuid("project_id"),
    agentId: uuid("agent_id"),
    issueId: uuid("issue_id"),
    argumentConstraints: jsonb("argument_constraints")
      // New rules store the parsed list; the column default (and rows of early builds) is `{}`.
      .$type<ArgumentConstraint[] | Record<string, never>>()
      .notNull()
      .default({}),
    maxUses: integer("max_uses"),
    useCount: integer("use_count").notNull().default(0),
    expiresAt: ts("expires_at"),
    status: text("status")
      .$type<(typeof TRUST_RULE_STATUSES)[number]>()
      .notNull()
      .default("pending_approval"),
    sourceActionRequestId: uuid("source_action_request_id"),
    approvalId: uuid("approval_id"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    revokedByUserId: uuid("revoked_by_user_id").references(() => users.id, { onDelete: "set null" }),
    revokedAt: ts("revoked_at"),
    ...timestamps(),
  },
  (t) => [
    companyKey("tool_trust_rules", t.companyId, t.id),
    index("tool_trust_rules_entry_idx").on(t.companyId, t.catalogEntryId),
    companyFk(
      "tool_trust_rules_catalog_entry_fk",
      t.companyId,
      t.catalogEntryId,
      toolCatalogEntries,
      "cascade",
    ),
    companyFk("tool_trust_rules_project_fk", t.companyId, t.projectId, projects, "cascade"),
    companyFk("tool_trust_rules_agent_fk", t.companyId, t.agentId, agents, "cascade"),
    companyFk("tool_trust_rules_issue_fk", t.companyId, t.issueId, issues, "cascade"),
    companyFk("tool_trust_rules_approval_fk", t.companyId, t.approvalId, approvals),
    oneOf("tool_trust_rules_scope_ck", t.scopeType, TRUST_RULE_SCOPES),
    oneOf("tool_trust_rules_status_ck", t.status, TRUST_RULE_STATUSES),
    check("tool_trust_rules_uses_ck", sql`${t.maxUses} is null or ${t.maxUses} >= 1`),
  ],
);
