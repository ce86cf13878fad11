import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { companyFk, createdAt, oneOf, ts } from "./_columns";
import { companyOwned } from "./core";
import { toolConnections } from "./tools";

/**
 * One installed HTTP example's credential, by its SHA-256 only (the value lives in a company
 * secret bound as a header to the example's connection). The in-app fixture endpoint accepts
 * a request only when the hash of its bearer credential is here, for that fixture, on a
 * connection that is not archived; the hash also keys the example's state, so no two
 * companies (or installs) share any.
 */
export const exampleCredentials = pgTable(
  "example_credentials",
  {
    ...companyOwned(),
    connectionId: uuid("connection_id").notNull(),
    fixture: text("fixture").$type<"echo" | "todo" | "outbox" | "social" | "hostile">().notNull(),
    /** hex SHA-256 of the credential; the credential itself is never stored outside the secret. */
    credentialHash: text("credential_hash").notNull().unique("example_credentials_hash_uq"),
    createdAt: createdAt(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    companyFk("example_credentials_connection_fk", t.companyId, t.connectionId, toolConnections, "cascade"),
    index("example_credentials_connection_idx").on(t.companyId, t.connectionId),
    oneOf("example_credentials_fixture_ck", t.fixture, ["echo", "todo", "outbox", "social", "hostile"]),
  ],
);

/**
 * The last result of each of the ADR's smoke checks (`runAllSmokeChecks`,
 * server/examples/smoke-all.ts), one row per check, replaced by every run. Instance-level:
 * the checks run in the hidden smoke companies.
 */
export const smokeCheckResults = pgTable("smoke_check_results", {
  check: text("check").primaryKey(),
  passed: boolean("passed").notNull(),
  evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull(),
  durationMs: integer("duration_ms").notNull(),
  error: text("error"),
  ranAt: ts("ran_at").notNull(),
});

/**
 * At most one smoke run at a time on the instance (the checks share the smoke companies' run
 * and fixture state): one row, taken with a conditional upsert and released at the end; a
 * crashed holder's lease expires.
 */
export const smokeRunLease = pgTable(
  "smoke_run_lease",
  {
    id: integer("id").primaryKey(),
    holder: text("holder").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [check("smoke_run_lease_one_row_ck", sql`${t.id} = 1`)],
);
