import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { dummyPasswordHash, verifyPassword } from "./password";
import { createUserSession } from "./sessions";
import { reserveAttempt, settleAttempt, signInKeys, sourceHash, throttleRetryAfterMs } from "./throttle";

export const SignInInput = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(1).max(1024),
});

/** 401 `invalid_credentials`: one answer for an unknown email, a wrong password and a disabled account. */
export const invalidCredentials = () =>
  new ServiceError("invalid_credentials", "email or password is incorrect");

/** 429 `sign_in_throttled`, with the seconds until an attempt can succeed (also sent as Retry-After). */
export function signInThrottled(retryAfterMs: number): ServiceError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new ServiceError(
    "sign_in_throttled",
    `too many sign-in attempts: try again in ${minutes} minute${minutes === 1 ? "" : "s"}`,
    { retryAfterSeconds: seconds },
  );
}

export interface SignInOptions {
  /** The client address as `requestSource` reports it (hashed before storage). */
  source: string;
  userAgent?: string | null;
  now: Date;
  requestId?: string;
}

/**
 * Checks email + password under the sign-in throttle and opens a browser session. Unknown
 * users are checked against a dummy hash so timing does not reveal which emails have
 * accounts. Every attempt is recorded in the activity log (never the password, never the
 * raw address or an unknown email). Throws `sign_in_throttled` (429) while the account or
 * the source is locked — even for the right password — or `invalid_credentials` (401).
 */
export async function signInWithPassword(
  db: Db,
  raw: unknown,
  opts: SignInOptions,
): Promise<{ user: { id: string; email: string; name: string | null }; sid: string; expiresAt: Date }> {
  const parsed = SignInInput.safeParse(raw);
  if (!parsed.success) throw invalidCredentials();
  const { email, password } = parsed.data;
  const srcHash = sourceHash(opts.source);
  const keys = signInKeys(email, opts.source);
  const reserved = await reserveAttempt(db, keys, opts.now);
  if (!reserved.ok) throw signInThrottled(reserved.retryAfterMs);

  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  const ok = Boolean(user && passwordOk && !user.disabledAt);
  const ctx: ServiceContext = {
    db,
    actor: user
      ? { type: "user", userId: user.id, email: user.email }
      : { type: "system", reason: "sign-in" },
    requestId: opts.requestId ?? `signin_${opts.now.getTime().toString(36)}`,
    now: () => opts.now,
  };
  const { locked } = await settleAttempt(db, keys, ok, opts.now);
  const details = {
    source: srcHash.slice(0, 16),
    // An unknown email is not written down (people type passwords into the email field).
    account: user ? null : keys[0]!.key.slice(8, 24),
    reason: ok ? null : !user ? "unknown_account" : user.disabledAt ? "disabled" : "wrong_password",
  };
  if (!ok) {
    await db.transaction(async (tx) => {
      await logActivity(tx, ctx, {
        companyId: null,
        action: "auth.sign_in_failed",
        entityType: "user",
        entityId: user?.id ?? null,
        details,
      });
      if (locked)
        await logActivity(tx, ctx, {
          companyId: null,
          action: "auth.sign_in_locked",
          entityType: "user",
          entityId: user?.id ?? null,
          details: { source: details.source, account: details.account },
        });
    });
    throw invalidCredentials();
  }
  return db.transaction(async (tx) => {
    await tx.update(users).set({ lastSignInAt: opts.now }).where(eq(users.id, user!.id));
    const session = await createUserSession(tx, user!.id, {
      now: opts.now,
      sourceHash: srcHash,
      userAgent: opts.userAgent,
    });
    await logActivity(tx, ctx, {
      companyId: null,
      action: "auth.sign_in",
      entityType: "user",
      entityId: user!.id,
      details: { source: details.source },
    });
    return { user: { id: user!.id, email: user!.email, name: user!.name }, ...session };
  });
}

/** For the sign-in page's message: how long until this email may try again from this source. */
export async function signInRetryAfterMs(db: Db, email: string, source: string, now: Date): Promise<number> {
  const parsed = SignInInput.shape.email.safeParse(email);
  return parsed.success ? throttleRetryAfterMs(db, signInKeys(parsed.data, source), now) : 0;
}
