import { describe, expect, it } from "vitest";
import { CAPABILITIES, roleHas } from "./capabilities";

describe("role capabilities", () => {
  it("owners hold every capability", () => {
    for (const c of CAPABILITIES) expect(roleHas("owner", c)).toBe(true);
  });

  it("viewers only read", () => {
    expect(CAPABILITIES.filter((c) => roleHas("viewer", c))).toEqual(["company:read"]);
  });

  it("members use tools but cannot change tool access or read audit", () => {
    expect(roleHas("member", "tools:use")).toBe(true);
    expect(roleHas("member", "tools:approve")).toBe(true);
    for (const c of [
      "tools:admin",
      "tools:manage_connections",
      "tools:manage_profiles",
      "tools:view_audit",
      "tools:manage_runtime",
      "agents:manage",
    ] as const) {
      expect(roleHas("member", c)).toBe(false);
    }
  });

  it("admins manage tools but not memberships", () => {
    expect(roleHas("admin", "tools:admin")).toBe(true);
    expect(roleHas("admin", "members:manage")).toBe(false);
  });
});
