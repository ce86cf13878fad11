/**
 * When a crashed runtime slot may restart, and when it is suppressed (pure: time is an input).
 * A crashed slot restarts after an exponential backoff (`backoffBaseMs · 2^(n-1)`, capped at
 * `backoffMaxMs`, n = recent crashes); `crashLimit` crashes within `crashWindowMs` suppress it
 * until an administrator restarts it.
 */
import type { RuntimeConfig } from "./config";

export type CrashPolicy = Pick<
  RuntimeConfig,
  "backoffBaseMs" | "backoffMaxMs" | "crashLimit" | "crashWindowMs"
>;

/** A call waits at most this long for a crashed slot's backoff; longer → deferred. */
export const MAX_BACKOFF_WAIT_MS = 5_000;

/** The restart delay after the `crashes`-th recent crash (at least the first). */
export function backoffDelayMs(crashes: number, policy: CrashPolicy): number {
  const n = Math.max(1, crashes);
  return Math.min(policy.backoffBaseMs * 2 ** (n - 1), policy.backoffMaxMs);
}

/** How long a slot in `state` must still wait before it may restart (0 unless crashed). */
export function backoffRemainingMs(
  slot: { state: string; crashedAt: number | null; crashTimes: readonly number[] },
  policy: CrashPolicy,
  now: number,
): number {
  if (slot.state !== "crashed" || slot.crashedAt === null) return 0;
  return Math.max(0, slot.crashedAt + backoffDelayMs(slot.crashTimes.length, policy) - now);
}

/** Whether a call should be deferred rather than wait `waitMs` for a restart. */
export function tooLongToWait(waitMs: number, timeoutMs: number | undefined): boolean {
  return waitMs > Math.min(MAX_BACKOFF_WAIT_MS, timeoutMs ?? MAX_BACKOFF_WAIT_MS);
}

/** The crash times still within the window once a crash at `now` is added. */
export function crashTimesWith(times: readonly number[], now: number, policy: CrashPolicy): number[] {
  return [...times.filter((t) => now - t < policy.crashWindowMs), now];
}

/** Whether this many crashes within the window suppress the slot. */
export function isSuppressed(recentCrashes: number, policy: CrashPolicy): boolean {
  return recentCrashes >= policy.crashLimit;
}

/** What a call to a suppressed slot is told. */
export function suppressedMessage(policy: CrashPolicy): string {
  return `the local tool server crashed ${policy.crashLimit} times within ${Math.round(policy.crashWindowMs / 1000)} s and is suppressed until an administrator restarts it`;
}
