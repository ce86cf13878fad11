import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { companyFk, companyKey, companyNamedKeys, createdAt, oneOf, timestamps, ts } from "./_columns";
import { users } from "./auth";
import { agents, companyOwned, heartbeatRuns } from "./core";
import { toolConnections } from "./tools";
import { ACTOR_TYPES, SECRET_ACCESS_OUTCOMES, SECRET_PLACEMENTS, SECRET_STATUSES } from "./values";

/**
 * A company secret: metadata only. Values live encrypted in `company_secret_versions`
 * (local provider, AES-256-GCM) or in an external provider referenced by `provider_ref`.
 */
export const companySecrets = pgTable(
  "company_secrets",
  {
    ...companyOwned(),
    name: text("name").notNull(),
    description: text("description"),
    provider: text("provider").notNull().default("local"),
    providerRef: text("provider_ref"),
    status: text("status").$type<(typeof SECRET_STATUSES)[number]>().notNull().default("active"),
    currentVersion: integer("current_version"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    ...companyNamedKeys("company_secrets", t),
    oneOf("company_secrets_status_ck", t.status, SECRET_STATUSES),
  ],
);

/** One encrypted value of a secret. Ciphertext, IV and tag are base64; `key_id` names the master key. */
export const companySecretVersions = pgTable(
  "company_secret_versions",
  {
    ...companyOwned(),
    secretId: uuid("secret_id").notNull(),
    version: integer("version").notNull(),
    ciphertext: text("ciphertext").notNull(),
    iv: text("iv").notNull(),
    authTag: text("auth_tag").notNull(),
    keyId: text("key_id").notNull(),
    status: text("status").$type<(typeof SECRET_STATUSES)[number]>().notNull().default("active"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    companyKey("company_secret_versions", t.companyId, t.id),
    unique("company_secret_versions_secret_version_uq").on(t.companyId, t.secretId, t.version),
    companyFk("company_secret_versions_secret_fk", t.companyId, t.secretId, companySecrets, "cascade"),
    oneOf("company_secret_versions_status_ck", t.status, SECRET_STATUSES),
    check("company_secret_versions_version_ck", sql`${t.version} >= 1`),
  ],
);

/**
 * A binding grants a connection use of a secret and says where the value is placed at
 * execution time (an HTTP header with optional prefix, or an env var of a stdio slot).
 * `allowed_agent_ids` NULL means every agent that may use the connection.
 */
export const companySecretBindings = pgTable(
  "company_secret_bindings",
  {
    ...companyOwned(),
    secretId: uuid("secret_id").notNull(),
    connectionId: uuid("connection_id").notNull(),
    placement: text("placement").$type<(typeof SECRET_PLACEMENTS)[number]>().notNull(),
    /** Header name (http_header) or environment variable name (env_var). */
    target: text("target").notNull(),
    /** e.g. `Bearer ` for an Authorization header. */
    valuePrefix: text("value_prefix").notNull().default(""),
    /** Pin a version; NULL follows the secret's current version. */
    version: integer("version"),
    allowedAgentIds: uuid("allowed_agent_ids").array(),
    createdAt: createdAt(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    companyKey("company_secret_bindings", t.companyId, t.id),
    unique("company_secret_bindings_target_uq").on(t.companyId, t.connectionId, t.placement, t.target),
    companyFk("company_secret_bindings_secret_fk", t.companyId, t.secretId, companySecrets, "cascade"),
    companyFk(
      "company_secret_bindings_connection_fk",
      t.companyId,
      t.connectionId,
      toolConnections,
      "cascade",
    ),
    oneOf("company_secret_bindings_placement_ck", t.placement, SECRET_PLACEMENTS),
  ],
);

/** Who resolved which secret version for what. Never the value. */
export const companySecretAccessEvents = pgTable(
  "company_secret_access_events",
  {
    ...companyOwned(),
    secretId: uuid("secret_id").notNull(),
    version: integer("version"),
    connectionId: uuid("connection_id"),
    agentId: uuid("agent_id"),
    runId: uuid("run_id"),
    invocationId: uuid("invocation_id"),
    actorType: text("actor_type").$type<(typeof ACTOR_TYPES)[number]>().notNull(),
    actorId: text("actor_id").notNull(),
    purpose: text("purpose").notNull(),
    outcome: text("outcome").$type<(typeof SECRET_ACCESS_OUTCOMES)[number]>().notNull(),
    reasonCode: text("reason_code"),
    createdAt: createdAt(),
  },
  (t) => [
    index("company_secret_access_events_secret_idx").on(t.companyId, t.secretId, t.createdAt),
    companyFk("company_secret_access_events_secret_fk", t.companyId, t.secretId, companySecrets, "cascade"),
    companyFk("company_secret_access_events_connection_fk", t.companyId, t.connectionId, toolConnections),
    companyFk("company_secret_access_events_agent_fk", t.companyId, t.agentId, agents),
    companyFk("company_secret_access_events_run_fk", t.companyId, t.runId, heartbeatRuns),
    oneOf("company_secret_access_events_actor_type_ck", t.actorType, ACTOR_TYPES),
    oneOf("company_secret_access_events_outcome_ck", t.outcome, SECRET_ACCESS_OUTCOMES),
  ],
);
