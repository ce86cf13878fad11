import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { type Db, getDb } from "@/db/client";
import { bearerToken } from "../auth/authenticate";
import { publicOrigin } from "../config/proxy";
import { jsonTextDepth, MAX_BODY_DEPTH } from "../contracts/json-shape";
import { databaseBreaker, databaseUnavailableFor, probeOf } from "../database/breaker";
import {
  fromDatabaseError,
  invalidRequest,
  isServiceError,
  notFound,
  payloadTooLarge,
  ServiceError,
} from "../errors";
import { errorResponse, refuseUnstorable } from "../http/route";
import { logError } from "../log";
import { readBoundedText } from "../net/read-bounded";
// Registers Paperclip's own agent tools with the connectors (they call the core verbs).
import "../self-tools";
import {
  auditRefusedSessionToken,
  authenticateGatewayToken,
  authenticateGatewayTokenForCall,
  type GatewayContext,
  recordGatewayRefusal,
} from "./sessions";

let gatewayDb: (() => Db) | null = null;
/** Tests point gateway routes at their database. */
export function setGatewayDatabase(db: Db | null): void {
  gatewayDb = db ? () => db : null;
}
export const currentGatewayDb = (): Db => (gatewayDb ? gatewayDb() : getDb());

/** What authentication reads of a request: a Web `Request` or the node listener's view of one. */
export interface GatewayRequestHead {
  url: string;
  headers: { get(name: string): string | null };
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function hostnameOf(hostHeader: string): string {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return "";
  }
}

/**
 * DNS-rebinding defence: the Host (and Origin, when a browser sends one) must be this
 * instance's public origin or localhost.
 */
export function assertAllowedHost(request: GatewayRequestHead): void {
  const publicHost = new URL(publicOrigin()).host;
  const host = request.headers.get("host") ?? "";
  const hostOk = host === publicHost || LOCAL_HOSTS.has(hostnameOf(host));
  const origin = request.headers.get("origin");
  let originOk = true;
  if (origin) {
    try {
      const o = new URL(origin);
      originOk = o.host === publicHost || LOCAL_HOSTS.has(o.hostname);
    } catch {
      originOk = false;
    }
  }
  if (!hostOk || !originOk)
    throw new ServiceError("host_not_allowed", "requests must come to this instance's configured origin");
}

const QUERY_TOKEN_KEYS = ["token", "access_token", "api_key", "key", "session"];

/** The value of the first credential-looking query parameter, if any. */
function queryToken(request: GatewayRequestHead): string | null {
  if (request.url.indexOf("?") === -1) return null;
  const url = new URL(request.url, "http://localhost");
  for (const key of QUERY_TOKEN_KEYS) {
    const value = url.searchParams.get(key);
    if (value !== null) return value;
  }
  return null;
}

/** Tokens are accepted only in the Authorization header (never the URL, where they leak into logs). */
export function assertNoQueryToken(request: GatewayRequestHead): void {
  if (queryToken(request) !== null) {
    throw new ServiceError(
      "token_in_query",
      "send the session token in the `Authorization: Bearer` header, not the URL",
    );
  }
}

/**
 * Authenticates a gateway request (Host, no query token, Bearer session token). A request
 * refused for its Host, Origin or a token in the URL is audited against the session whose
 * token it carries, when that session is known.
 */
export async function authenticateGatewayRequest(
  db: Db,
  request: GatewayRequestHead,
  /**
   * A single `tools/call` or `tools/list` request: the session may come from the cache
   * (`authenticateGatewayTokenForCall`), verified by the request's first write.
   */
  opts: { cachedSession?: boolean } = {},
): Promise<GatewayContext> {
  let token: string | null;
  try {
    token = bearerToken(request);
  } catch {
    token = null;
  }
  try {
    assertAllowedHost(request);
    assertNoQueryToken(request);
  } catch (err) {
    if (isServiceError(err))
      await auditRefusedSessionToken(db, token ?? queryToken(request), err.code).catch(() => {});
    throw err;
  }
  return opts.cachedSession
    ? authenticateGatewayTokenForCall(db, token, new Date())
    : authenticateGatewayToken(db, token, new Date());
}

/**
 * Reads and parses a gateway request body (bounded size and depth). Text PostgreSQL cannot
 * store is refused with `400 invalid_request`, unless `acceptUnstorable` (tools/call, which
 * records the attempt and refuses it itself, so that it is still accounted for).
 */
export async function readJson<T extends z.ZodType>(
  request: Request,
  schema: T,
  limit = 1024 * 1024,
  opts: { acceptUnstorable?: boolean } = {},
): Promise<z.output<T>> {
  const text = await readBoundedText(request, limit);
  if (text === null) throw payloadTooLarge(limit);
  if (jsonTextDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH)
    throw invalidRequest(`the request body nests deeper than ${MAX_BODY_DEPTH} levels`);
  let raw: unknown;
  try {
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw invalidRequest("the request body is not valid JSON");
  }
  if (!opts.acceptUnstorable) refuseUnstorable(raw, "body");
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw invalidRequest(
      `invalid body${first?.path.length ? ` at \`${first.path.join(".")}\`` : ""}: ${first?.message}`,
    );
  }
  return parsed.data;
}

/** Route wrapper for agent-facing gateway endpoints: authenticate the session, map errors. */
export function gatewayRoute(
  handler: (input: {
    db: Db;
    gw: GatewayContext;
    request: Request;
    params: Record<string, string>;
  }) => Promise<Response | unknown>,
) {
  return async (
    request: Request,
    context?: { params: Promise<Record<string, string | string[]>> },
  ): Promise<Response> => {
    const requestId = randomUUID();
    const db = currentGatewayDb();
    let gw: GatewayContext | null = null;
    try {
      databaseBreaker().admit();
      gw = await authenticateGatewayRequest(db, request);
      const params = (context?.params ? await context.params : {}) as Record<string, string>;
      const result = await handler({ db, gw, request, params });
      if (result instanceof Response) return result;
      return Response.json(result, { headers: { "cache-control": "no-store", "x-request-id": requestId } });
    } catch (err) {
      if (isServiceError(err)) {
        // A session's malformed or refused request (bad body, unknown invocation, …) is on its
        // company's audit trail; before authentication there is no session to attribute.
        if (gw && err.status >= 400 && err.status < 500) await recordGatewayRefusal(db, gw, err.code);
        const res = errorResponse(err, requestId);
        if (err.status === 401) res.headers.set("www-authenticate", 'Bearer realm="paperclip-gateway"');
        return res;
      }
      const down = databaseUnavailableFor(err, probeOf(db));
      if (down) return errorResponse(down, requestId);
      const mapped = fromDatabaseError(err);
      if (mapped) return errorResponse(mapped.code === "invalid_request" ? mapped : notFound(), requestId);
      logError("gateway.unhandled", err, { requestId });
      return errorResponse(new ServiceError("internal_error", "internal error"), requestId);
    }
  };
}
