import { randomUUID } from "node:crypto";
import { z } from "zod";
import { type Db, getDb } from "@/db/client";
import { actorFromApiKey, actorFromSessionCookie, bearerToken } from "../auth/authenticate";
import { configuredPublicOrigin, requestHost } from "../config/proxy";
import type { Actor, ServiceContext } from "../context";
import { findUnstorable, jsonTextDepth, MAX_BODY_DEPTH, unstorableMessage } from "../contracts/json-shape";
import { BREAKER_HEADER, databaseBreaker, databaseUnavailableFor, probeOf } from "../database/breaker";
import {
  forbidden,
  fromDatabaseError,
  invalidRequest,
  isServiceError,
  notFound,
  payloadTooLarge,
  ServiceError,
  unauthenticated,
} from "../errors";
import { logError } from "../log";
import { readBoundedText } from "../net/read-bounded";
// Registers Paperclip's own agent tools with the connectors (they call the core verbs).
import "../self-tools";

/** Which kinds of caller a route admits. Anything else is refused before the verb runs. */
export type ActorKind = "board" | "agent";

export interface RouteSpec<P extends z.ZodType, B extends z.ZodType, Q extends z.ZodType> {
  /** "public" routes skip authentication entirely. */
  actors: readonly ActorKind[] | "public";
  params?: P;
  body?: B;
  query?: Q;
  /** Default 256 KiB. */
  maxBodyBytes?: number;
  /** Status of a successful response (default 200). */
  status?: number;
  /**
   * Runs while the database circuit breaker is open (`/api/health` reports the outage). Every
   * other route answers `503 database_unavailable` at once then, without touching the pool.
   */
  whileDatabaseDown?: boolean;
}

export interface RouteInput<P, B, Q> {
  ctx: ServiceContext;
  params: P;
  body: B;
  query: Q;
  request: Request;
}

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

const DEFAULT_MAX_BODY = 256 * 1024;

/** The database used by routes; tests swap it with `setRouteDatabase`. */
let routeDb: (() => Db) | null = null;
export function setRouteDatabase(db: Db | null): void {
  routeDb = db ? () => db : null;
}
/** The database routes (and next-auth's callbacks in auth.ts) use. */
export function routeDatabase(): Db {
  return routeDb ? routeDb() : getDb();
}

/** The clock given to verbs; tests move it (e.g. past a sign-in lockout) with `setRouteClock`. */
let routeClock: (() => Date) | null = null;
export function setRouteClock(clock: (() => Date) | null): void {
  routeClock = clock;
}
/** The clock routes give verbs (the real one unless a test set another). */
export function routeNow(): Date {
  return routeClock ? routeClock() : new Date();
}

export function errorResponse(err: ServiceError, requestId: string): Response {
  const body: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details) body.details = err.details;
  const headers: Record<string, string> = { "x-request-id": requestId };
  // RFC 9110 §10.2.3: a 429/503 that knows when to come back says so.
  const retry = err.details?.retryAfterSeconds;
  if ((err.status === 429 || err.status === 503) && typeof retry === "number" && retry > 0)
    headers["retry-after"] = String(Math.ceil(retry));
  if (err.code === "database_unavailable") headers[BREAKER_HEADER] = databaseBreaker().state;
  return Response.json({ error: body, requestId }, { status: err.status, headers });
}

function zodDetails(error: z.ZodError): Record<string, unknown> {
  return {
    issues: error.issues.slice(0, 20).map((i) => ({ path: i.path.join("."), message: i.message })),
  };
}

function parseWith<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    if (where === "path") throw notFound();
    const first = result.error.issues[0];
    const path = first?.path.length ? ` at \`${first.path.join(".")}\`` : "";
    throw invalidRequest(
      `invalid ${where}${path}: ${first?.message ?? "malformed"}`,
      zodDetails(result.error),
    );
  }
  return result.data;
}

async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBoundedText(request, limit);
  if (text === null) throw payloadTooLarge(limit);
  if (text.trim() === "") return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ServiceError("unsupported_media_type", "send the body as `application/json`");
  }
  return parseBoundedJson(text, "body");
}

/**
 * JSON.parse with the bounds every request body has: at most `MAX_BODY_DEPTH` levels (checked
 * on the text, before parsing), and no text PostgreSQL cannot store (NUL, unpaired
 * surrogates) in any key or value — refused with `400 invalid_request` naming the field.
 */
export function parseBoundedJson(text: string, where: string): unknown {
  if (jsonTextDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH)
    throw invalidRequest(`the request ${where} nests deeper than ${MAX_BODY_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest(`the request ${where} is not valid JSON`);
  }
  if (!nulMutationEnabled()) refuseUnstorable(value, where);
  return value;
}

/** `400 invalid_request` when `value` holds text PostgreSQL cannot store. */
export function refuseUnstorable(value: unknown, where: string): void {
  const found = findUnstorable(value);
  if (found)
    throw invalidRequest(`invalid ${where}: ${unstorableMessage(found)}`, {
      path: found.path,
      problem: found.problem,
    });
}

/** Test-only: re-introduces the NUL 500 (the fuzz suite's mutation test). Never set in production. */
function nulMutationEnabled(): boolean {
  return process.env.NODE_ENV === "test" && process.env.PAPERCLIP_TEST_MUTATION === "nul_500";
}

/**
 * Cookie-authenticated writes must come from our own origin: a browser always sends Origin
 * on cross-site POSTs, so a mismatch is a forged request. (Bearer tokens are not ambient
 * credentials and need no such check.) Our origin is `PAPERCLIP_PUBLIC_URL` when configured
 * (scheme, host and port must all match); otherwise the host the request was addressed to,
 * where `X-Forwarded-Host` counts only with `TRUST_PROXY` (server/config/proxy.ts): without a
 * proxy the operator runs, that header is whatever the client chose.
 */
export function assertSameOrigin(
  request: { headers: { get(name: string): string | null } },
  env: Record<string, string | undefined> = process.env,
): void {
  const origin = request.headers.get("origin");
  if (!origin) return;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    throw forbidden("the request origin is not allowed");
  }
  const publicOrigin = configuredPublicOrigin(env);
  const ok = publicOrigin
    ? originUrl.origin === publicOrigin
    : (() => {
        const host = requestHost(request.headers, env);
        return Boolean(host) && originUrl.host === host;
      })();
  if (!ok) throw new ServiceError("csrf_rejected", "cross-site request refused");
}

async function authenticate(
  db: Db,
  request: Request,
  kinds: readonly ActorKind[],
  now: Date,
): Promise<Actor> {
  const token = bearerToken(request);
  let actor: Actor | null = null;
  if (token) {
    actor = await actorFromApiKey(db, token, now);
  } else {
    actor = await actorFromSessionCookie(db, request, now);
    if (actor && request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
  }
  if (!actor) throw unauthenticated();
  const kind: ActorKind = actor.type === "agent_key" ? "agent" : "board";
  if (!kinds.includes(kind)) {
    throw forbidden(
      kind === "agent" ? "agent keys cannot use board routes" : "this route is for agents only",
    );
  }
  return actor;
}

/**
 * Wraps a verb as a Next.js route handler: authenticate → parse → verb → map errors. Bad
 * input never reaches the verb and never yields a 5xx; unexpected errors become a generic
 * 500 carrying the request id, with details only in the server log.
 */
export function route<
  P extends z.ZodType = z.ZodType<Record<string, never>>,
  B extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
>(
  spec: RouteSpec<P, B, Q>,
  handler: (input: RouteInput<z.output<P>, z.output<B>, z.output<Q>>) => Promise<unknown>,
) {
  return async (request: Request, context?: NextRouteContext): Promise<Response> => {
    const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
    let db: Db | null = null;
    try {
      if (!spec.whileDatabaseDown) databaseBreaker().admit();
      const now = routeClock ? routeClock() : new Date();
      db = routeDatabase();
      // Authenticate before any parsing: an unauthenticated caller learns nothing about a
      // route's shape (zod field messages, which ids are well formed) — it gets 401 only.
      const actor: Actor =
        spec.actors === "public"
          ? { type: "system", reason: "public" }
          : await authenticate(db, request, spec.actors, now);
      const rawParams = context?.params ? await context.params : {};
      // A path segment with text that cannot be stored names nothing.
      if (findUnstorable(rawParams)) throw notFound();
      const params = spec.params ? parseWith(spec.params, rawParams, "path") : ({} as z.output<P>);
      const url = new URL(request.url);
      const rawQuery = Object.fromEntries(url.searchParams);
      refuseUnstorable(rawQuery, "query");
      const query = spec.query ? parseWith(spec.query, rawQuery, "query") : ({} as z.output<Q>);
      let body = undefined as z.output<B>;
      if (spec.body) {
        const raw = await readJsonBody(request, spec.maxBodyBytes ?? DEFAULT_MAX_BODY);
        body = parseWith(spec.body, raw ?? {}, "body");
      }
      const ctx: ServiceContext = { db, actor, requestId, now: routeClock ?? (() => new Date()) };
      const result = await handler({ ctx, params, body, query, request });
      if (result instanceof Response) return result;
      return Response.json(result ?? {}, {
        status: spec.status ?? 200,
        headers: { "x-request-id": requestId, "cache-control": "no-store" },
      });
    } catch (err) {
      if (isServiceError(err)) return errorResponse(err, requestId);
      const mapped = fromDatabaseError(err) ?? (db ? databaseUnavailableFor(err, probeOf(db)) : null);
      if (mapped) return errorResponse(mapped, requestId);
      logError("route.unhandled", err, {
        requestId,
        method: request.method,
        path: new URL(request.url).pathname,
      });
      return errorResponse(new ServiceError("internal_error", "internal error"), requestId);
    }
  };
}

/** Common path-parameter schemas. Malformed ids are 404 (not 400): they name nothing. */
// `z.guid()` is exactly the 8-4-4-4-12 hex pattern; `z.uuid()` would also demand RFC 9562
// version/variant bits, which ids in URLs (and tests' fixed ids) need not have.
export const uuidParam = z.guid();
