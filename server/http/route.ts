import { randomUUID } from "node:crypto";
import { z } from "zod";
import { type Db, getDb } from "@/db/client";
import { actorFromApiKey, actorFromSessionCookie, bearerToken } from "../auth/authenticate";
import type { Actor, ServiceContext } from "../context";
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

export function errorResponse(err: ServiceError, requestId: string): Response {
  const body: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details) body.details = err.details;
  const headers: Record<string, string> = { "x-request-id": requestId };
  // RFC 9110 §10.2.3: a 429/503 that knows when to come back says so.
  const retry = err.details?.retryAfterSeconds;
  if ((err.status === 429 || err.status === 503) && typeof retry === "number" && retry > 0)
    headers["retry-after"] = String(Math.ceil(retry));
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
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw payloadTooLarge(limit);
  const text = await request.text();
  if (Buffer.byteLength(text, "utf8") > limit) throw payloadTooLarge(limit);
  if (text.trim() === "") return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ServiceError("unsupported_media_type", "send the body as `application/json`", 415);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest("the request body is not valid JSON");
  }
}

/**
 * Cookie-authenticated writes must come from our own origin: a browser always sends Origin
 * on cross-site POSTs, so a mismatch is a forged request. (Bearer tokens are not ambient
 * credentials and need no such check.)
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (!origin) return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw forbidden("the request origin is not allowed");
  }
  if (!host || originHost !== host)
    throw new ServiceError("csrf_rejected", "cross-site request refused", 403);
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
 * Wraps a verb as a Next.js route handler: parse → authenticate → verb → map errors. Bad
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
    try {
      const now = routeClock ? routeClock() : new Date();
      const rawParams = context?.params ? await context.params : {};
      const params = spec.params ? parseWith(spec.params, rawParams, "path") : ({} as z.output<P>);
      const url = new URL(request.url);
      const query = spec.query
        ? parseWith(spec.query, Object.fromEntries(url.searchParams), "query")
        : ({} as z.output<Q>);
      let body = undefined as z.output<B>;
      if (spec.body) {
        const raw = await readJsonBody(request, spec.maxBodyBytes ?? DEFAULT_MAX_BODY);
        body = parseWith(spec.body, raw ?? {}, "body");
      }
      const db = routeDatabase();
      const actor: Actor =
        spec.actors === "public"
          ? { type: "system", reason: "public" }
          : await authenticate(db, request, spec.actors, now);
      const ctx: ServiceContext = { db, actor, requestId, now: routeClock ?? (() => new Date()) };
      const result = await handler({ ctx, params, body, query, request });
      if (result instanceof Response) return result;
      return Response.json(result ?? {}, {
        status: spec.status ?? 200,
        headers: { "x-request-id": requestId, "cache-control": "no-store" },
      });
    } catch (err) {
      if (isServiceError(err)) return errorResponse(err, requestId);
      const mapped = fromDatabaseError(err);
      if (mapped) return errorResponse(mapped, requestId);
      logError("route.unhandled", err, {
        requestId,
        method: request.method,
        path: new URL(request.url).pathname,
      });
      return errorResponse(new ServiceError("internal_error", "internal error", 500), requestId);
    }
  };
}

/** Common path-parameter schemas. Malformed ids are 404 (not 400): they name nothing. */
export const uuidParam = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
