import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./_columns";

/**
 * Board users. Global (not company-scoped): one person can belong to several companies
 * through `company_memberships`. Passwords are stored only as a scrypt hash string
 * (`scrypt$N$r$p$salt$hash`, see server/auth/password.ts).
 */
export const users = pgTable(
  "users",
  {
    id: id(),
    name: text("name"),
    email: text("email").notNull(),
    emailVerified: ts("email_verified"),
    image: text("image"),
    passwordHash: text("password_hash"),
    disabledAt: ts("disabled_at"),
    lastSignInAt: ts("last_sign_in_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_lower_uq").on(sql`lower(${t.email})`)],
);

// The next-auth (Auth.js) adapter tables, in the shape @auth/drizzle-adapter expects, so an
// OAuth provider or database sessions can be switched on without a schema change. Board
// sign-in with email + password uses JWT sessions and does not write to them.
export const authAccounts = pgTable(
  "auth_accounts",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerAccountId] }),
    index("auth_accounts_user_idx").on(t.userId),
  ],
);

export const authSessions = pgTable("auth_sessions", {
  sessionToken: text("session_token").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expires: ts("expires").notNull(),
});

export const authVerificationTokens = pgTable(
  "auth_verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: ts("expires").notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/**
 * Instance administrators: the host's operators, distinct from company owners. Only they
 * change what runs on or is reachable from the host (approved stdio commands, loopback and
 * private upstream origins, instance settings). The first account of a fresh install is one;
 * `npm run cli -- admin grant|revoke <email>` manages the rest.
 */
export const instanceAdmins = pgTable("instance_admins", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  grantedAt: ts("granted_at").notNull().defaultNow(),
  /** Null when granted by the CLI or by the first-account rule. */
  grantedByUserId: uuid("granted_by_user_id").references(() => users.id, { onDelete: "set null" }),
});
