/**
 * Issue attachments (docs/public-mcp.md, "Attachments"): files on a task, uploaded in the
 * console, over the REST API or through an assistant's upload URL (server/public-mcp/transfer.ts),
 * each kept by one storage provider (./attachment-storage.ts) with its size and SHA-256.
 *
 * The company boundary: an attachment is reached only through its company (404 for anyone
 * outside it, whether or not it exists); writing needs `work:write`, reading `company:read`.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { agents, issueAttachments, issues, users } from "@/db/schema";
import type { IssueAttachment } from "@/server/contracts/api/attachments";
import type { Served } from "@/server/contracts/api/common";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { Capability } from "../auth/capabilities";
import { actorUserId, actorVia, type ServiceContext } from "../context";
import { forbidden, notFound, ServiceError } from "../errors";
import {
  allowedType,
  attachmentLimits,
  attachmentResponse,
  bodyOf,
  checkSize,
  cleanFilename,
  loadBytes,
  type ReadBody,
  readLimitedBody,
  removeBytes,
  storageKeyFor,
  storeBytes,
} from "./attachment-storage";

export interface CreateAttachmentInput {
  filename: string;
  contentType: string;
  /** The bytes, or a streamed body (`readLimitedBody`: chunks hashed as they arrived). */
  bytes: Buffer | ReadBody;
  /** When given, the bytes must hash to it (lowercase hex), else `attachment_hash_mismatch`. */
  sha256?: string;
}

/** The attachment as every surface shows it (never its bytes or storage key). */
const attachmentSelect = {
  id: issueAttachments.id,
  companyId: issueAttachments.companyId,
  issueId: issueAttachments.issueId,
  filename: issueAttachments.filename,
  contentType: issueAttachments.contentType,
  byteSize: issueAttachments.byteSize,
  sha256: issueAttachments.sha256,
  storage: issueAttachments.storage,
  uploadedByUserId: issueAttachments.uploadedByUserId,
  uploadedByAgentId: issueAttachments.uploadedByAgentId,
  uploadedByName: sql<string | null>`coalesce(${agents.name}, ${users.name}, ${users.email})`,
  via: issueAttachments.via,
  createdAt: issueAttachments.createdAt,
};
export type Attachment = Awaited<ReturnType<typeof attachmentQuery>>[number];

function attachmentQuery(db: ServiceContext["db"] | Tx) {
  return db
    .select(attachmentSelect)
    .from(issueAttachments)
    .leftJoin(users, eq(users.id, issueAttachments.uploadedByUserId))
    .leftJoin(agents, companyRow(agents, issueAttachments.companyId, issueAttachments.uploadedByAgentId));
}

/**
 * The issue for a caller who needs `capability` in its company: board members by their role,
 * agents (key or run) of that company for their own company's work. 404 for anyone else.
 */
export async function issueForAttachments(
  ctx: ServiceContext,
  issueId: string,
  capability: Capability,
  /** Only this company's issue (an assistant connection is bound to one company). */
  companyId?: string,
) {
  const [issue] = await ctx.db
    .select({ id: issues.id, companyId: issues.companyId })
    .from(issues)
    .where(eq(issues.id, issueId));
  if (!issue || (companyId !== undefined && issue.companyId !== companyId)) throw notFound("issue");
  await requireAttachmentAccess(ctx, issue.companyId, capability, "issue");
  return issue;
}

/**
 * The caller may use `capability` on attachments of `companyId`: an agent key of that company
 * (its own company's work, as for comments), else the actor's role (`requireCompany`: 404 for
 * outsiders, naming `hiddenAs`). The system actor uploads nothing (a file has an uploader).
 */
async function requireAttachmentAccess(
  ctx: ServiceContext,
  companyId: string,
  capability: Capability,
  hiddenAs: string,
): Promise<void> {
  const { actor } = ctx;
  if (actor.type === "system") throw forbidden();
  if (actor.type !== "agent_key") await requireCompany(ctx, companyId, capability, hiddenAs);
  else if (actor.companyId !== companyId) throw notFound(hiddenAs);
}

/** Who uploads: a person (user or board key's creator) or an agent; the connection when via one. */
function uploader(ctx: ServiceContext) {
  const { actor } = ctx;
  if (actor.type === "agent_key" || actor.type === "agent")
    return { uploadedByUserId: null, uploadedByAgentId: actor.agentId, via: null };
  return { uploadedByUserId: actorUserId(actor), uploadedByAgentId: null, via: actorVia(actor) };
}

/**
 * Stores a file on an issue (`work:write`): checks the type and size limits, computes the
 * SHA-256, writes the bytes with the configured provider and the `issue.attachment_add`
 * activity row in one transaction. `inTransaction` runs in that transaction too (the upload
 * URL marks its transfer complete there, so a saved file and a completed transfer go together).
 */
export async function createAttachment(
  ctx: ServiceContext,
  issueId: string,
  input: CreateAttachmentInput,
  opts: { inTransaction?: (tx: Tx, attachment: Attachment) => Promise<void> } = {},
): Promise<Attachment> {
  const issue = await issueForAttachments(ctx, issueId, "work:write");
  const limits = attachmentLimits();
  const contentType = allowedType(input.contentType, limits);
  const body = Buffer.isBuffer(input.bytes) ? bodyOf(input.bytes) : input.bytes;
  checkSize(body.byteSize, limits);
  const sha256 = body.sha256;
  if (input.sha256 !== undefined && input.sha256.toLowerCase() !== sha256)
    throw new ServiceError("attachment_hash_mismatch", "the bytes do not have the declared SHA-256", {
      sha256,
    });
  const id = randomUUID();
  const filename = cleanFilename(input.filename);
  const stored = { storage: limits.storage, storageKey: storageKeyFor(limits.storage, issue.companyId, id) };
  let wrote = false;
  try {
    return await ctx.db.transaction(async (tx) => {
      await tx.insert(issueAttachments).values({
        id,
        companyId: issue.companyId,
        issueId: issue.id,
        filename,
        contentType,
        byteSize: body.byteSize,
        sha256,
        ...stored,
        ...uploader(ctx),
      });
      // After the row: the blob's composite foreign key points at it.
      wrote = true;
      await storeBytes(tx, stored, issue.companyId, id, body);
      await logActivity(tx, ctx, {
        companyId: issue.companyId,
        action: "issue.attachment_add",
        entityType: "issue",
        entityId: issue.id,
        details: { attachmentId: id, filename, contentType, byteSize: body.byteSize, sha256 },
      });
      const [row] = await attachmentQuery(tx).where(companyRow(issueAttachments, issue.companyId, id));
      await opts.inTransaction?.(tx, row!);
      return row!;
    });
  } catch (err) {
    if (wrote) removeBytes(stored);
    throw err;
  }
}

/** The attachments of an issue (`company:read`), oldest first, at most `limit`. */
export async function listIssueAttachments(
  ctx: ServiceContext,
  issueId: string,
  opts: { limit?: number; companyId?: string } = {},
): Promise<Attachment[]> {
  const issue = await issueForAttachments(ctx, issueId, "company:read", opts.companyId);
  const rows = await attachmentQuery(ctx.db)
    .where(inCompany(issueAttachments, issue.companyId, eq(issueAttachments.issueId, issue.id)))
    .orderBy(asc(issueAttachments.createdAt), asc(issueAttachments.id))
    .limit(Math.min(Math.max(opts.limit ?? 200, 1), 500));
  return rows satisfies Served<typeof IssueAttachment>[];
}

/** One attachment's metadata for a caller who may read its company (404 for anyone else). */
export async function getAttachment(
  ctx: ServiceContext,
  attachmentId: string,
  capability: Capability = "company:read",
  /** Only this company's attachment (an assistant connection is bound to one company). */
  companyId?: string,
): Promise<Attachment> {
  const [row] = await attachmentQuery(ctx.db).where(eq(issueAttachments.id, attachmentId));
  if (!row || (companyId !== undefined && row.companyId !== companyId)) throw notFound("attachment");
  await requireAttachmentAccess(ctx, row.companyId, capability, "attachment");
  return row;
}

/** An attachment's metadata and bytes (`company:read`; 404 across companies). */
export async function readAttachment(
  ctx: ServiceContext,
  attachmentId: string,
  companyId?: string,
): Promise<{ attachment: Attachment; bytes: Buffer }> {
  const attachment = await getAttachment(ctx, attachmentId, "company:read", companyId);
  const [row] = await ctx.db
    .select({
      id: issueAttachments.id,
      companyId: issueAttachments.companyId,
      storage: issueAttachments.storage,
      storageKey: issueAttachments.storageKey,
    })
    .from(issueAttachments)
    .where(companyRow(issueAttachments, attachment.companyId, attachment.id));
  if (!row) throw notFound("attachment");
  return { attachment, bytes: await loadBytes(ctx.db, row) };
}

/** Deletes an attachment and its bytes (`work:write`), with an `issue.attachment_remove` row. */
export async function deleteAttachment(
  ctx: ServiceContext,
  attachmentId: string,
): Promise<{ deleted: true }> {
  const attachment = await getAttachment(ctx, attachmentId, "work:write");
  const removed = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(issueAttachments)
      .where(and(companyRow(issueAttachments, attachment.companyId, attachment.id)))
      .returning({ storage: issueAttachments.storage, storageKey: issueAttachments.storageKey });
    if (!row) throw notFound("attachment");
    await logActivity(tx, ctx, {
      companyId: attachment.companyId,
      action: "issue.attachment_remove",
      entityType: "issue",
      entityId: attachment.issueId,
      details: { attachmentId: attachment.id, filename: attachment.filename },
    });
    return row;
  });
  removeBytes(removed);
  return { deleted: true };
}

/**
 * The REST upload (`POST /api/issues/:issueId/attachments`): the raw body is the file, its
 * `Content-Type` the type, `X-Filename` the name (percent-encoded UTF-8 allowed) and an
 * optional `X-Content-SHA256` its expected hash. The caller's access is checked before the
 * body is read; the body is read with the attachment limit, never the JSON body limit.
 */
export async function uploadAttachment(ctx: ServiceContext, issueId: string, request: Request) {
  await issueForAttachments(ctx, issueId, "work:write");
  const limits = attachmentLimits();
  const contentType = allowedType(request.headers.get("content-type"), limits);
  let filename = request.headers.get("x-filename") ?? "";
  try {
    filename = decodeURIComponent(filename);
  } catch {
    // not percent-encoded: keep it as sent
  }
  const body = await readLimitedBody(request, limits);
  const sha256 = request.headers.get("x-content-sha256")?.trim() || undefined;
  return createAttachment(ctx, issueId, { filename, contentType, bytes: body, sha256 });
}

/** The download of `GET /api/attachments/:attachmentId/content` (`company:read`). */
export async function downloadAttachment(ctx: ServiceContext, attachmentId: string): Promise<Response> {
  const { attachment, bytes } = await readAttachment(ctx, attachmentId);
  return attachmentResponse(attachment, bytes, { "x-request-id": ctx.requestId });
}

/** The issue page's Attachments card data: the files as the card lists them and the size limit. */
export async function attachmentCardItems(ctx: ServiceContext, issueId: string) {
  const rows = await listIssueAttachments(ctx, issueId);
  return {
    maxBytes: attachmentLimits().maxBytes,
    attachments: rows.map((a) => ({
      id: a.id,
      filename: a.filename,
      contentType: a.contentType,
      byteSize: a.byteSize,
      uploadedByName: a.uploadedByName,
      viaClientName: a.via?.clientName ?? null,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}
