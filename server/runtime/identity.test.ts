import { describe, expect, it } from "vitest";
import type { LaunchSpec } from "./catalog";
import { type IdentityKeys, type StdioTarget, slotIdentity } from "./identity";

const launch: LaunchSpec = {
  catalogCommandId: "cmd-1",
  catalogCommand: "lab",
  fixture: "lab",
  command: null,
  args: [],
  passEnv: [],
  env: {},
  secretEnvNames: ["API_TOKEN"],
  allowNetwork: false,
  allowWorkspace: false,
  requiresIsolation: false,
  idleTtlMs: null,
};

const keys = (over: Partial<IdentityKeys> = {}): IdentityKeys => ({
  scopeKey: Buffer.alloc(32, 7),
  supervisorId: "host/1/100",
  isDirectory: () => true,
  ...over,
});

function target(
  over: Partial<StdioTarget> = {},
  template: Partial<StdioTarget["template"]> = {},
): StdioTarget {
  return {
    companyId: "co-1",
    connection: { id: "conn-1", companyId: "co-1", stdioTemplateId: "tpl-1" },
    template: {
      id: "tpl-1",
      companyId: "co-1",
      command: "lab",
      args: [],
      allowedEnvKeys: [],
      cwdPolicy: "none",
      trustScope: "company",
      perRunSlot: false,
      status: "active",
      catalogCommandId: "cmd-1",
      slotValues: {},
      ...template,
    } as StdioTarget["template"],
    env: {},
    secretValues: [],
    ...over,
  };
}

describe("slotIdentity", () => {
  it("is deterministic for equal inputs", () => {
    const a = slotIdentity(target(), launch, keys());
    const b = slotIdentity(target(), launch, keys());
    expect(a.key).toBe(b.key);
    expect(a.key).toMatch(/^[0-9a-f]{64}$/);
    expect(a.identity).toEqual({
      companyId: "co-1",
      connectionId: "conn-1",
      templateId: "tpl-1",
      workspaceScope: "none",
      credentialScope: "none",
      trustScope: "company",
      runId: null,
    });
  });

  it("separates supervisors, launches and credential sets", () => {
    const base = slotIdentity(target({ env: { API_TOKEN: "a" } }), launch, keys()).key;
    expect(
      slotIdentity(target({ env: { API_TOKEN: "a" } }), launch, keys({ supervisorId: "other" })).key,
    ).not.toBe(base);
    expect(
      slotIdentity(target({ env: { API_TOKEN: "a" } }), { ...launch, args: ["-v"] }, keys()).key,
    ).not.toBe(base);
    expect(slotIdentity(target({ env: { API_TOKEN: "b" } }), launch, keys()).key).not.toBe(base);
  });

  it("keys the credential scope without revealing the secret, independent of key order", () => {
    const one = slotIdentity(target({ env: { A: "canary-secret-1", B: "x" } }), launch, keys());
    const two = slotIdentity(target({ env: { B: "x", A: "canary-secret-1" } }), launch, keys());
    expect(one.identity.credentialScope).toBe(two.identity.credentialScope);
    expect(one.identity.credentialScope).toMatch(/^env:[0-9a-f]{24}$/);
    expect(JSON.stringify(one.identity)).not.toContain("canary-secret-1");
    const otherKey = slotIdentity(
      target({ env: { A: "canary-secret-1", B: "x" } }),
      launch,
      keys({ scopeKey: Buffer.alloc(32, 9) }),
    );
    expect(otherKey.identity.credentialScope).not.toBe(one.identity.credentialScope);
  });

  it("includes the run only for per-run templates", () => {
    expect(slotIdentity(target({ runId: "run-1" }), launch, keys()).identity.runId).toBeNull();
    const perRun = (runId: string) => slotIdentity(target({ runId }, { perRunSlot: true }), launch, keys());
    expect(perRun("run-1").identity.runId).toBe("run-1");
    expect(perRun("run-1").key).not.toBe(perRun("run-2").key);
  });

  it("refuses a template of another company or connection, and a disabled one", () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as { code?: string }).code;
      }
      return "no error";
    };
    expect(code(() => slotIdentity(target({}, { companyId: "co-2" }), launch, keys()))).toBe(
      "unsafe_command_template",
    );
    expect(
      code(() =>
        slotIdentity(
          target({ connection: { id: "conn-1", companyId: "co-1", stdioTemplateId: "tpl-2" } }),
          launch,
          keys(),
        ),
      ),
    ).toBe("unsafe_command_template");
    expect(code(() => slotIdentity(target({}, { status: "disabled" }), launch, keys()))).toBe(
      "unsafe_command_template",
    );
  });

  it("requires an absolute, existing workspace for workspace templates", () => {
    const ws = (over: Partial<StdioTarget>, k = keys()) => {
      try {
        return slotIdentity(target(over, { cwdPolicy: "project_workspace" }), launch, k);
      } catch (err) {
        return (err as { code?: string }).code;
      }
    };
    expect(ws({})).toBe("workspace_unavailable");
    expect(ws({ workspaceDir: "relative/dir" })).toBe("workspace_unavailable");
    expect(ws({ workspaceDir: "/tmp/a\0b" })).toBe("workspace_unavailable");
    expect(ws({ workspaceDir: "/tmp/w" }, keys({ isDirectory: () => false }))).toBe("workspace_unavailable");
    expect(
      ws(
        { workspaceDir: "/tmp/w" },
        keys({
          isDirectory: () => {
            throw new Error("ENOENT");
          },
        }),
      ),
    ).toBe("workspace_unavailable");
    const ok = ws({ workspaceDir: "/tmp/w/../w", workspaceScope: "project:p1" });
    expect(typeof ok).toBe("object");
    if (typeof ok === "object") {
      expect(ok.spec.workspaceDir).toBe("/tmp/w");
      expect(ok.identity.workspaceScope).toBe("project:p1");
    }
    const unnamed = ws({ workspaceDir: "/tmp/w" });
    if (typeof unnamed === "object") expect(unnamed.identity.workspaceScope).toMatch(/^dir:[0-9a-f]{16}$/);
  });
});
