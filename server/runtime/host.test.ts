import { describe, expect, it } from "vitest";
import { isolationPlan, resetHostCaches, stdioHostState } from "./host";

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
  it("not root, no sandbox: slots are not isolated (commands requiring isolation are refused)", () => {
    expect(isolationPlan(env({}), 1000)).toMatchObject({
      ok: true,
      mode: "none",
      isolated: false,
      slotUser: null,
    });
  });

  it("root: slots run as nobody, never as uid 0", () => {
    resetHostCaches();
    const plan = isolationPlan(env({}), 0);
    expect(plan).toMatchObject({ ok: true, mode: "uid", isolated: true });
    if (plan.ok) expect(plan.slotUser!.uid).not.toBe(0);
  });

  it("root with a uid range: slots get uids of their own", () => {
    resetHostCaches();
    expect(isolationPlan(env({ PAPERCLIP_SLOT_UID_RANGE: "200000-200999" }), 0)).toMatchObject({
      ok: true,
      uidRange: [200000, 200999],
    });
  });

  it.each([
    [{ PAPERCLIP_SLOT_USER: "no-such-user-x" }, "does not exist"],
    [{ PAPERCLIP_SLOT_USER: "root" }, "must not be root"],
    [{ PAPERCLIP_SLOT_USER: "0" }, "must not be root"],
    [{ PAPERCLIP_SLOT_GROUP: "no-such-group-x" }, "does not exist"],
    [{ PAPERCLIP_SANDBOX: "docker" }, "unknown value"],
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
