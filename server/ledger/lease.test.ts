import { afterEach, describe, expect, it } from "vitest";
import { bootId, LEASE_ENV, leaseMs, newLease } from "./lease";

describe("execution leases", () => {
  afterEach(() => {
    delete process.env[LEASE_ENV];
  });

  it("lasts 30 s unless PAPERCLIP_EXECUTION_LEASE_MS says otherwise, within bounds", () => {
    expect(leaseMs()).toBe(30_000);
    process.env[LEASE_ENV] = "2000";
    expect(leaseMs()).toBe(2000);
    for (const bad of ["0", "499", "600001", "1.5", "soon"]) {
      process.env[LEASE_ENV] = bad;
      expect(() => leaseMs(), bad).toThrow(LEASE_ENV);
    }
  });

  it("names its owner by host, pid and a boot id made once per process; each claim has its own token", () => {
    const a = newLease();
    const b = newLease();
    expect(a.leasePid).toBe(process.pid);
    expect(a.leaseHost).toBeTruthy();
    expect(a.leaseBootId).toBe(bootId());
    expect(b.leaseBootId).toBe(a.leaseBootId);
    expect(b.leaseToken).not.toBe(a.leaseToken);
  });
});
