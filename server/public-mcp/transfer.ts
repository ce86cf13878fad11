/**
 * File transfer for assistant connections (docs/public-mcp.md, "File transfer"; spec 004,
 * "Expanded direct assistant tools"). `get_upload_url` / `get_download_url` mint a ten-minute,
 * transfer-specific URL `/mcp/files/<token>`; the assistant's host moves the bytes with its own
 * HTTP tools (PUT to upload, GET to download). The server never fetches a URL or reads a path
 * it was given: no operation takes one.
 *
 * INVARIANT: only the SHA-256 of a URL token is stored; a URL is a credential, so it is never
 * logged, never in a receipt, never in an activity row.
 *
 * Every use of a URL checks again what the operation checked: public MCP still enabled, the
 * grant live (unrevoked, person enabled and a member), its scope still held, the company and
 * task still there (the transfer row goes with them). Refusals store nothing.
 */
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpFileTransfers } from "@/db/schema";
import { hashToken } from "../auth/tokens";
import {
  allowedType,
  attachmentLimits,
  attachmentResponse,
  checkSize,
  cleanFilename,
  mediaTypeOf,
  readLimitedBody,
} from "../core/attachment-storage";
import {
  type Attachment,
  createAttachment,
  getAttachment,
  issueForAttachments,
  readAttachment,
} from "../core/attachments";
import { ServiceError } from "../errors";
import { issuer, publicMcpEnabled } from "../oauth/config";
import { liveGrant } from "../oauth/store";
import { MCP_CORS_HEADERS } from "./bearer";
import type { McpSession } from "./registry";
import { sessionFor } from "./session";

export const FILE_URL_PREFIX = "pcft_";
export const FILE_URL_LIFETIME_MS = 10 * 60 * 1000;
export const FILES_PATH = "/mcp/files";
/** Expired pending transfers removed per transfer request (bounded, so a request stays cheap). */
const CLEANUP_BATCH = 100;

const TOKEN_SHAPE = /^pcft_[A-Za-z0-9_-]{43}$/;

function mintFileToken(): { token: string; hash: string } {
  const token = `${FILE_URL_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashToken(token) };
}

const fileUrl = (token: string) => `${issuer()}${FILES_PATH}/${token}`;

/** The attachment as the tools answer it: metadata and the task link, never storage details. */
export function attachmentView(session: McpSession, a: Attachment) {
  return {
    id: a.id,
    taskId: a.issueId,
    filename: a.filename,
    contentType: a.contentType,
    byteSize: a.byteSize,
    sha256: a.sha256,
    uploadedBy: a.uploadedByName,
    via: a.via ? { clientName: a.via.clientName } : null,
    createdAt: a.createdAt.toISOString(),
    link: `${session.origin}/c/${a.companyId}/issues/${a.issueId}`,
  };
}

/** Deletes up to `CLEANUP_BATCH` expired transfers that never completed (spec: "on subsequent transfer requests"). */
export async function cleanExpiredTransfers(db: Db, now: Date): Promise<number> {
  const expired = db
    .select({ id: mcpFileTransfers.id })
    .from(mcpFileTransfers)
    .where(and(isNull(mcpFileTransfers.completedAt), lte(mcpFileTransfers.expiresAt, now)))
    .limit(CLEANUP_BATCH);
  const rows = await db
    .delete(mcpFileTransfers)
    .where(inArray(mcpFileTransfers.id, expired))
    .returning({ id: mcpFileTransfers.id });
  return rows.length;
}

export interface UploadUrlArgs {
  companyId: string;
  taskId: string;
  filename: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  requestId: string;
}

/**
 * `get_upload_url`: the upload transfer of (person, company, requestId), created on first
 * request; a repeat with the same file mints a fresh URL for the same transfer (the old token
 * stops working), or answers the saved attachment when the upload already completed. A
 * different file under the same requestId is `409 transfer_conflict`.
 */
export async function requestUploadUrl(session: McpSession, args: UploadUrlArgs) {
  const { ctx, live } = session;
  const now = ctx.now();
  await cleanExpiredTransfers(ctx.db, now);
  const issue = await issueForAttachments(ctx, args.taskId, "work:write", live.grant.companyId);
  const limits = attachmentLimits();
  const contentType = allowedType(args.contentType, limits);
  checkSize(args.byteSize, limits);
  const file = {
    issueId: issue.id,
    filename: cleanFilename(args.filename),
    contentType,
    byteSize: args.byteSize,
    sha256: args.sha256.toLowerCase(),
  };
  const { token, hash } = mintFileToken();
  const expiresAt = new Date(now.getTime() + FILE_URL_LIFETIME_MS);
  const [created] = await ctx.db
    .insert(mcpFileTransfers)
    .values({
      companyId: issue.companyId,
      grantId: live.grant.id,
      userId: live.grant.userId,
      kind: "upload",
      requestId: args.requestId,
      ...file,
      tokenHash: hash,
      expiresAt,
    })
    .onConflictDoNothing({
      target: [mcpFileTransfers.userId, mcpFileTransfers.companyId, mcpFileTransfers.requestId],
      where: sql`${mcpFileTransfers.kind} = 'upload'`,
    })
    .returning({ id: mcpFileTransfers.id });
  let transferId = created?.id;
  if (!transferId) {
    const [existing] = await ctx.db
      .select()
      .from(mcpFileTransfers)
      .where(
        and(
          eq(mcpFileTransfers.userId, live.grant.userId),
          eq(mcpFileTransfers.companyId, issue.companyId),
          eq(mcpFileTransfers.requestId, args.requestId),
          eq(mcpFileTransfers.kind, "upload"),
        ),
      );
    if (!existing) throw new ServiceError("transfer_conflict", "the upload changed while asked for; retry");
    const differs = (Object.keys(file) as (keyof typeof file)[]).filter((k) => existing[k] !== file[k]);
    if (differs.length > 0)
      throw new ServiceError(
        "transfer_conflict",
        "this requestId already names an upload of a different file; use a new requestId for a new file",
        { differs },
      );
    if (existing.completedAt && existing.attachmentId) {
      const attachment = await getAttachment(
        ctx,
        existing.attachmentId,
        "company:read",
        live.grant.companyId,
      );
      return { transferId: existing.id, completed: true, attachment: attachmentView(session, attachment) };
    }
    // The same identity: a fresh credential for the same transfer; the old token's hash is gone.
    const [renewed] = await ctx.db
      .update(mcpFileTransfers)
      .set({ tokenHash: hash, expiresAt, grantId: live.grant.id })
      .where(and(eq(mcpFileTransfers.id, existing.id), isNull(mcpFileTransfers.completedAt)))
      .returning({ id: mcpFileTransfers.id });
    if (!renewed) return requestUploadUrl(session, args); // completed meanwhile: answer the attachment
    transferId = renewed.id;
  }
  return {
    transferId,
    uploadUrl: fileUrl(token),
    method: "PUT" as const,
    headers: { "content-type": contentType },
    expiresAt: expiresAt.toISOString(),
    byteSize: file.byteSize,
    sha256: file.sha256,
  };
}

/** `get_download_url`: a ten-minute URL for one attachment the person may read. */
export async function requestDownloadUrl(session: McpSession, args: { attachmentId: string }) {
  const { ctx, live } = session;
  const now = ctx.now();
  await cleanExpiredTransfers(ctx.db, now);
  const attachment = await getAttachment(ctx, args.attachmentId, "company:read", live.grant.companyId);
  const { token, hash } = mintFileToken();
  const expiresAt = new Date(now.getTime() + FILE_URL_LIFETIME_MS);
  await ctx.db.insert(mcpFileTransfers).values({
    companyId: attachment.companyId,
    grantId: live.grant.id,
    userId: live.grant.userId,
    kind: "download",
    issueId: attachment.issueId,
    attachmentId: attachment.id,
    filename: attachment.filename,
    contentType: attachment.contentType,
    byteSize: attachment.byteSize,
    sha256: attachment.sha256,
    tokenHash: hash,
    expiresAt,
  });
  return {
    downloadUrl: fileUrl(token),
    method: "GET" as const,
    expiresAt: expiresAt.toISOString(),
    filename: attachment.filename,
    contentType: attachment.contentType,
    byteSize: attachment.byteSize,
    sha256: attachment.sha256,
  };
}

const refuse = (code: ConstructorParameters<typeof ServiceError>[0], message: string) =>
  new ServiceError(code, message);

/**
 * The transfer a token names, as its person may use it now: the request-local session of its
 * grant (rechecked: live, scope held), or a refusal. Expired tokens are refused before the
 * grant is looked at; unknown and wrong-method tokens look the same.
 */
async function transferFor(db: Db, token: string, kind: "upload" | "download", now: Date) {
  if (!(await publicMcpEnabled(db)))
    throw refuse(
      "public_mcp_disabled",
      "assistant connections (MCP) are turned off on this instance; an instance administrator can enable them in Settings › Experimental",
    );
  const unknown = () => refuse("transfer_unknown", "this file URL is unknown; ask for a new one");
  if (!TOKEN_SHAPE.test(token)) throw unknown();
  const [transfer] = await db
    .select()
    .from(mcpFileTransfers)
    .where(eq(mcpFileTransfers.tokenHash, hashToken(token)));
  if (!transfer || transfer.kind !== kind) throw unknown();
  if (transfer.expiresAt <= now)
    throw refuse("transfer_expired", "this file URL has expired; ask for a new one with the same requestId");
  const live = await liveGrant(db, transfer.grantId);
  const scope = kind === "upload" ? "paperclip:write" : "paperclip:read";
  if (!live || live.grant.companyId !== transfer.companyId || !live.effectiveScopes.includes(scope))
    throw refuse(
      "transfer_revoked",
      "the connection behind this file URL was revoked or no longer has the access it needs",
    );
  return { transfer, session: sessionFor(db, live, live.effectiveScopes, now) };
}

/** The MCP endpoint's CORS, exposing the download's name and hash to browser-based hosts. */
export const cors = (response: Response): Response => {
  for (const [k, v] of Object.entries(MCP_CORS_HEADERS)) response.headers.set(k, v);
  response.headers.set("access-control-expose-headers", "Content-Disposition, X-Content-SHA256");
  response.headers.set("cache-control", "no-store");
  return response;
};

/**
 * `PUT /mcp/files/<token>`: the exact bytes of a pending upload. The declared type must be
 * the request's `Content-Type`; the body is read with the attachment limit (refused early from
 * `Content-Length` and while streaming) and hashed as it streams; size and SHA-256 must be the
 * declared ones. Saves the attachment as the person (with the connection as `via`) and completes
 * the transfer in one transaction → 201. After completion the same bytes answer 200 with the
 * same attachment (a lost response recovered); other bytes `409 transfer_already_completed`.
 */
export async function putTransfer(db: Db, request: Request, token: string, now: Date): Promise<Response> {
  const { transfer, session } = await transferFor(db, token, "upload", now);
  const limits = attachmentLimits();
  if (mediaTypeOf(request.headers.get("content-type")) !== transfer.contentType)
    throw refuse(
      "transfer_type_mismatch",
      `send the body with \`Content-Type: ${transfer.contentType}\`, the type this URL was made for`,
    );
  const length = request.headers.get("content-length");
  if (length !== null) {
    checkSize(Number(length), limits);
    if (!transfer.completedAt && Number(length) !== transfer.byteSize)
      throw refuse("transfer_size_mismatch", `the body must be exactly ${transfer.byteSize} bytes`);
  }
  // Stop at the declared size + 1: a larger body is refused without reading it to the limit.
  const body = await readLimitedBody(request, limits, transfer.byteSize);
  if (transfer.completedAt && transfer.attachmentId) {
    if (body.byteSize !== transfer.byteSize || body.sha256 !== transfer.sha256)
      throw refuse(
        "transfer_already_completed",
        "this upload was already saved with other bytes; use a new requestId for a new file",
      );
    const attachment = await getAttachment(session.ctx, transfer.attachmentId);
    return cors(Response.json(attachmentView(session, attachment), { status: 200 }));
  }
  if (body.byteSize !== transfer.byteSize)
    throw refuse("transfer_size_mismatch", `the body must be exactly ${transfer.byteSize} bytes`);
  if (body.sha256 !== transfer.sha256)
    throw refuse("transfer_hash_mismatch", "the body's SHA-256 is not the one this URL was made for");
  let raced = false;
  let attachment: Attachment;
  try {
    attachment = await createAttachment(
      session.ctx,
      transfer.issueId,
      { filename: transfer.filename, contentType: transfer.contentType, bytes: body },
      {
        inTransaction: async (tx, saved) => {
          const [done] = await tx
            .update(mcpFileTransfers)
            .set({ completedAt: now, attachmentId: saved.id })
            .where(and(eq(mcpFileTransfers.id, transfer.id), isNull(mcpFileTransfers.completedAt)))
            .returning({ id: mcpFileTransfers.id });
          // Another PUT of the same transfer completed first: undo this copy, answer that one.
          if (!done) {
            raced = true;
            throw refuse("transfer_already_completed", "completed by a concurrent upload");
          }
        },
      },
    );
  } catch (err) {
    if (!raced) throw err;
    const [row] = await db.select().from(mcpFileTransfers).where(eq(mcpFileTransfers.id, transfer.id));
    attachment = await getAttachment(session.ctx, row!.attachmentId!);
    return cors(Response.json(attachmentView(session, attachment), { status: 200 }));
  }
  return cors(Response.json(attachmentView(session, attachment), { status: 201 }));
}

/** `GET /mcp/files/<token>`: the bytes of one attachment; usable again until the URL expires. */
export async function getTransfer(db: Db, token: string, now: Date): Promise<Response> {
  const { transfer, session } = await transferFor(db, token, "download", now);
  const { attachment, bytes } = await readAttachment(session.ctx, transfer.attachmentId!, transfer.companyId);
  return cors(attachmentResponse(attachment, bytes));
}

/** CORS preflight: any origin may PUT/GET (the URL itself is the credential, not a cookie). */
export function transferPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...MCP_CORS_HEADERS,
      "access-control-allow-methods": "PUT, GET, OPTIONS",
      "access-control-allow-headers": "content-type",
      "access-control-max-age": "600",
    },
  });
}
