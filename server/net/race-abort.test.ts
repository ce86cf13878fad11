import { describe, expect, it } from "vitest";
import { raceAbort, timeoutAfter } from "./race-abort";

describe("timeoutAfter", () => {
  it("passes the value or the error through when the promise settles in time", async () => {
    await expect(timeoutAfter(Promise.resolve(1), 1_000, () => new Error("late"))).resolves.toBe(1);
    await expect(
      timeoutAfter(Promise.reject(new Error("own")), 1_000, () => new Error("late")),
    ).rejects.toThrow("own");
  });

  it("rejects with onTimeout() when the time runs out first", async () => {
    const never = new Promise<never>(() => {});
    await expect(timeoutAfter(never, 20, () => new Error("late"))).rejects.toThrow("late");
  });
});

describe("raceAbort", () => {
  it("rejects with the signal's reason, at once when it is already aborted", async () => {
    const c = new AbortController();
    const p = raceAbort(new Promise<never>(() => {}), c.signal);
    c.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
    await expect(raceAbort(Promise.resolve(1), c.signal)).rejects.toThrow("stop");
  });
});
