import { describe, expect, it } from "vitest";
import { ISSUE_STATUSES } from "@/server/contracts/values";
import { allowedTransitions, canTransition, ISSUE_TRANSITIONS, isRunnable } from "./issue-transitions";

describe("the issue status machine", () => {
  it("names every status, and only known statuses, as a source and a target", () => {
    expect(Object.keys(ISSUE_TRANSITIONS).sort()).toEqual([...ISSUE_STATUSES].sort());
    for (const [from, targets] of Object.entries(ISSUE_TRANSITIONS)) {
      for (const to of targets) expect(ISSUE_STATUSES, `${from} → ${to}`).toContain(to);
      expect(targets, `${from} lists itself`).not.toContain(from);
    }
  });

  it("lets only a person reopen done or cancelled work", () => {
    expect(canTransition("done", "todo", true)).toBe(true);
    expect(canTransition("done", "todo", false)).toBe(false);
    expect(canTransition("cancelled", "backlog", false)).toBe(false);
    expect(allowedTransitions("done", false)).toEqual([]);
  });

  it("refuses finishing blocked or backlog work and blocking finished work", () => {
    expect(canTransition("blocked", "done", true)).toBe(false);
    expect(canTransition("backlog", "done", true)).toBe(false);
    expect(canTransition("done", "blocked", true)).toBe(false);
    expect(canTransition("in_progress", "done", false)).toBe(true);
  });

  it("treats staying in a status as no transition, and wakes agents only on todo and in progress", () => {
    for (const s of ISSUE_STATUSES) expect(canTransition(s, s, false)).toBe(true);
    expect(ISSUE_STATUSES.filter(isRunnable)).toEqual(["todo", "in_progress"]);
  });
});
