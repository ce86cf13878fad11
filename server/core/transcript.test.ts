import { describe, expect, it } from "vitest";
import { transcriptEntry } from "./transcript";

const call = (over: Partial<Parameters<typeof transcriptEntry>[0]>) =>
  transcriptEntry({
    decision: "allow",
    reasonCode: null,
    executionStatus: "succeeded",
    approvalState: "none",
    upstreamError: false,
    ...over,
  });

describe("a run transcript's entry", () => {
  it("shows an approved call that ran as approved and run, not as approval_required", () => {
    const e = call({
      decision: "approval_required",
      approvalState: "consumed",
      executionStatus: "succeeded",
    });
    expect(e).toMatchObject({ label: "Approved · succeeded", tone: "success" });
    expect(e.code).toContain("approval_required");
  });

  it("does not call a tool error a success", () => {
    expect(call({ upstreamError: true })).toMatchObject({
      label: "the tool returned an error",
      tone: "danger",
    });
    expect(call({})).toMatchObject({ label: "succeeded", tone: "success" });
  });

  it("names waiting, declined, expired, denied, rate-limited and unknown outcomes", () => {
    expect(
      call({ decision: "approval_required", approvalState: "pending", executionStatus: "awaiting_approval" })
        .label,
    ).toBe("Waiting for approval");
    expect(
      call({ decision: "approval_required", approvalState: "declined", executionStatus: "denied" }).label,
    ).toBe("Declined by a reviewer");
    expect(call({ decision: "approval_required", approvalState: "expired" }).label).toBe("Approval expired");
    expect(call({ decision: "deny", reasonCode: "not_in_profile", executionStatus: "denied" })).toMatchObject(
      {
        label: "Denied",
        code: "deny · not_in_profile",
      },
    );
    expect(call({ decision: "rate_limited" }).tone).toBe("warning");
    expect(call({ executionStatus: "outcome_unknown" }).label).toMatch(/outcome unknown/);
    expect(call({ executionStatus: "running" }).tone).toBe("info");
  });
});
