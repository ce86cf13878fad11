import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companyFk, oneOf, timestamps, ts } from "./_columns";
import { users } from "./auth";
import { companyOwned } from "./core";
import { oauthGrants } from "./oauth";

/** The states of a write receipt (docs/public-mcp.md, "Write receipts"). */
export const RECEIPT_STATUSES = ["pending", "succeeded", "rejected", "unknown", "resolved"] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];
export const RECEIPT_RESOLUTIONS = ["done", "not_done"] as const;
export type ReceiptResolution = (typeof RECEIPT_RESOLUTIONS)[number];

/**
 * Write receipts of public MCP mutations (server/public-mcp/receipts.ts). One row per
 * (person, company, operation, requestId), reserved by one `INSERT … ON CONFLICT DO NOTHING`
 * before the verb runs, so across replicas exactly one call executes an intended action.
 * The key has no grant: a retry under a newer grant of the same person replays the result.
 * `result` is the bounded projection the verb returned (never a credential: operations whose
 * answer holds one keep their own idempotency and never reach this table).
 */
export const mcpWriteReceipts = pgTable(
  "mcp_write_receipts",
  {
    ...companyOwned(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    operation: text("operation").notNull(),
    requestId: uuid("request_id").notNull(),
    /** SHA-256 hex of the RFC 8785 form of the arguments without `requestId`. */
    argsHash: text("args_hash").notNull(),
    /** The grant that first reserved the receipt (audit only; not part of the key). */
    grantId: uuid("grant_id").notNull(),
    /** Snapshot of the connection's client at reservation. */
    clientId: text("client_id").notNull(),
    clientName: text("client_name"),
    /** Ids among the arguments (never bodies), for the person's "Needs your decision" list. */
    argsSummary: jsonb("args_summary").$type<Record<string, string>>().notNull().default({}),
    status: text("status").$type<ReceiptStatus>().notNull().default("pending"),
    result: jsonb("result"),
    error: jsonb("error").$type<{ code: string; message: string; details?: Record<string, unknown> }>(),
    resolution: text("resolution").$type<ReceiptResolution>(),
    resolvedByUserId: uuid("resolved_by_user_id").references(() => users.id, { onDelete: "set null" }),
    resolvedAt: ts("resolved_at"),
    resolutionNote: text("resolution_note"),
    /** The executing call's lease: a random token and its expiry (database clock). */
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: ts("lease_expires_at"),
    attempts: integer("attempts").notNull().default(1),
    finishedAt: ts("finished_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("mcp_write_receipts_key_uq").on(t.userId, t.companyId, t.operation, t.requestId),
    companyFk("mcp_write_receipts_grant_fk", t.companyId, t.grantId, oauthGrants, "cascade"),
    index("mcp_write_receipts_grant_status_idx").on(t.grantId, t.status),
    index("mcp_write_receipts_pending_idx").on(t.leaseExpiresAt).where(sql`${t.status} = 'pending'`),
    oneOf("mcp_write_receipts_status_ck", t.status, RECEIPT_STATUSES),
    oneOf("mcp_write_receipts_resolution_ck", t.resolution, RECEIPT_RESOLUTIONS),
  ],
);
