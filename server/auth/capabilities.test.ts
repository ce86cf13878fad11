import { describe, expect, it } from "vitest";
import { boardKeyEffectiveRole, CAPABILITIES, roleHas } from "./capabilities";

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

describe("boardKeyEffectiveRole", () => {
  const key = (
    role: string,
    creatorRole: string | null,
    extra: Partial<{ creatorId: string | null; creatorDisabledAt: Date | null }> = {},
  ) => boardKeyEffectiveRole({ role, creatorRole, creatorId: "u", creatorDisabledAt: null, ...extra });

  it("acts with the lesser of the key's role and the creator's current role", () => {
    expect(key("admin", "owner")).toBe("admin");
    expect(key("admin", "admin")).toBe("admin");
    expect(key("admin", "member")).toBe("member");
    expect(key("member", "admin")).toBe("member");
    expect(key("admin", "viewer")).toBe("viewer");
  });

  it("is dead without a current, enabled creator", () => {
    expect(key("admin", null)).toBeNull();
    expect(key("admin", "owner", { creatorId: null })).toBeNull();
    expect(key("admin", "owner", { creatorDisabledAt: new Date() })).toBeNull();
    expect(key("superuser", "owner")).toBeNull();
    expect(key("admin", "emperor")).toBeNull();
  });
});
