import { sql } from "drizzle-orm";
import { bigint, customType, index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companyFk, companyId, companyKey, createdAt, oneOf, ts } from "./_columns";
import { users } from "./auth";
import { agents, companies, companyOwned, issues } from "./core";
import { oauthGrants } from "./oauth";

/**
 * Issue attachments and the public MCP's file transfers (server/core/attachments.ts,
 * server/public-mcp/transfer.ts, docs/public-mcp.md "Attachments", "File transfer").
 */

export const ATTACHMENT_STORAGES = ["database", "filesystem"] as const;
export const FILE_TRANSFER_KINDS = ["upload", "download"] as const;

/** PostgreSQL `bytea` as a Node Buffer (drizzle has no built-in bytea column). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

/** The assistant connection a row was made through (null when made in the console or by an agent). */
export type AttachmentVia = { grantId: string; clientId: string; clientName: string | null };

export const issueAttachments = pgTable(
  "issue_attachments",
  {
    ...companyOwned(),
    issueId: uuid("issue_id").notNull(),
    /** As uploaded, sanitised (no path separators or control characters), at most 255 characters. */
    filename: text("filename").notNull(),
    /** The declared media type, checked against the allowed list when stored; served verbatim. */
    contentType: text("content_type").notNull(),
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    /** Lowercase hex SHA-256 of the bytes, computed by the server while storing. */
    sha256: text("sha256").notNull(),
    storage: text("storage").$type<(typeof ATTACHMENT_STORAGES)[number]>().notNull(),
    /** Where the storage provider keeps the bytes: the attachment id (database) or a relative path. */
    storageKey: text("storage_key").notNull(),
    uploadedByUserId: uuid("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    uploadedByAgentId: uuid("uploaded_by_agent_id"),
    via: jsonb("via").$type<AttachmentVia | null>(),
    createdAt: createdAt(),
  },
  (t) => [
    companyKey("issue_attachments", t.companyId, t.id),
    index("issue_attachments_issue_idx").on(t.companyId, t.issueId, t.createdAt),
    companyFk("issue_attachments_issue_fk", t.companyId, t.issueId, issues, "cascade"),
    companyFk("issue_attachments_agent_fk", t.companyId, t.uploadedByAgentId, agents),
    oneOf("issue_attachments_storage_ck", t.storage, ATTACHMENT_STORAGES),
  ],
);

/**
 * The database storage provider's bytes, one row per attachment, deleted with it. Kept apart
 * from `issue_attachments` so listing attachments never reads their bytes; in the database so
 * every replica serves every file.
 */
export const attachmentBlobs = pgTable(
  "attachment_blobs",
  {
    attachmentId: uuid("attachment_id").primaryKey(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    bytes: bytea("bytes").notNull(),
  },
  (t) => [
    companyFk("attachment_blobs_attachment_fk", t.companyId, t.attachmentId, issueAttachments, "cascade"),
  ],
);

/**
 * Pending (and completed) upload and download URLs of assistant connections. Only the SHA-256
 * of the URL token is stored; a token lives 10 minutes. An upload is identified by (person,
 * company, requestId): asking again with the same identity re-mints the token of the same row.
 */
export const mcpFileTransfers = pgTable(
  "mcp_file_transfers",
  {
    ...companyOwned(),
    grantId: uuid("grant_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<(typeof FILE_TRANSFER_KINDS)[number]>().notNull(),
    /** Uploads only: the assistant's request UUID, the transfer's identity with person and company. */
    requestId: uuid("request_id"),
    issueId: uuid("issue_id").notNull(),
    /** Download: the attachment served; upload: the attachment saved (set on completion). */
    attachmentId: uuid("attachment_id"),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    completedAt: ts("completed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mcp_file_transfers_token_uq").on(t.tokenHash),
    uniqueIndex("mcp_file_transfers_upload_uq")
      .on(t.userId, t.companyId, t.requestId)
      .where(sql`${t.kind} = 'upload'`),
    index("mcp_file_transfers_pending_idx").on(t.expiresAt).where(sql`${t.completedAt} is null`),
    companyFk("mcp_file_transfers_grant_fk", t.companyId, t.grantId, oauthGrants, "cascade"),
    companyFk("mcp_file_transfers_issue_fk", t.companyId, t.issueId, issues, "cascade"),
    companyFk("mcp_file_transfers_attachment_fk", t.companyId, t.attachmentId, issueAttachments, "cascade"),
    oneOf("mcp_file_transfers_kind_ck", t.kind, FILE_TRANSFER_KINDS),
  ],
);
