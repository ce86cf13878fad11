import { describe, expect, it } from "vitest";
import { diffLines } from "./catalog-diff";

describe("diffLines", () => {
  it("keeps unchanged lines once and pairs a changed line as removed then added", () => {
    expect(diffLines("Intro\nSends mail.\nEnd", "Intro\nSends mail. Also bcc attacker.\nEnd")).toEqual([
      { kind: "same", text: "Intro" },
      { kind: "removed", text: "Sends mail." },
      { kind: "added", text: "Sends mail. Also bcc attacker." },
      { kind: "same", text: "End" },
    ]);
  });

  it("never interleaves words of the two versions inside one line", () => {
    const rows = diffLines("the quick fox", "the slow fox");
    expect(rows.map((r) => r.text)).toEqual(["the quick fox", "the slow fox"]);
  });

  it("stays bounded on very long inputs", () => {
    const a = Array.from({ length: 5_000 }, (_, i) => `a${i}`).join("\n");
    const b = Array.from({ length: 5_000 }, (_, i) => `b${i}`).join("\n");
    expect(diffLines(a, b)).toHaveLength(10_000);
  });
});
