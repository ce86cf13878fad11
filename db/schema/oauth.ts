import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companyFk, companyId, companyKey, createdAt, id, oneOf, ts } from "./_columns";
import { users } from "./auth";
import { companies } from "./core";

/**
 * The public MCP connection's OAuth 2.1 authorization server (server/oauth, docs/public-mcp.md).
 * Every token, code and device/user code is stored only as its SHA-256; every state change
 * (redeem, rotate, admit) is one conditional statement so two replicas never both win.
 */

/** Registered clients: RFC 7591 dynamic registration (`dcr`) or a CIMD URL (`cimd`). */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: id(),
    /** The `client_id` on the wire: `pcci_…` for DCR, the metadata document URL for CIMD. */
    clientId: text("client_id").notNull(),
    kind: text("kind").notNull(),
    /** Self-reported by the client; shown as such on consent. */
    clientName: text("client_name"),
    clientUri: text("client_uri"),
    /** CIMD only: the document's `logo_uri` when it is a small raster `data:` URL (never fetched). */
    logoUri: text("logo_uri"),
    redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
    applicationType: text("application_type").notNull(),
    grantTypes: jsonb("grant_types").$type<string[]>().notNull(),
    scope: text("scope").notNull(),
    /** SHA-256 of the registering source (never the raw address), for per-source quotas. */
    sourceHash: text("source_hash"),
    /** Set by the first consent; never-consented clients older than 1 h are collected. */
    consentedAt: ts("consented_at"),
    /** CIMD: when the cached metadata must be fetched again. */
    metadataExpiresAt: ts("metadata_expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("oauth_clients_client_id_uq").on(t.clientId),
    index("oauth_clients_unconsented_idx").on(t.createdAt).where(sql`${t.consentedAt} is null`),
    oneOf("oauth_clients_kind_ck", t.kind, ["dcr", "cimd"]),
    oneOf("oauth_clients_application_type_ck", t.applicationType, ["native", "web"]),
  ],
);

/** A pending browser authorization (the consent page's subject); expires in 10 minutes. */
export const oauthAuthorizationRequests = pgTable(
  "oauth_authorization_requests",
  {
    id: id(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    state: text("state"),
    codeChallenge: text("code_challenge").notNull(),
    resource: text("resource").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** The `company_id` pin: consent offers only this company and never falls back. */
    requestedCompanyId: uuid("requested_company_id"),
    expiresAt: ts("expires_at").notNull(),
    /** Set once, by one conditional UPDATE, when the person approves or declines. */
    decidedAt: ts("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_authorization_requests_client_idx").on(t.clientId, t.expiresAt)],
);

/** What a person allowed a client to do in one company. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: id(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    resource: text("resource").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    name: text("name").notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    revokedReason: text("revoked_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    companyKey("oauth_grants", t.companyId, t.id),
    index("oauth_grants_user_idx").on(t.userId),
    index("oauth_grants_client_idx").on(t.clientId),
  ],
);

/** Authorization codes: 1 minute, single use (`consumed_at`). */
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    id: id(),
    companyId: companyId(),
    grantId: uuid("grant_id").notNull(),
    codeHash: text("code_hash").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    expiresAt: ts("expires_at").notNull(),
    consumedAt: ts("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("oauth_codes_hash_uq").on(t.codeHash),
    companyFk("oauth_codes_grant_fk", t.companyId, t.grantId, oauthGrants, "cascade"),
  ],
);

/** Access (15 min) and refresh (30 days, rotated once: `consumed_at`) tokens; one family per grant. */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: id(),
    companyId: companyId(),
    grantId: uuid("grant_id").notNull(),
    kind: text("kind").notNull(),
    tokenHash: text("token_hash").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    expiresAt: ts("expires_at").notNull(),
    consumedAt: ts("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("oauth_tokens_hash_uq").on(t.tokenHash),
    index("oauth_tokens_grant_idx").on(t.grantId),
    companyFk("oauth_tokens_grant_fk", t.companyId, t.grantId, oauthGrants, "cascade"),
    oneOf("oauth_tokens_kind_ck", t.kind, ["access", "refresh"]),
  ],
);

/** RFC 8628 device authorizations: device and user codes hashed separately, 10 minutes. */
export const oauthDeviceAuthorizations = pgTable(
  "oauth_device_authorizations",
  {
    id: id(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    deviceCodeHash: text("device_code_hash").notNull(),
    userCodeHash: text("user_code_hash").notNull(),
    resource: text("resource").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    requestedCompanyId: uuid("requested_company_id"),
    status: text("status").notNull().default("pending"),
    intervalSeconds: integer("interval_seconds").notNull().default(5),
    lastPolledAt: ts("last_polled_at"),
    /** Set on approval: the grant the redemption issues tokens for. */
    grantId: uuid("grant_id").references(() => oauthGrants.id, { onDelete: "cascade" }),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("oauth_device_authorizations_device_uq").on(t.deviceCodeHash),
    uniqueIndex("oauth_device_authorizations_user_uq").on(t.userCodeHash),
    index("oauth_device_authorizations_client_idx").on(t.clientId, t.expiresAt),
    oneOf("oauth_device_authorizations_status_ck", t.status, ["pending", "approved", "denied", "redeemed"]),
  ],
);

/**
 * Quota receipts (registration, device authorization, CIMD fetch admission): a kind, the
 * SHA-256 of the source, an expiry. Counted under a per-kind advisory lock, so every replica
 * sees the same window. Raw addresses are never stored.
 */
export const oauthAdmissions = pgTable(
  "oauth_admissions",
  {
    id: id(),
    kind: text("kind").notNull(),
    sourceHash: text("source_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    index("oauth_admissions_kind_idx").on(t.kind, t.expiresAt),
    index("oauth_admissions_source_idx").on(t.kind, t.sourceHash, t.expiresAt),
  ],
);
