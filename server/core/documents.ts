/**
 * Issue documents with revisions (docs/public-mcp.md, "Tasks and documents"). A document's
 * current body and revision number live on `issue_documents`; every revision has a row in
 * `issue_document_revisions` whose id is the "revision id" an edit must name. An edit is one
 * conditional `UPDATE … WHERE revision = <base> RETURNING`: of two writers on the same base,
 * exactly one wins and the other gets `409 revision_conflict` with the current revision.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import { agents, issueDocumentRevisions, issueDocuments, users } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { DocumentHistoryResponse, IssueDocumentView } from "@/server/contracts/api/work";
import { logActivity } from "../activity/log-activity";
import { actorVia, type ServiceContext } from "../context";
import { conflict, notFound, ServiceError } from "../errors";
import { authorOf, loadIssueForWrite } from "./issue-updates";
import { loadIssueFor } from "./issues";

/** A document body is at most 200 KB of UTF-8 (docs/public-mcp.md). */
export const MAX_DOCUMENT_BYTES = 200 * 1024;

/** Document keys: lowercase words, e.g. `plan`, `design-notes`, `report.v2`. */
export const DocumentKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "a key is 1–64 lowercase letters, digits, `.`, `_` or `-`");

export const WriteDocumentInput = z.strictObject({
  /** Markdown; at most `MAX_DOCUMENT_BYTES` of UTF-8 (checked by the verb: `413 document_too_large`). */
  body: z.string(),
  /** The revision id the edit is based on (from a read); null creates the document. */
  baseRevisionId: z.uuid().nullable(),
  title: z.string().trim().min(1).max(200).optional(),
});
export type WriteDocumentInput = z.infer<typeof WriteDocumentInput>;

export const DocumentHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type DocumentHistoryQuery = z.infer<typeof DocumentHistoryQuery>;

type DocumentRow = typeof issueDocuments.$inferSelect;

async function findDocument(db: Tx, companyId: string, issueId: string, key: string) {
  const [doc] = await db
    .select()
    .from(issueDocuments)
    .where(
      inCompany(issueDocuments, companyId, eq(issueDocuments.issueId, issueId), eq(issueDocuments.key, key)),
    );
  return doc ?? null;
}

/**
 * The id of the current revision's row. A revision written without one (the agents'
 * `update_plan_draft` self tool writes the body only) gets it now, from the current body:
 * race-safe through the (document, revision) unique key.
 */
async function currentRevisionId(db: Tx, doc: DocumentRow): Promise<string> {
  const find = async () =>
    (
      await db
        .select({ id: issueDocumentRevisions.id })
        .from(issueDocumentRevisions)
        .where(
          inCompany(
            issueDocumentRevisions,
            doc.companyId,
            eq(issueDocumentRevisions.documentId, doc.id),
            eq(issueDocumentRevisions.revision, doc.revision),
          ),
        )
    )[0]?.id;
  const found = await find();
  if (found) return found;
  await db
    .insert(issueDocumentRevisions)
    .values({
      companyId: doc.companyId,
      documentId: doc.id,
      revision: doc.revision,
      title: doc.title,
      body: doc.body,
      authorUserId: doc.updatedByUserId,
      authorAgentId: doc.updatedByAgentId,
    })
    .onConflictDoNothing();
  return (await find())!;
}

const bytesOf = (s: string) => Buffer.byteLength(s, "utf8");

function projectDocument(doc: DocumentRow, revisionId: string) {
  return {
    id: doc.id,
    issueId: doc.issueId,
    key: doc.key,
    title: doc.title,
    body: doc.body,
    bytes: bytesOf(doc.body),
    revision: doc.revision,
    revisionId,
    updatedAt: doc.updatedAt,
  };
}

/** The `revision_conflict` refusal, naming the document's current revision (read fresh). */
async function revisionConflict(ctx: ServiceContext, companyId: string, issueId: string, key: string) {
  const doc = await findDocument(ctx.db, companyId, issueId, key);
  const current = doc ? { revisionId: await currentRevisionId(ctx.db, doc), revision: doc.revision } : null;
  return conflict(
    "revision_conflict",
    doc
      ? `document \`${key}\` is at revision ${doc.revision}; read it and edit from its current revision id`
      : `document \`${key}\` does not exist; create it with a null baseRevisionId`,
    { key, current },
  );
}

/** A document body and its current revision (id and number); 404 when the issue has none under `key`. */
export async function getDocument(ctx: ServiceContext, issueId: string, key: string) {
  const issue = await loadIssueFor(ctx, issueId);
  const doc = await findDocument(ctx.db, issue.companyId, issue.id, key);
  if (!doc) throw notFound("document");
  return projectDocument(doc, await currentRevisionId(ctx.db, doc)) satisfies Served<
    typeof IssueDocumentView
  >;
}

/** The issue's documents without bodies (key, title, revision, size), by key. */
export async function listDocuments(ctx: ServiceContext, issueId: string) {
  const issue = await loadIssueFor(ctx, issueId);
  const rows = await ctx.db
    .select({
      id: issueDocuments.id,
      key: issueDocuments.key,
      title: issueDocuments.title,
      revision: issueDocuments.revision,
      bytes: sql<number>`octet_length(${issueDocuments.body})::int`,
      updatedAt: issueDocuments.updatedAt,
    })
    .from(issueDocuments)
    .where(inCompany(issueDocuments, issue.companyId, eq(issueDocuments.issueId, issue.id)))
    .orderBy(issueDocuments.key)
    .limit(100);
  return rows;
}

/**
 * Creates (`baseRevisionId: null`) or edits a document of the issue. An edit must name the
 * current revision id; a stale or foreign one is `409 revision_conflict` with the current
 * revision in `details.current`. Each write adds a revision row and an activity row.
 */
export async function writeDocument(
  ctx: ServiceContext,
  issueId: string,
  key: string,
  input: WriteDocumentInput,
) {
  const issue = await loadIssueForWrite(ctx, issueId);
  const { companyId } = issue;
  if (bytesOf(input.body) > MAX_DOCUMENT_BYTES)
    throw new ServiceError("document_too_large", `the document body exceeds ${MAX_DOCUMENT_BYTES} bytes`, {
      limit: MAX_DOCUMENT_BYTES,
    });
  const author = authorOf(ctx.actor);
  const via = actorVia(ctx.actor);
  const written = await ctx.db
    .transaction(async (tx) => {
      let doc: DocumentRow | undefined;
      if (input.baseRevisionId === null) {
        [doc] = await tx
          .insert(issueDocuments)
          .values({
            companyId,
            issueId: issue.id,
            key,
            title: input.title ?? null,
            body: input.body,
            revision: 1,
            updatedByUserId: author.userId,
            updatedByAgentId: author.agentId,
          })
          .onConflictDoNothing()
          .returning();
      } else {
        const [base] = await tx
          .select({
            documentId: issueDocumentRevisions.documentId,
            revision: issueDocumentRevisions.revision,
          })
          .from(issueDocumentRevisions)
          .innerJoin(issueDocuments, eq(issueDocuments.id, issueDocumentRevisions.documentId))
          .where(
            and(
              inCompany(
                issueDocumentRevisions,
                companyId,
                eq(issueDocumentRevisions.id, input.baseRevisionId),
              ),
              eq(issueDocuments.issueId, issue.id),
              eq(issueDocuments.key, key),
            ),
          );
        if (base)
          // INVARIANT: the WHERE on the base revision is what makes concurrent edits safe; the
          // second writer's UPDATE re-checks it after the first commits and matches no row.
          [doc] = await tx
            .update(issueDocuments)
            .set({
              body: input.body,
              ...(input.title !== undefined ? { title: input.title } : {}),
              revision: sql`${issueDocuments.revision} + 1`,
              updatedByUserId: author.userId,
              updatedByAgentId: author.agentId,
              updatedAt: ctx.now(),
            })
            .where(
              inCompany(
                issueDocuments,
                companyId,
                eq(issueDocuments.id, base.documentId),
                eq(issueDocuments.revision, base.revision),
              ),
            )
            .returning();
      }
      if (!doc) return null;
      const [rev] = await tx
        .insert(issueDocumentRevisions)
        .values({
          companyId,
          documentId: doc.id,
          revision: doc.revision,
          title: doc.title,
          body: doc.body,
          authorUserId: author.userId,
          authorAgentId: author.agentId,
          via,
        })
        .returning({ id: issueDocumentRevisions.id });
      await logActivity(tx, ctx, {
        companyId,
        action: "issue.document_write",
        entityType: "issue",
        entityId: issue.id,
        // `document` names the key: the activity log redacts values under fields ending in "key".
        details: { document: key, documentId: doc.id, revision: doc.revision, bytes: bytesOf(doc.body) },
      });
      return projectDocument(doc, rev!.id);
    })
    .catch((err) => {
      // A concurrent creator that lost the unique key race (rare: ON CONFLICT covers most).
      if ((err as { code?: string; cause?: { code?: string } }).cause?.code === "23505") return null;
      throw err;
    });
  if (!written) throw await revisionConflict(ctx, companyId, issue.id, key);
  const { body: _body, ...summary } = written;
  return summary;
}

/** A document's revisions, newest first and bounded: number, id, author, client, size, an excerpt. */
export async function documentHistory(
  ctx: ServiceContext,
  issueId: string,
  key: string,
  query: DocumentHistoryQuery = { limit: 20 },
) {
  const issue = await loadIssueFor(ctx, issueId);
  const doc = await findDocument(ctx.db, issue.companyId, issue.id, key);
  if (!doc) throw notFound("document");
  const currentId = await currentRevisionId(ctx.db, doc);
  const rows = await ctx.db
    .select({
      id: issueDocumentRevisions.id,
      revision: issueDocumentRevisions.revision,
      title: issueDocumentRevisions.title,
      authorUserId: issueDocumentRevisions.authorUserId,
      authorAgentId: issueDocumentRevisions.authorAgentId,
      authorName: sql<string | null>`coalesce(${agents.name}, ${users.name}, ${users.email})`,
      via: issueDocumentRevisions.via,
      bytes: sql<number>`octet_length(${issueDocumentRevisions.body})::int`,
      excerpt: sql<string>`left(${issueDocumentRevisions.body}, 200)`,
      createdAt: issueDocumentRevisions.createdAt,
    })
    .from(issueDocumentRevisions)
    .leftJoin(users, eq(users.id, issueDocumentRevisions.authorUserId))
    .leftJoin(
      agents,
      and(
        eq(agents.companyId, issueDocumentRevisions.companyId),
        eq(agents.id, issueDocumentRevisions.authorAgentId),
      ),
    )
    .where(inCompany(issueDocumentRevisions, issue.companyId, eq(issueDocumentRevisions.documentId, doc.id)))
    .orderBy(desc(issueDocumentRevisions.revision))
    .limit(query.limit);
  return {
    key,
    documentId: doc.id,
    current: { revision: doc.revision, revisionId: currentId },
    revisions: rows.map(({ via, ...r }) => ({ ...r, viaClient: via?.clientName ?? null })),
  } satisfies Served<typeof DocumentHistoryResponse>;
}
