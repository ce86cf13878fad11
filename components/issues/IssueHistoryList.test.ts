import { describe, expect, it } from "vitest";
import { describeEvent } from "./IssueHistoryList";

describe("describeEvent", () => {
  it("says what changed in a few words", () => {
    expect(
      describeEvent({ action: "issue.update", details: { changes: { status: { to: "in_review" } } } }),
    ).toBe("moved the issue to In review");
    expect(
      describeEvent({ action: "issue.update", details: { changes: { assigneeAgentId: { to: null } } } }),
    ).toBe("unassigned the issue");
    expect(describeEvent({ action: "issue.block", details: { reason: "no keys" } })).toBe(
      "blocked the issue: no keys",
    );
    expect(
      describeEvent({ action: "issue.document_write", details: { document: "plan", revision: 2 } }),
    ).toBe("wrote document plan (revision 2)");
    expect(describeEvent({ action: "issue.something_new", details: {} })).toBe("Something new");
  });
});
