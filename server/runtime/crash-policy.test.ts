import { describe, expect, it } from "vitest";
import {
  backoffDelayMs,
  backoffRemainingMs,
  type CrashPolicy,
  crashTimesWith,
  isSuppressed,
  MAX_BACKOFF_WAIT_MS,
  suppressedMessage,
  tooLongToWait,
} from "./crash-policy";

const policy: CrashPolicy = {
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  crashLimit: 3,
  crashWindowMs: 60_000,
};

describe("crash policy", () => {
  it("doubles the backoff per recent crash up to the maximum", () => {
    expect([0, 1, 2, 3, 4].map((n) => backoffDelayMs(n, policy))).toEqual([500, 500, 1_000, 2_000, 4_000]);
    expect(backoffDelayMs(20, policy)).toBe(30_000);
  });

  it("waits only while crashed, counting from the crash", () => {
    const crashed = { state: "crashed", crashedAt: 10_000, crashTimes: [9_000, 10_000] };
    expect(backoffRemainingMs(crashed, policy, 10_000)).toBe(1_000);
    expect(backoffRemainingMs(crashed, policy, 10_400)).toBe(600);
    expect(backoffRemainingMs(crashed, policy, 12_000)).toBe(0);
    expect(backoffRemainingMs({ ...crashed, state: "running" }, policy, 10_000)).toBe(0);
    expect(backoffRemainingMs({ ...crashed, crashedAt: null }, policy, 10_000)).toBe(0);
  });

  it("keeps only crashes within the window and suppresses at the limit", () => {
    expect(crashTimesWith([0, 30_000], 70_000, policy)).toEqual([30_000, 70_000]);
    expect(crashTimesWith([], 5, policy)).toEqual([5]);
    expect(isSuppressed(2, policy)).toBe(false);
    expect(isSuppressed(3, policy)).toBe(true);
    expect(suppressedMessage(policy)).toBe(
      "the local tool server crashed 3 times within 60 s and is suppressed until an administrator restarts it",
    );
  });

  it("defers rather than wait longer than the call's timeout or the cap", () => {
    expect(tooLongToWait(MAX_BACKOFF_WAIT_MS, undefined)).toBe(false);
    expect(tooLongToWait(MAX_BACKOFF_WAIT_MS + 1, undefined)).toBe(true);
    expect(tooLongToWait(1_500, 1_000)).toBe(true);
    expect(tooLongToWait(900, 1_000)).toBe(false);
    expect(tooLongToWait(MAX_BACKOFF_WAIT_MS + 1, 60_000)).toBe(true);
  });
});
