import { afterEach, describe, expect, it } from "vitest";
import { isServiceError } from "../errors";
import {
  beginDrain,
  callsInFlight,
  isDraining,
  onDrain,
  resetDrain,
  shutdownGraceMs,
  trackCall,
  waitForCalls,
} from "./drain";

afterEach(() => {
  resetDrain();
  delete process.env.PAPERCLIP_SHUTDOWN_GRACE_MS;
});

describe("draining", () => {
  it("refuses a new call with server_draining before running it", async () => {
    beginDrain();
    let ran = false;
    const err = await trackCall(async () => {
      ran = true;
    }).catch((e: unknown) => e);
    expect(ran).toBe(false);
    expect(isServiceError(err) && err.code).toBe("server_draining");
    expect(isServiceError(err) && err.status).toBe(503);
    expect(isServiceError(err) && err.details?.retryAfterSeconds).toBe(1);
  });

  it("lets a call admitted before the drain finish, and waits for it", async () => {
    let finish!: () => void;
    const call = trackCall(() => new Promise<string>((r) => (finish = () => r("done"))));
    expect(callsInFlight()).toBe(1);
    beginDrain();
    expect(isDraining()).toBe(true);
    const waited = waitForCalls(5000);
    setTimeout(() => finish(), 30);
    await expect(call).resolves.toBe("done");
    await expect(waited).resolves.toBe(true);
    expect(callsInFlight()).toBe(0);
  });

  it("gives up waiting after the grace period with the call still in flight", async () => {
    let finish!: () => void;
    const call = trackCall(() => new Promise<void>((r) => (finish = r)));
    beginDrain();
    await expect(waitForCalls(50)).resolves.toBe(false);
    finish();
    await call;
  });

  it("tells drain listeners once, at once", () => {
    let told = 0;
    onDrain(() => told++);
    beginDrain();
    beginDrain();
    expect(told).toBe(1);
    onDrain(() => told++); // already draining: called now
    expect(told).toBe(2);
  });

  it("reads the grace period from PAPERCLIP_SHUTDOWN_GRACE_MS (default 25 s, bad values ignored)", () => {
    expect(shutdownGraceMs()).toBe(25_000);
    process.env.PAPERCLIP_SHUTDOWN_GRACE_MS = "4000";
    expect(shutdownGraceMs()).toBe(4000);
    process.env.PAPERCLIP_SHUTDOWN_GRACE_MS = "soon";
    expect(shutdownGraceMs()).toBe(25_000);
    process.env.PAPERCLIP_SHUTDOWN_GRACE_MS = "0";
    expect(shutdownGraceMs()).toBe(0);
  });
});
