import { describe, expect, it } from "vitest";
import { admissionVictims, type CapacitySlot, leastRecentlyUsedIdle } from "./capacity";

const slot = (companyId: string, lastUsedAt: number, over: Partial<CapacitySlot> = {}): CapacitySlot => ({
  identity: { companyId },
  holdsProcess: true,
  state: "running",
  inFlight: 0,
  lastUsedAt,
  ...over,
});

describe("admissionVictims", () => {
  it("admits without victims under both caps", () => {
    expect(admissionVictims([slot("a", 1)], "a", { capPerCompany: 2, capPerHost: 2 })).toEqual([]);
  });

  it("evicts the company's least recently used idle slot at the company cap", () => {
    const old = slot("a", 1);
    const recent = slot("a", 5);
    const other = slot("b", 0);
    expect(admissionVictims([recent, old, other], "a", { capPerCompany: 2, capPerHost: 10 })).toEqual([old]);
  });

  it("evicts any company's slot at the host cap", () => {
    const b = slot("b", 1);
    expect(admissionVictims([slot("a", 5), b], "a", { capPerCompany: 5, capPerHost: 2 })).toEqual([b]);
  });

  it("refuses when nothing is evictable or the cap is already exceeded", () => {
    const busy = slot("a", 1, { inFlight: 1 });
    const starting = slot("a", 0, { state: "starting" });
    expect(admissionVictims([busy, starting], "a", { capPerCompany: 2, capPerHost: 10 })).toBeNull();
    expect(
      admissionVictims([slot("a", 1), slot("a", 2)], "a", { capPerCompany: 1, capPerHost: 10 }),
    ).toBeNull();
    expect(admissionVictims([], "a", { capPerCompany: 0, capPerHost: 10 })).toBeNull();
  });

  it("does not count or evict the slot being admitted, nor slots without a process", () => {
    const me = slot("a", 0);
    const crashed = slot("a", 0, { holdsProcess: false, state: "crashed" });
    expect(admissionVictims([me, crashed], "a", { capPerCompany: 1, capPerHost: 1 }, me)).toEqual([]);
  });

  it("takes two different victims when both caps are hit", () => {
    const a1 = slot("a", 1);
    const b1 = slot("b", 2);
    const v = admissionVictims([a1, b1], "a", { capPerCompany: 1, capPerHost: 2 });
    expect(v).toEqual([a1]);
    const a2 = slot("a", 3);
    expect(admissionVictims([a1, a2, b1], "a", { capPerCompany: 2, capPerHost: 2 })).toEqual([a1, b1]);
    const c = slot("c", 0);
    expect(admissionVictims([a1, b1, c], "a", { capPerCompany: 1, capPerHost: 2 })).toEqual([a1, c]);
  });
});

describe("leastRecentlyUsedIdle", () => {
  it("prefers the first on ties", () => {
    const x = slot("a", 1);
    const y = slot("a", 1);
    expect(leastRecentlyUsedIdle([x, y], () => true)).toBe(x);
  });
});
