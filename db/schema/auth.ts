import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, timestamps, ts, updatedAt } from "./_columns";

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
    ...timestamps(),
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

/**
 * Browser sign-in sessions. The next-auth JWT cookie carries a random session id (`sid`);
 * only its SHA-256 is stored here. Every request looks the hash up (one indexed read, joined
 * with the user's disabled flag), so deleting the row ends the session at once: sign-out,
 * "sign out everywhere", a password change and removal from the last company all do.
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** Absolute end of the session; the cookie's own expiry is never trusted alone. */
    expiresAt: ts("expires_at").notNull(),
    lastSeenAt: ts("last_seen_at"),
    /** SHA-256 of the source address at sign-in (never the raw address). */
    sourceHash: text("source_hash"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_sessions_token_hash_uq").on(t.tokenHash),
    index("user_sessions_user_idx").on(t.userId),
  ],
);

/**
 * Sign-in throttling counters, one row per account (hash of the normalised email) and per
 * source (hash of the client address), shared by every replica. Attempts are reserved with a
 * row lock before the password is checked, so parallel guesses cannot overrun the limit.
 */
export const signInThrottles = pgTable("sign_in_throttles", {
  /** `account:<sha256>` or `source:<sha256>`: never an email or an address in clear. */
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: ts("window_started_at").notNull(),
  lockedUntil: ts("locked_until"),
  /** Consecutive lockouts: each one doubles the next lockout (exponential backoff). */
  lockouts: integer("lockouts").notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * One-time set-password links for accounts created by a company owner. Only the SHA-256 of
 * the token is stored; a link is single use (`used_at`) and expires.
 */
export const passwordSetTokens = pgTable(
  "password_set_tokens",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("password_set_tokens_hash_uq").on(t.tokenHash),
    index("password_set_tokens_user_idx").on(t.userId),
  ],
);
