import { encode } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { SESSION_COOKIE, sessionJwt } from "@/server/auth/session-cookie";
import { createUserSession } from "@/server/auth/sessions";

type Handler = (
  request: Request,
  context?: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export interface CallOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  /** Sent verbatim (for malformed-JSON tests). */
  rawBody?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  json: T;
  headers: Headers;
}

/** Invokes a route handler exactly as Next.js would, with a real Request. */
export async function call<T = Record<string, unknown>>(
  handler: Handler,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult<T>> {
  const url = new URL(path, "http://localhost:3100");
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(opts.headers);
  if (!headers.has("host")) headers.set("host", "localhost:3100");
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  let body: string | undefined;
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers.set("content-type", "application/json");
  }
  const response = await handler(new Request(url, { method, headers, body }), {
    params: Promise.resolve(opts.params ?? {}),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as T, headers: response.headers };
}

/**
 * A real browser session for a user: a `user_sessions` row plus the next-auth cookie that
 * names it, exactly as sign-in creates them. (Signature changed from `(userId, email)`: the
 * session row needs the database.)
 */
export async function sessionCookie(
  db: Db,
  userId: string,
  email: string,
  now = new Date(),
): Promise<string> {
  const { sid } = await createUserSession(db, userId, { now });
  return `${SESSION_COOKIE}=${await sessionJwt({ userId, email, sid })}`;
}

/** A next-auth JWT cookie without a session row (what a pre-session-row cookie looked like). */
export async function bareJwtCookie(userId: string, email: string): Promise<string> {
  const salt = "authjs.session-token";
  return `${salt}=${await encode({ token: { sub: userId, email }, secret: process.env.AUTH_SECRET!, salt })}`;
}
