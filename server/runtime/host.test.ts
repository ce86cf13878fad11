import { describe, expect, it } from "vitest";
import {
  DEFAULT_SLOT_UID_RANGE,
  isolationPlan,
  resetHostCaches,
  sharedUidProblem,
  stdioHostState,
  uidRangeMapped,
} from "./host";

const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv;

describe("stdio on this host", () => {
  it.each([
    [{}, true],
    [{ HOST: "127.0.0.1" }, true],
    [{ HOST: "::1" }, true],
    [{ HOST: "localhost" }, true],
    [{ HOST: "0.0.0.0" }, false],
    [{ HOST: "10.0.0.5" }, false],
    [{ HOST: "0.0.0.0", PAPERCLIP_STDIO: "on" }, true],
    [{ PAPERCLIP_STDIO: "off" }, false],
    [{ PAPERCLIP_STDIO: "yes" }, false],
  ])("%j → %s", (e, enabled) => {
    const state = stdioHostState(env(e));
    expect(state.enabled).toBe(enabled);
    if (!enabled) expect(state.reason).toMatch(/PAPERCLIP_STDIO|not loopback/);
  });
});

describe("isolation plan", () => {
  it("not root, no sandbox: slots are neither isolated nor kept apart", () => {
    expect(isolationPlan(env({}), 1000)).toMatchObject({
      ok: true,
      mode: "none",
      isolated: false,
      separated: false,
      sharedUidAllowed: false,
      uidRange: null,
    });
  });

  it("root without any setting: each slot a uid of its own from the default range, never uid 0", () => {
    resetHostCaches();
    const plan = isolationPlan(env({}), 0);
    expect(plan).toMatchObject({
      ok: true,
      mode: "uid",
      isolated: true,
      separated: true,
      uidRange: [...DEFAULT_SLOT_UID_RANGE],
    });
    expect(DEFAULT_SLOT_UID_RANGE[0]).toBeGreaterThan(65535);
  });

  it("root with a uid range: slots get uids of their own from it", () => {
    resetHostCaches();
    expect(isolationPlan(env({ PAPERCLIP_SLOT_UID_RANGE: "210000-210999" }), 0)).toMatchObject({
      ok: true,
      separated: true,
      uidRange: [210000, 210999],
    });
  });

  it.each([
    [{ PAPERCLIP_SANDBOX: "docker" }, "unknown value"],
    [{ PAPERCLIP_SLOT_SHARED_UID: "yes" }, "PAPERCLIP_SLOT_SHARED_UID"],
    [{ PAPERCLIP_SLOT_UID_RANGE: "0-100" }, "PAPERCLIP_SLOT_UID_RANGE"],
    [{ PAPERCLIP_SLOT_UID_RANGE: "5000-4000" }, "PAPERCLIP_SLOT_UID_RANGE"],
    [{ PAPERCLIP_SLOT_UID_RANGE: "abc" }, "PAPERCLIP_SLOT_UID_RANGE"],
  ])("fails closed for %j", (e, message) => {
    resetHostCaches();
    const plan = isolationPlan(env(e), 0);
    expect(plan.ok).toBe(false);
    if (!plan.ok) expect(plan.message).toContain(message);
  });
});

describe("slots with bound secrets on a host that cannot keep slots apart", () => {
  const notRoot = (e: Record<string, string> = {}) => isolationPlan(env(e), 1000);

  it("are refused on a shared uid, and only with secrets", () => {
    expect(sharedUidProblem(notRoot(), true)).toMatch(/PAPERCLIP_SLOT_SHARED_UID=allow/);
    expect(sharedUidProblem(notRoot(), false)).toBeNull();
  });

  it("start when the operator opts in explicitly, or when slots get uids of their own", () => {
    expect(sharedUidProblem(notRoot({ PAPERCLIP_SLOT_SHARED_UID: "allow" }), true)).toBeNull();
    expect(sharedUidProblem(notRoot({ PAPERCLIP_SLOT_SHARED_UID: "deny" }), true)).not.toBeNull();
    expect(sharedUidProblem(isolationPlan(env({}), 0), true)).toBeNull();
  });
});

describe("uidRangeMapped", () => {
  it("accepts a range the user namespace maps, in one span or several", () => {
    expect(uidRangeMapped([200000, 265535], "         0          0 4294967295\n")).toBe(true);
    expect(uidRangeMapped([100, 300], "0 1000 200\n200 5000 101\n")).toBe(true);
    expect(uidRangeMapped([200000, 265535], null)).toBe(true);
  });

  it("refuses a range a rootless container does not map, even partly", () => {
    expect(uidRangeMapped([200000, 265535], "0 100000 65536\n")).toBe(false);
    expect(uidRangeMapped([60000, 70000], "0 100000 65536\n")).toBe(false);
    expect(uidRangeMapped([100, 300], "0 1000 200\n201 5000 100\n")).toBe(false);
  });
});
