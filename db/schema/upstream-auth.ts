import { index, integer, jsonb, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { companyFk, companyKey, createdAt, oneOf, timestamps, ts } from "./_columns";
import { users } from "./auth";
import { companyOwned } from "./core";
import { toolConnections } from "./tools";
import { UPSTREAM_CLIENT_REGISTRATIONS, UPSTREAM_GRANT_STATUSES } from "./values";

/** server/secrets/local-provider.ts `EncryptedSecret` (db/ does not import server/). */
type EncryptedSecret = { ciphertext: string; iv: string; authTag: string; keyId: string };

// The gateway as an OAuth 2.1 client of upstream MCP servers (issue 36, docs/upstream-oauth.md).
// Every token, client secret and PKCE verifier is stored only encrypted with the master key,
// bound to its company and row (server/secrets/encrypted-columns.ts rotates and checks them).

/** How the gateway is known to a connection's authorization server (one per connection). */
export const toolUpstreamClients = pgTable(
  "tool_upstream_clients",
  {
    ...companyOwned(),
    connectionId: uuid("connection_id").notNull(),
    /** The authorization server the client belongs to (the URL discovery used). */
    issuer: text("issuer").notNull(),
    registration: text("registration").$type<(typeof UPSTREAM_CLIENT_REGISTRATIONS)[number]>().notNull(),
    /** Not secret; shown to admins. */
    clientId: text("client_id").notNull(),
    /** The full client information (`client_secret`, a private JWK) encrypted. */
    clientEncrypted: jsonb("client_encrypted").$type<EncryptedSecret>().notNull(),
    /** Protected-resource and authorization-server metadata as discovered (public documents). */
    discovery: jsonb("discovery").$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [
    companyKey("tool_upstream_clients", t.companyId, t.id),
    unique("tool_upstream_clients_connection_uq").on(t.companyId, t.connectionId),
    companyFk("tool_upstream_clients_connection_fk", t.companyId, t.connectionId, toolConnections, "cascade"),
    oneOf("tool_upstream_clients_registration_ck", t.registration, UPSTREAM_CLIENT_REGISTRATIONS),
  ],
);

/**
 * A grant: the company's (`subject_key` `company`, user_id null) or one person's
 * (`user:<id>`). The refresh takes this row's lock, so replicas never spend a rotating refresh
 * token twice.
 */
export const toolUpstreamGrants = pgTable(
  "tool_upstream_grants",
  {
    ...companyOwned(),
    connectionId: uuid("connection_id").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    subjectKey: text("subject_key").notNull(),
    status: text("status").$type<(typeof UPSTREAM_GRANT_STATUSES)[number]>().notNull().default("connected"),
    /** `{access_token, refresh_token?, token_type, scope?}` encrypted. */
    tokensEncrypted: jsonb("tokens_encrypted").$type<EncryptedSecret>().notNull(),
    accessExpiresAt: ts("access_expires_at"),
    scope: text("scope"),
    issuer: text("issuer").notNull(),
    connectedAs: text("connected_as"),
    connectedByUserId: uuid("connected_by_user_id").references(() => users.id, { onDelete: "set null" }),
    refreshedAt: ts("refreshed_at"),
    refreshCount: integer("refresh_count").notNull().default(0),
    lastError: text("last_error"),
    /** Step-up (a 403 `insufficient_scope`): the scope the server asked for, for the Reconnect. */
    stepUpScope: text("step_up_scope"),
    /** Step-ups asked of people so far; past the limit the Reconnect stops widening the scope. */
    stepUpCount: integer("step_up_count").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    companyKey("tool_upstream_grants", t.companyId, t.id),
    unique("tool_upstream_grants_subject_uq").on(t.companyId, t.connectionId, t.subjectKey),
    companyFk("tool_upstream_grants_connection_fk", t.companyId, t.connectionId, toolConnections, "cascade"),
    oneOf("tool_upstream_grants_status_ck", t.status, UPSTREAM_GRANT_STATUSES),
    index("tool_upstream_grants_user_idx").on(t.userId),
  ],
);

/**
 * An authorization in progress: `state` (stored as its SHA-256) bound to the person who started
 * it, the connection and the PKCE verifier; single use (deleted when the callback claims it),
 * ten minutes.
 */
export const toolUpstreamAuthStates = pgTable(
  "tool_upstream_auth_states",
  {
    ...companyOwned(),
    stateHash: text("state_hash").notNull().unique("tool_upstream_auth_states_hash_uq"),
    connectionId: uuid("connection_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subjectKey: text("subject_key").notNull(),
    /** `{codeVerifier}` encrypted. */
    verifierEncrypted: jsonb("verifier_encrypted").$type<EncryptedSecret>().notNull(),
    scope: text("scope"),
    /** A console path to return to (same origin only). */
    returnTo: text("return_to"),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    companyFk(
      "tool_upstream_auth_states_connection_fk",
      t.companyId,
      t.connectionId,
      toolConnections,
      "cascade",
    ),
    index("tool_upstream_auth_states_expires_idx").on(t.expiresAt),
  ],
);
