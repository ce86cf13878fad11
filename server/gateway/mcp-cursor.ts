import { createHmac, timingSafeEqual } from "node:crypto";
import { ensureSecretFile } from "../config/home";
import { invalidParams } from "./mcp-errors";

/**
 * Opaque, signed pagination cursors for `tools/list`, `resources/list`,
 * `resources/templates/list` and `prompts/list`. A cursor is `<payload>.<mac>`: the payload
 * (base64url JSON: list, endpoint, offset, session) is HMAC-SHA-256-signed with a key of this
 * instance (PAPERCLIP_MCP_CURSOR_KEY, base64url ≥ 32 bytes, or the generated file
 * PAPERCLIP_HOME/mcp-cursor.key), so a cursor cannot be forged or moved to another session or
 * list. Every replica sharing the key accepts every replica's cursors.
 */

/** Items per page; PAPERCLIP_MCP_PAGE_SIZE overrides (1–1000). */
export function pageSize(): number {
  const n = Number(process.env.PAPERCLIP_MCP_PAGE_SIZE ?? "");
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 500;
}

let cachedKey: Buffer | null = null;
function cursorKey(): Buffer {
  if (cachedKey) return cachedKey;
  const raw = process.env.PAPERCLIP_MCP_CURSOR_KEY?.trim() || ensureSecretFile("mcp-cursor.key", 32);
  const key = Buffer.from(raw, "base64url");
  if (key.length < 32) throw new Error("the MCP cursor key must be at least 32 bytes");
  cachedKey = key;
  return key;
}

export interface CursorScope {
  /** The list: "tools", "resources", "resource_templates", "prompts". */
  list: string;
  /** The endpoint's application, or "" for the combined endpoint. */
  app: string;
  sessionId: string;
}

const mac = (payload: string) => createHmac("sha256", cursorKey()).update(payload).digest().subarray(0, 16);

export function signCursor(scope: CursorScope, offset: number): string {
  const payload = Buffer.from(
    JSON.stringify({ l: scope.list, a: scope.app, s: scope.sessionId, o: offset }),
  ).toString("base64url");
  return `${payload}.${mac(payload).toString("base64url")}`;
}

const INVALID = "invalid cursor: pass the `nextCursor` of a previous page of this list unchanged";

/** The offset a cursor points at; -32602 when it is not one this endpoint issued for this list and session. */
export function readCursor(scope: CursorScope, cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor !== "string" || cursor.length > 512) throw invalidParams(INVALID);
  const dot = cursor.indexOf(".");
  if (dot <= 0) throw invalidParams(INVALID);
  const payload = cursor.slice(0, dot);
  const given = Buffer.from(cursor.slice(dot + 1), "base64url");
  const expected = mac(payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidParams(INVALID);
  let parsed: { l?: unknown; a?: unknown; s?: unknown; o?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalidParams(INVALID);
  }
  if (parsed.l !== scope.list || parsed.a !== scope.app || parsed.s !== scope.sessionId)
    throw invalidParams(INVALID);
  if (typeof parsed.o !== "number" || !Number.isInteger(parsed.o) || parsed.o < 0)
    throw invalidParams(INVALID);
  return parsed.o;
}

/** One page of `items` from `offset`, with the cursor of the next page when there is one. */
export function pageOf<T>(
  scope: CursorScope,
  items: T[],
  offset: number,
): { page: T[]; nextCursor?: string } {
  const size = pageSize();
  const page = items.slice(offset, offset + size);
  return offset + size < items.length ? { page, nextCursor: signCursor(scope, offset + size) } : { page };
}

/** `params.cursor` of a list request, after checking that params is absent or an object. */
export function listCursor(params: unknown): unknown {
  if (params === undefined || params === null) return undefined;
  if (typeof params !== "object" || Array.isArray(params)) throw invalidParams("params must be an object");
  return (params as { cursor?: unknown }).cursor;
}
