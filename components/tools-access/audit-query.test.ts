import { describe, expect, it } from "vitest";
import {
  type AuditFilterParams,
  callsQuery,
  callsQueryKey,
  fromLocalInput,
  toLocalInput,
} from "./audit-query";

const none: AuditFilterParams = {
  from: null,
  to: null,
  agent: null,
  tool: null,
  decision: null,
  outcome: null,
  event: null,
};

describe("audit URL filters", () => {
  it("map the URL's names onto the API's", () => {
    const q = callsQuery(
      { ...none, agent: "a1", event: "approval_rejected", decision: "deny", tool: "  git " },
      "calls",
      { runId: "r1" },
    );
    expect(q).toMatchObject({
      kind: "calls",
      agentId: "a1",
      eventType: "approval_rejected",
      decision: "deny",
      tool: "git",
      runId: "r1",
    });
  });

  it("drop the outcome for events without a call", () => {
    expect(callsQuery({ ...none, outcome: "failed" }, "other").outcome).toBeUndefined();
    expect(callsQuery({ ...none, outcome: "failed" }, "calls").outcome).toBe("failed");
  });

  it("key a query the same whatever the order and the empty values", () => {
    expect(callsQueryKey({ b: "2", a: "1", c: undefined })).toBe(callsQueryKey({ a: "1", b: "2", c: "" }));
    expect(callsQueryKey({ a: "1" })).not.toBe(callsQueryKey({ a: "2" }));
  });

  it("round-trip a local date-time through the URL's UTC instant", () => {
    const iso = fromLocalInput("2026-12-01T09:30")!;
    expect(iso).toMatch(/Z$/);
    expect(toLocalInput(iso)).toBe("2026-12-01T09:30");
    expect(fromLocalInput("")).toBeNull();
    expect(toLocalInput("nonsense")).toBe("");
    expect(toLocalInput(null)).toBe("");
  });
});
