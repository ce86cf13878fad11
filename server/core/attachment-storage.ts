/**
 * Where attachment bytes live, and the limits every upload path shares (docs/public-mcp.md,
 * "Attachments"). Two providers, chosen by `PAPERCLIP_ATTACHMENT_STORAGE`:
 *
 *   - `database` (default): one `attachment_blobs` row per attachment, so every replica of the
 *     instance serves every file and a database backup holds them;
 *   - `filesystem`: `PAPERCLIP_HOME/attachments/<companyId>/<attachmentId>` (one host, or a
 *     shared volume), for instances whose database should not carry large files.
 *
 * A stored attachment records its provider, so changing the setting never strands old files.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { type ATTACHMENT_STORAGES, attachmentBlobs } from "@/db/schema";
import { paperclipHome } from "../config/home";
import { ServiceError } from "../errors";

export type AttachmentStorage = (typeof ATTACHMENT_STORAGES)[number];

export const DEFAULT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The allowed types when `PAPERCLIP_ATTACHMENT_TYPES` is unset: raster images, PDF, text,
 * common video and audio, ZIP, JSON and opaque bytes. SVG is left out (it can carry script);
 * every download is served as `attachment` with `nosniff`, never rendered inline.
 */
export const DEFAULT_ATTACHMENT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "text/*",
  "video/mp4",
  "video/webm",
  "audio/*",
  "application/zip",
  "application/json",
  "application/octet-stream",
] as const;

export interface AttachmentLimits {
  storage: AttachmentStorage;
  maxBytes: number;
  /** Media types (`type/subtype`) or wildcards (`type/*`), lowercase. */
  types: readonly string[];
}

/** The limits from the environment; an invalid value falls back to the default (fail closed on size). */
export function attachmentLimits(env: Record<string, string | undefined> = process.env): AttachmentLimits {
  const storage = env.PAPERCLIP_ATTACHMENT_STORAGE?.trim().toLowerCase();
  const max = Number(env.PAPERCLIP_ATTACHMENT_MAX_BYTES?.trim() || Number.NaN);
  const types = (env.PAPERCLIP_ATTACHMENT_TYPES ?? "")
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter((t) => MEDIA_RANGE.test(t));
  return {
    storage: storage === "filesystem" ? "filesystem" : "database",
    maxBytes: Number.isSafeInteger(max) && max > 0 ? max : DEFAULT_ATTACHMENT_MAX_BYTES,
    types: types.length > 0 ? types : DEFAULT_ATTACHMENT_TYPES,
  };
}

const TOKEN = "[a-z0-9][a-z0-9!#$&^_.+-]{0,126}";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);
const MEDIA_RANGE = new RegExp(`^${TOKEN}/(${TOKEN}|\\*)$`);

/** A `Content-Type` value's media type, lowercase, without parameters; null when malformed. */
export function mediaTypeOf(value: string | null | undefined): string | null {
  const essence = (value ?? "").split(";")[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(essence) ? essence : null;
}

/** The media type when the limits allow it, else `415 attachment_type_not_allowed`. */
export function allowedType(contentType: string | null | undefined, limits: AttachmentLimits): string {
  const type = mediaTypeOf(contentType);
  const ok =
    type !== null &&
    limits.types.some((t) => (t.endsWith("/*") ? type.startsWith(t.slice(0, -1)) : t === type));
  if (!ok)
    throw new ServiceError(
      "attachment_type_not_allowed",
      `content type \`${String(contentType ?? "").slice(0, 100)}\` is not allowed`,
      { allowed: [...limits.types] },
    );
  return type;
}

/** `413 attachment_too_large` for a size over the limit. */
export function checkSize(byteSize: number, limits: AttachmentLimits): void {
  if (byteSize > limits.maxBytes)
    throw new ServiceError("attachment_too_large", `the file is larger than ${limits.maxBytes} bytes`, {
      maxBytes: limits.maxBytes,
    });
}

/**
 * A filename safe to store and to put in a header: the last path segment, without control
 * characters, at most 255 characters; `file` when nothing is left.
 */
export function cleanFilename(name: string | null | undefined): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, "").trim();
  const out = clean === "." || clean === ".." ? "" : [...clean].slice(0, 255).join("");
  return out || "file";
}

export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * Bytes as they arrived, never concatenated: their size and SHA-256 (hashed chunk by chunk as
 * they streamed in). Storage writes the chunks one by one, so a 10 MB upload is never one
 * synchronous copy, hash or hex encoding that holds the event loop.
 */
export interface ReadBody {
  chunks: Buffer[];
  byteSize: number;
  sha256: string;
}

/** A whole buffer as a ReadBody (one hash; for bytes that did not stream in). */
export function bodyOf(bytes: Buffer): ReadBody {
  return { chunks: [bytes], byteSize: bytes.byteLength, sha256: sha256Hex(bytes) };
}

/**
 * Reads a request body up to `limits.maxBytes`, hashing while it streams: refused early from
 * `content-length`, and as soon as more bytes arrive than the limit (the stream is cancelled,
 * nothing buffered beyond the limit is kept). `expectedBytes` (an upload URL's declared size)
 * stops the read at that size + 1 with `413 attachment_too_large`: a URL minted for 3 bytes
 * never reads 10 MB of a chunked body first.
 */
export async function readLimitedBody(
  request: Request,
  limits: AttachmentLimits,
  expectedBytes?: number,
): Promise<ReadBody> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared)) checkSize(declared, limits);
  const stopAfter = Math.min(limits.maxBytes, expectedBytes ?? limits.maxBytes);
  const hash = createHash("sha256");
  const chunks: Buffer[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > stopAfter) {
        await reader.cancel().catch(() => {});
        checkSize(total, limits);
        throw new ServiceError(
          "attachment_too_large",
          `the body is larger than the ${stopAfter} bytes this upload was declared with`,
          { maxBytes: stopAfter },
        );
      }
      hash.update(value);
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
  }
  return { chunks, byteSize: total, sha256: hash.digest("hex") };
}

/** The filesystem provider's root; tests point `PAPERCLIP_HOME` at a temporary directory. */
const filesystemRoot = () => path.join(paperclipHome(), "attachments");

/**
 * The provider's key for an attachment: its id (database) or `<companyId>/<attachmentId>`
 * (filesystem) — both UUIDs the server made, never user input.
 */
export const storageKeyFor = (storage: AttachmentStorage, companyId: string, attachmentId: string) =>
  storage === "database" ? attachmentId : `${companyId}/${attachmentId}`;

const UUID_KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;
function filesystemPath(key: string): string {
  // INVARIANT: a storage key names a file under the root and nowhere else.
  if (!UUID_KEY.test(key)) throw new Error("malformed attachment storage key");
  return path.join(filesystemRoot(), key);
}

/** The most bytes sent to PostgreSQL in one statement while storing (hex-encoded by the driver). */
export const STORE_PIECE_BYTES = 256 * 1024;

/** The chunks re-cut into pieces of at most STORE_PIECE_BYTES (views, no copies). */
function* pieces(chunks: readonly Buffer[]): Generator<Buffer> {
  for (const chunk of chunks)
    for (let at = 0; at < chunk.byteLength; at += STORE_PIECE_BYTES)
      yield chunk.subarray(at, at + STORE_PIECE_BYTES);
}

/**
 * Writes the bytes with the provider under `target.storageKey`, piece by piece, yielding to the
 * event loop between pieces. The database provider writes inside `tx` (the attachment row's
 * transaction, after the row): the pieces go to a temporary table (not WAL-logged, dropped at
 * commit) and PostgreSQL joins them into the blob row itself (`string_agg`), so no statement
 * carries more than STORE_PIECE_BYTES — postgres.js encodes a bytea parameter as one hex
 * string, synchronously, which for 10 MB held the loop for a tenth of a second and more. The
 * filesystem provider appends to a temporary file with async writes and renames it into place;
 * the caller removes it (`removeBytes`) if the transaction fails.
 */
export async function storeBytes(
  tx: Tx,
  target: { storage: AttachmentStorage; storageKey: string },
  companyId: string,
  attachmentId: string,
  body: Pick<ReadBody, "chunks">,
): Promise<void> {
  if (target.storage === "database") {
    await tx.execute(
      sql`create temporary table if not exists attachment_upload_pieces (n int not null, piece bytea not null) on commit drop`,
    );
    await tx.execute(sql`truncate attachment_upload_pieces`);
    let n = 0;
    for (const piece of pieces(body.chunks))
      await tx.execute(sql`insert into attachment_upload_pieces (n, piece) values (${n++}, ${piece})`);
    await tx.execute(sql`insert into ${attachmentBlobs} (attachment_id, company_id, bytes)
      select ${attachmentId}, ${companyId}, coalesce(string_agg(piece, ''::bytea order by n), ''::bytea)
      from attachment_upload_pieces`);
    return;
  }
  const file = filesystemPath(target.storageKey);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, "w", 0o600);
  try {
    for (const piece of pieces(body.chunks)) await handle.write(piece);
  } catch (err) {
    await handle.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  await rename(tmp, file);
}

/** The stored bytes of an attachment (its company and provider as recorded on the row). */
export async function loadBytes(
  db: Db | Tx,
  row: { id: string; companyId: string; storage: AttachmentStorage; storageKey: string },
): Promise<Buffer> {
  if (row.storage === "database") {
    const [blob] = await db
      .select({ bytes: attachmentBlobs.bytes })
      .from(attachmentBlobs)
      .where(and(eq(attachmentBlobs.companyId, row.companyId), eq(attachmentBlobs.attachmentId, row.id)));
    if (!blob) throw new Error(`attachment ${row.id} has no stored bytes`);
    return blob.bytes;
  }
  return readFileSync(filesystemPath(row.storageKey));
}

/** Removes a filesystem file (database blobs go with their row); missing files are fine. */
export function removeBytes(row: { storage: AttachmentStorage; storageKey: string }): void {
  if (row.storage === "filesystem") rmSync(filesystemPath(row.storageKey), { force: true });
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): an ASCII fallback and the exact name. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The download response of an attachment: its stored type, always `attachment` and `nosniff`,
 * and a sandboxing CSP, so a browser never renders an uploaded file as a page of this origin.
 */
export function attachmentResponse(
  meta: { filename: string; contentType: string; byteSize: number; sha256: string },
  bytes: Buffer,
  extraHeaders: Record<string, string> = {},
): Response {
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: {
      ...extraHeaders,
      "content-type": meta.contentType,
      "content-length": String(bytes.byteLength),
      "content-disposition": contentDisposition(meta.filename),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, no-store",
      "x-content-sha256": meta.sha256,
    },
  });
}
