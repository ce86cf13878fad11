// Work on issues: document revisions and deliverables (issue work products). The issue's own
// status columns (`blocked_reason`, `completed_at`) and the document's current body stay in
// ./core.ts; this file holds what the work verbs (server/core/documents.ts,
// server/core/work-products.ts) add beside them.
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { companyFk, companyKey, createdAt, oneOf, timestamps } from "./_columns";
import { users } from "./auth";
import { agents, companyOwned, issueDocuments, issues } from "./core";
import { WORK_PRODUCT_KINDS, type WorkProductKind } from "./values";

/** The assistant connection a write came through (server/context's `AssistantVia`). */
type Via = { grantId: string; clientId: string; clientName: string | null };

/**
 * One row per revision of an issue document: the body as written, who wrote it and through
 * which assistant connection. The row's `id` is the document's "revision id" — an edit names
 * the revision it was based on, and a stale one is refused (`409 revision_conflict`).
 */
export const issueDocumentRevisions = pgTable(
  "issue_document_revisions",
  {
    ...companyOwned(),
    documentId: uuid("document_id").notNull(),
    revision: integer("revision").notNull(),
    title: text("title"),
    body: text("body").notNull(),
    authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
    authorAgentId: uuid("author_agent_id"),
    /** The assistant connection the author wrote through (`{grantId, clientId, clientName}`). */
    via: jsonb("via").$type<Via>(),
    createdAt: createdAt(),
  },
  (t) => [
    companyKey("issue_document_revisions", t.companyId, t.id),
    unique("issue_document_revisions_document_revision_uq").on(t.companyId, t.documentId, t.revision),
    companyFk("issue_document_revisions_document_fk", t.companyId, t.documentId, issueDocuments, "cascade"),
    companyFk("issue_document_revisions_agent_fk", t.companyId, t.authorAgentId, agents),
    check("issue_document_revisions_revision_ck", sql`${t.revision} >= 1`),
  ],
);

/**
 * Deliverables of an issue: a document (by key), an attachment (by id) or an https link. A link
 * is stored as given and never fetched. `revision` is bumped on every update.
 */
export const issueWorkProducts = pgTable(
  "issue_work_products",
  {
    ...companyOwned(),
    issueId: uuid("issue_id").notNull(),
    kind: text("kind").$type<WorkProductKind>().notNull(),
    title: text("title").notNull(),
    /** A document key, an attachment id or an https URL (per `kind`). */
    reference: text("reference").notNull(),
    revision: integer("revision").notNull().default(1),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdByAgentId: uuid("created_by_agent_id"),
    updatedByUserId: uuid("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
    updatedByAgentId: uuid("updated_by_agent_id"),
    /** The assistant connection of the latest write, when there was one. */
    via: jsonb("via").$type<Via>(),
    ...timestamps(),
  },
  (t) => [
    companyKey("issue_work_products", t.companyId, t.id),
    index("issue_work_products_issue_idx").on(t.companyId, t.issueId, t.createdAt),
    companyFk("issue_work_products_issue_fk", t.companyId, t.issueId, issues, "cascade"),
    companyFk("issue_work_products_created_by_agent_fk", t.companyId, t.createdByAgentId, agents),
    companyFk("issue_work_products_updated_by_agent_fk", t.companyId, t.updatedByAgentId, agents),
    oneOf("issue_work_products_kind_ck", t.kind, WORK_PRODUCT_KINDS),
    check("issue_work_products_revision_ck", sql`${t.revision} >= 1`),
  ],
);
