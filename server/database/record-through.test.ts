import { afterEach, describe, expect, it } from "vitest";
import { databaseBreaker } from "./breaker";
import { RecordingAbandoned, recordThroughOutage } from "./record-through";

const refused = () => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

afterEach(() => databaseBreaker().reset());

describe("recordThroughOutage", () => {
  it("retries a write through database failures until it lands", async () => {
    let attempts = 0;
    const value = await recordThroughOutage(async () => {
      attempts++;
      if (attempts < 3) throw refused();
      return "recorded";
    }, 5000);
    expect(value).toBe("recorded");
    expect(attempts).toBe(3);
  });

  it("throws any other error at once (a statement the database refused is not an outage)", async () => {
    let attempts = 0;
    const bad = Object.assign(new Error("check constraint"), { code: "23514" });
    await expect(
      recordThroughOutage(async () => {
        attempts++;
        throw bad;
      }, 5000),
    ).rejects.toBe(bad);
    expect(attempts).toBe(1);
  });

  it("gives up past its deadline with RecordingAbandoned, carrying the last failure", async () => {
    const started = performance.now();
    const err = await recordThroughOutage(async () => {
      throw refused();
    }, 400).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordingAbandoned);
    expect((err as RecordingAbandoned).last).toMatchObject({ code: "ECONNREFUSED" });
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
