import { encode } from "next-auth/jwt";
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

/** The Set-Cookie header for a session, as next-auth would set it for this request's scheme. */
export async function sessionSetCookie(
  request: Request,
  p: { userId: string; email: string; sid: string; name?: string | null },
): Promise<string> {
  const secure = new URL(request.url).protocol === "https:";
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const jwt = await sessionJwt(p, name);
  const maxAge = Math.floor(SESSION_LIFETIME_MS / 1000);
  return `${name}=${jwt}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}
