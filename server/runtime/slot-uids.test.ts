import { describe, expect, it } from "vitest";
import { liveUids, pickSlotUid } from "./slot-uids";

describe("pickSlotUid", () => {
  it("picks a uid inside the range that no one holds", () => {
    const taken = new Set([200000, 200001, 200003]);
    for (const r of [0, 0.1, 0.5, 0.99, 0.999999]) {
      const uid = pickSlotUid([200000, 200004], taken, () => r);
      expect(uid).not.toBeNull();
      expect(uid).toBeGreaterThanOrEqual(200000);
      expect(uid).toBeLessThanOrEqual(200004);
      expect(taken.has(uid!)).toBe(false);
    }
  });

  it("wraps around from its random start", () => {
    // Start at the last uid, which is taken: the next free one is at the range's beginning.
    expect(pickSlotUid([10, 13], new Set([13]), () => 0.99)).toBe(10);
  });

  it("never hands out one uid twice while it is held", () => {
    const taken = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const uid = pickSlotUid([300000, 300099], taken);
      expect(uid).not.toBeNull();
      expect(taken.has(uid!)).toBe(false);
      taken.add(uid!);
    }
    expect(taken.size).toBe(100);
    // Full: null, never a uid outside the range or a duplicate.
    expect(pickSlotUid([300000, 300099], taken)).toBeNull();
    // Released: available again.
    taken.delete(300042);
    expect(pickSlotUid([300000, 300099], taken)).toBe(300042);
  });

  it("returns null for an empty range", () => {
    expect(pickSlotUid([5, 4], new Set())).toBeNull();
  });
});

describe("liveUids", () => {
  it.runIf(process.platform === "linux")("includes this process's own uid", () => {
    expect(liveUids().has(process.getuid!())).toBe(true);
  });
});
