import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { secureCookiesByConfig } from "@/server/auth/session-cookie";
import { endSessionBySid, SESSION_LIFETIME_MS } from "@/server/auth/sessions";
import { signInWithPassword } from "@/server/auth/sign-in";
import { requestSource } from "@/server/config/proxy";
import { isServiceError } from "@/server/errors";
import { routeDatabase } from "@/server/http/route";
import { logError, logWarn } from "@/server/log";

/** next-auth error types a request causes by itself (bad path, method or form), not the server. */
const REQUEST_ERRORS = new Set(["UnknownAction", "MissingCSRF", "InvalidCheck", "Verification"]);

/** Thrown by `authorize` while the account or source is throttled; the sign-in page shows it. */
class SignInThrottledError extends CredentialsSignin {
  override code = "throttled";
}

// Board sign-in: email + password checked against the scrypt hash in `users`, under the
// database-backed throttle (server/auth/throttle.ts). The JWT cookie (Credentials requires
// the JWT strategy) only carries a random session id: every request looks its row up in
// `user_sessions`, so signing out, "sign out everywhere", a password change or a disabled
// account end the session at once, whatever the cookie says.
export const { handlers, auth, signIn, signOut } = NextAuth({
  trustHost: true,
  // `Secure` cookies follow PAPERCLIP_PUBLIC_URL, not X-Forwarded-Proto (which a client sets
  // itself unless TRUST_PROXY says an operator's proxy does). A getter: read per request, and
  // undefined (next-auth's own choice from the forwarded scheme) only behind a trusted proxy.
  get useSecureCookies() {
    return secureCookiesByConfig();
  },
  // A wrong password is an expected outcome, not a server error; everything else is logged
  // through the redacting logger.
  logger: {
    error: (error) => {
      // (`type`, not `name`: production builds minify class names)
      const type = (error as { type?: string }).type;
      if (type === "CredentialsSignin") return;
      // A request's own fault (an unknown /api/auth/<x>, a missing CSRF token): one line, no
      // stack — anyone can send these, and each used to write a full stack trace.
      if (type && REQUEST_ERRORS.has(type)) {
        logWarn("auth.request_refused", { type, message: error.message.split("\n")[0]?.slice(0, 200) });
        return;
      }
      logError("auth.error", error);
    },
    warn: (code) => logWarn("auth.warn", { code }),
    debug: () => {},
  },
  session: { strategy: "jwt", maxAge: SESSION_LIFETIME_MS / 1000 },
  pages: { signIn: "/signin" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials, request) => {
        try {
          const result = await signInWithPassword(routeDatabase(), credentials, {
            source: requestSource(request.headers),
            userAgent: request.headers.get("user-agent"),
            now: new Date(),
          });
          return { id: result.user.id, email: result.user.email, name: result.user.name, sid: result.sid };
        } catch (err) {
          if (isServiceError(err) && err.code === "sign_in_throttled") throw new SignInThrottledError();
          if (isServiceError(err) && err.code === "invalid_credentials") return null;
          throw err;
        }
      },
    }),
  ],
  callbacks: {
    jwt: ({ token, user }) => {
      if (user?.id) {
        token.sub = user.id;
        token.sid = (user as { sid?: string }).sid;
      }
      return token;
    },
    session: ({ session, token }) => {
      if (token.sub && session.user) session.user.id = token.sub;
      return session;
    },
  },
  events: {
    // Sign-out (the page's action or POST /api/auth/signout) deletes the session row, so a
    // copy of the cookie is worthless afterwards.
    signOut: async (message) => {
      const sid = "token" in message ? message.token?.sid : null;
      if (typeof sid === "string") await endSessionBySid(routeDatabase(), sid);
    },
  },
});
