import { and, eq, gt, isNull, lte, ne } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { userSessions, users } from "@/db/schema";
import { hashToken, mintToken } from "./tokens";

/** Absolute session lifetime: a browser session ends 12 hours after sign-in, whatever the cookie says. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
// last_seen_at is written at most once a minute per session, so the check stays a read.
const LAST_SEEN_GRANULARITY_MS = 60_000;

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
}

/**
 * Creates the server-side row of a browser session and returns the random session id the
 * cookie carries (shown once; only its SHA-256 is stored).
 */
export async function createUserSession(
  db: Db | Tx,
  userId: string,
  opts: { now: Date; sourceHash?: string | null; userAgent?: string | null },
): Promise<{ sid: string; expiresAt: Date }> {
  // Expired rows of this user go as a new one comes (indexed by user; nothing else reads them).
  await db
    .delete(userSessions)
    .where(and(eq(userSessions.userId, userId), lte(userSessions.expiresAt, opts.now)));
  const minted = mintToken("userSession");
  const expiresAt = new Date(opts.now.getTime() + SESSION_LIFETIME_MS);
  await db.insert(userSessions).values({
    userId,
    tokenHash: minted.hash,
    expiresAt,
    lastSeenAt: opts.now,
    sourceHash: opts.sourceHash ?? null,
    userAgent: opts.userAgent?.slice(0, 200) ?? null,
    createdAt: opts.now,
  });
  return { sid: minted.token, expiresAt };
}

/**
 * The live session for a session id: one indexed read (the unique hash index) joined with the
 * user's disabled flag. Null for an unknown, deleted, expired session or a disabled account.
 */
export async function findLiveSession(db: Db, sid: string, now: Date): Promise<SessionUser | null> {
  if (!sid.startsWith("pcs_") || sid.length > 200) return null;
  const [row] = await db
    .select({
      sessionId: userSessions.id,
      userId: users.id,
      email: users.email,
      lastSeenAt: userSessions.lastSeenAt,
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(
      and(
        eq(userSessions.tokenHash, hashToken(sid)),
        gt(userSessions.expiresAt, now),
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_GRANULARITY_MS) {
    await db
      .update(userSessions)
      .set({ lastSeenAt: now })
      .where(eq(userSessions.id, row.sessionId))
      .catch(() => {});
  }
  return { sessionId: row.sessionId, userId: row.userId, email: row.email };
}

/** Ends one session (sign-out). Returns whether a row was deleted. */
export async function endSessionBySid(db: Db | Tx, sid: string): Promise<boolean> {
  const rows = await db
    .delete(userSessions)
    .where(eq(userSessions.tokenHash, hashToken(sid)))
    .returning({ id: userSessions.id });
  return rows.length > 0;
}

/** Ends every session of a user, optionally keeping one (the caller's own). Returns the count. */
export async function endUserSessions(
  db: Db | Tx,
  userId: string,
  keepSessionId?: string | null,
): Promise<number> {
  const rows = await db
    .delete(userSessions)
    .where(
      keepSessionId
        ? and(eq(userSessions.userId, userId), ne(userSessions.id, keepSessionId))
        : eq(userSessions.userId, userId),
    )
    .returning({ id: userSessions.id });
  return rows.length;
}
