import { createHash } from "node:crypto";
import { and, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signInThrottles } from "@/db/schema";

/**
 * Sign-in throttling, decided by PostgreSQL so it holds across replicas. Two counters are
 * charged for every attempt: the account's (hash of the normalised email, whether or not an
 * account exists, so the answer reveals nothing) and the source's (hash of the client
 * address from `requestSource`, TRUST_PROXY-aware). Numbers are in docs/accounts.md.
 */
export interface ThrottleRule {
  /** Failures allowed inside one window; the next attempt is refused. */
  limit: number;
  windowMs: number;
  /** Lock after the limit is reached; doubled per consecutive lockout when `exponential`. */
  lockMs: number;
  maxLockMs: number;
  exponential: boolean;
}

const MINUTE = 60_000;
export const ACCOUNT_RULE: ThrottleRule = {
  limit: 5,
  windowMs: 15 * MINUTE,
  lockMs: 15 * MINUTE,
  maxLockMs: 24 * 60 * MINUTE,
  exponential: true,
};
export const SOURCE_RULE: ThrottleRule = {
  limit: 50,
  windowMs: 15 * MINUTE,
  lockMs: 15 * MINUTE,
  maxLockMs: 15 * MINUTE,
  exponential: false,
};
/** Consecutive lockouts are forgotten after a day without failures. */
const LOCKOUT_MEMORY_MS = 24 * 60 * MINUTE;

const sha256 = (v: string) => createHash("sha256").update(v, "utf8").digest("hex");
export const accountKey = (email: string) => `account:${sha256(email.trim().toLowerCase())}`;
export const sourceKey = (source: string) => `source:${sha256(source)}`;
export const sourceHash = (source: string) => sha256(source);

type Row = typeof signInThrottles.$inferSelect;
export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

/** The throttle rows of these keys. */
const onKeys = (keys: ThrottleKey[]) =>
  inArray(
    signInThrottles.key,
    keys.map((k) => k.key),
  );

/** A row as it stands at `now`: served locks and expired windows start over. */
function normalise(row: Row, rule: ThrottleRule, now: Date): Row {
  const r = { ...row };
  const t = now.getTime();
  if (t - r.updatedAt.getTime() > LOCKOUT_MEMORY_MS) r.lockouts = 0;
  if (r.lockedUntil && r.lockedUntil.getTime() <= t) {
    r.lockedUntil = null;
    r.failures = 0;
    r.windowStartedAt = now;
  } else if (!r.lockedUntil && r.windowStartedAt.getTime() + rule.windowMs <= t) {
    r.failures = 0;
    r.windowStartedAt = now;
  }
  return r;
}

async function lockRows(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], keys: ThrottleKey[], now: Date) {
  await tx
    .insert(signInThrottles)
    .values(keys.map((k) => ({ key: k.key, windowStartedAt: now, updatedAt: now })))
    .onConflictDoNothing();
  // Locked in key order, so two attempts sharing both keys cannot deadlock.
  const rows = await tx
    .select()
    .from(signInThrottles)
    .where(onKeys(keys))
    .orderBy(signInThrottles.key)
    .for("update");
  return keys.map((k) => ({ ...k, row: normalise(rows.find((r) => r.key === k.key)!, k.rule, now) }));
}

async function write(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], row: Row, now: Date) {
  await tx
    .update(signInThrottles)
    .set({
      failures: row.failures,
      windowStartedAt: row.windowStartedAt,
      lockedUntil: row.lockedUntil,
      lockouts: row.lockouts,
      updatedAt: now,
    })
    .where(sql`${signInThrottles.key} = ${row.key}`);
}

/**
 * Reserves one attempt on every key before the password is checked: the attempt counts as a
 * failure until it succeeds, so parallel guesses cannot overrun a limit. Refused (with the
 * milliseconds until a retry can succeed) while any key is locked or full.
 */
export async function reserveAttempt(
  db: Db,
  keys: ThrottleKey[],
  now: Date,
): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
  return db
    .transaction(async (tx) => {
      const rows = await lockRows(tx, keys, now);
      let retryAfterMs = 0;
      for (const { row, rule } of rows) {
        if (row.lockedUntil) retryAfterMs = Math.max(retryAfterMs, row.lockedUntil.getTime() - now.getTime());
        else if (row.failures >= rule.limit)
          retryAfterMs = Math.max(
            retryAfterMs,
            row.windowStartedAt.getTime() + rule.windowMs - now.getTime(),
          );
      }
      if (retryAfterMs > 0) return { ok: false as const, retryAfterMs };
      for (const { row } of rows) await write(tx, { ...row, failures: row.failures + 1 }, now);
      return { ok: true as const };
    })
    .finally(() => {
      // Rows idle for longer than any lock or memory are dead weight (sprays create one per
      // email); about one attempt in a hundred sweeps them.
      if (Math.random() < 0.01) void pruneThrottles(db, now).catch(() => {});
    });
}

/** Deletes counters untouched for longer than the longest lock and the lockout memory. */
export async function pruneThrottles(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - Math.max(LOCKOUT_MEMORY_MS, ACCOUNT_RULE.maxLockMs) - MINUTE);
  const rows = await db
    .delete(signInThrottles)
    .where(
      and(
        lt(signInThrottles.updatedAt, cutoff),
        or(isNull(signInThrottles.lockedUntil), lt(signInThrottles.lockedUntil, now)),
      ),
    )
    .returning({ key: signInThrottles.key });
  return rows.length;
}

/**
 * Settles a reserved attempt. A failure that reaches a limit starts a lock (doubling for the
 * account with each consecutive lockout); returns whether a lock started. A success clears
 * the account counter and gives the source its reservation back.
 */
export async function settleAttempt(
  db: Db,
  keys: ThrottleKey[],
  success: boolean,
  now: Date,
): Promise<{ locked: boolean }> {
  return db.transaction(async (tx) => {
    const rows = await lockRows(tx, keys, now);
    let locked = false;
    for (const { row, rule, key } of rows) {
      if (success) {
        if (key.startsWith("account:"))
          await write(tx, { ...row, failures: 0, lockouts: 0, lockedUntil: null, windowStartedAt: now }, now);
        else await write(tx, { ...row, failures: Math.max(0, row.failures - 1) }, now);
      } else if (row.failures >= rule.limit && !row.lockedUntil) {
        const factor = rule.exponential ? 2 ** Math.min(row.lockouts, 16) : 1;
        const ms = Math.min(rule.lockMs * factor, rule.maxLockMs);
        await write(
          tx,
          { ...row, lockedUntil: new Date(now.getTime() + ms), lockouts: row.lockouts + 1 },
          now,
        );
        locked = true;
      }
    }
    return { locked };
  });
}

/** Read-only: milliseconds until an attempt on these keys can be made (0 when it can now). */
export async function throttleRetryAfterMs(db: Db, keys: ThrottleKey[], now: Date): Promise<number> {
  const rows = await db.select().from(signInThrottles).where(onKeys(keys));
  let ms = 0;
  for (const k of keys) {
    const raw = rows.find((r) => r.key === k.key);
    if (!raw) continue;
    const row = normalise(raw, k.rule, now);
    if (row.lockedUntil) ms = Math.max(ms, row.lockedUntil.getTime() - now.getTime());
    else if (row.failures >= k.rule.limit)
      ms = Math.max(ms, row.windowStartedAt.getTime() + k.rule.windowMs - now.getTime());
  }
  return ms;
}

/** The throttle keys of a sign-in attempt. */
export function signInKeys(email: string, source: string): ThrottleKey[] {
  return [
    { key: accountKey(email), rule: ACCOUNT_RULE },
    { key: sourceKey(source), rule: SOURCE_RULE },
  ];
}
