import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { verifyCredentials } from "@/server/auth/sign-in";
import { logError, logWarn } from "@/server/log";

// Board sign-in: email + password checked against the scrypt hash in `users`. Sessions are
// JWTs in an httpOnly cookie (Credentials requires the JWT strategy); every API request
// re-checks the user row, so disabling an account takes effect at once.
export const { handlers, auth, signIn, signOut } = NextAuth({
  trustHost: true,
  // A wrong password is an expected outcome, not a server error; everything else is logged
  // through the redacting logger.
  logger: {
    error: (error) => {
      // (`type`, not `name`: production builds minify class names)
      if ((error as { type?: string }).type === "CredentialsSignin") return;
      logError("auth.error", error);
    },
    warn: (code) => logWarn("auth.warn", { code }),
    debug: () => {},
  },
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
  pages: { signIn: "/signin" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials) => {
        const user = await verifyCredentials(getDb(), credentials);
        return user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    }),
  ],
  callbacks: {
    jwt: ({ token, user }) => {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session: ({ session, token }) => {
      if (token.sub && session.user) session.user.id = token.sub;
      return session;
    },
  },
});
