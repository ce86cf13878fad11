import { encode } from "next-auth/jwt";
import { configuredPublicOrigin, trustProxy } from "../config/proxy";
import { SESSION_LIFETIME_MS } from "./sessions";

/** next-auth's session cookie names (plain http, and https where it adds `__Secure-`). */
export const SESSION_COOKIE = "authjs.session-token";
export const SECURE_SESSION_COOKIE = "__Secure-authjs.session-token";

/**
 * The next-auth JWT that carries a session id, encoded exactly as next-auth does (its own
 * `encode`, salted with the cookie name), so `auth()` and `getToken()` read it.
 */
export async function sessionJwt(
  p: { userId: string; email: string; sid: string; name?: string | null },
  cookieName = SESSION_COOKIE,
): Promise<string> {
  const secret = process.env.AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is not set");
  return encode({
    token: { sub: p.userId, email: p.email, name: p.name ?? null, sid: p.sid },
    secret,
    salt: cookieName,
    maxAge: SESSION_LIFETIME_MS / 1000,
  });
}

/**
 * Whether session (and next-auth's other) cookies are `Secure`, decided by configuration and
 * never by a header a client can send: `PAPERCLIP_PUBLIC_URL`'s scheme when it is set; without
 * it, undefined behind a trusted proxy (its `X-Forwarded-Proto` decides, see
 * `sessionCookieSecure`) and false otherwise (`npm start` listens on plain http).
 */
export function secureCookiesByConfig(
  env: Record<string, string | undefined> = process.env,
): boolean | undefined {
  const origin = configuredPublicOrigin(env);
  if (origin) return origin.startsWith("https://");
  return trustProxy(env) ? undefined : false;
}

/** `secureCookiesByConfig` for one request: behind a trusted proxy, its `X-Forwarded-Proto`. */
export function sessionCookieSecure(
  request: Request,
  env: Record<string, string | undefined> = process.env,
): boolean {
  const configured = secureCookiesByConfig(env);
  if (configured !== undefined) return configured;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return (forwarded ?? new URL(request.url).protocol.replace(/:$/, "")) === "https";
}

/** The Set-Cookie header for a session, named and flagged as next-auth sets it (auth.ts). */
export async function sessionSetCookie(
  request: Request,
  p: { userId: string; email: string; sid: string; name?: string | null },
): Promise<string> {
  const secure = sessionCookieSecure(request);
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const jwt = await sessionJwt(p, name);
  const maxAge = Math.floor(SESSION_LIFETIME_MS / 1000);
  return `${name}=${jwt}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}
