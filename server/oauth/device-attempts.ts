/**
 * Attempts at a device login's user code on `/mcp-device` (RFC 8628 §5.1: "the authorization
 * server SHOULD rate-limit user code attempts"). A signed-in person could otherwise walk the
 * code space; each look-up reserves one attempt for the person and one for the source in
 * `sign_in_throttles` (keys `device-user:<sha256>` and `device-source:<sha256>`, the same
 * reserve-then-settle counters as sign-in, so replicas share them). A match gives the
 * reservation back; misses past the limit lock for 15 minutes: 429 `device_code_throttled`
 * with `Retry-After`, audited as `oauth_device.code_throttled`.
 */
import { createHash } from "node:crypto";
import { logActivity } from "../activity/log-activity";
import { reserveAttempt, settleAttempt, type ThrottleKey, type ThrottleRule } from "../auth/throttle";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

const MINUTE = 60_000;
/** Misses a person may make in 15 minutes (a typo or two, never a search of the code space). */
export const DEVICE_USER_RULE: ThrottleRule = {
  limit: 10,
  windowMs: 15 * MINUTE,
  lockMs: 15 * MINUTE,
  maxLockMs: 15 * MINUTE,
  exponential: false,
};
/** Misses one source may make in 15 minutes, over every person signed in from it. */
export const DEVICE_SOURCE_RULE: ThrottleRule = { ...DEVICE_USER_RULE, limit: 30 };

const sha256 = (v: string) => createHash("sha256").update(v, "utf8").digest("hex");

export function deviceAttemptKeys(userId: string, source: string): ThrottleKey[] {
  return [
    { key: `device-source:${sha256(source)}`, rule: DEVICE_SOURCE_RULE },
    { key: `device-user:${sha256(userId)}`, rule: DEVICE_USER_RULE },
  ];
}

/**
 * Runs `lookup` (the user-code match) as one throttled attempt: refused with 429 while the
 * person or the source is locked; a miss (a thrown error) counts, a match does not.
 */
export async function throttledDeviceLookup<T>(
  ctx: ServiceContext,
  userId: string,
  source: string,
  lookup: () => Promise<T>,
): Promise<T> {
  const keys = deviceAttemptKeys(userId, source);
  const now = ctx.now();
  const reserved = await reserveAttempt(ctx.db, keys, now);
  if (!reserved.ok) {
    const seconds = Math.max(1, Math.ceil(reserved.retryAfterMs / 1000));
    await logActivity(ctx.db, ctx, {
      companyId: null,
      action: "oauth_device.code_throttled",
      entityType: "oauth_device_authorization",
      details: { userId, retryAfterSeconds: seconds },
    });
    throw new ServiceError(
      "device_code_throttled",
      `too many device codes tried: try again in ${Math.ceil(seconds / 60)} minute(s)`,
      { retryAfterSeconds: seconds },
    );
  }
  try {
    const found = await lookup();
    await settleAttempt(ctx.db, keys, true, now);
    return found;
  } catch (err) {
    await settleAttempt(ctx.db, keys, false, now);
    throw err;
  }
}
