import { describe, expect, it } from "vitest";
import { containsSpelling, secretSpellings } from "./secret-spellings";
import { knownSecrets, MAX_SUMMARY_BYTES, REDACTED, summarize } from "./summarize";

// Assembled at run time: no credential-shaped literal in the source.
const SECRET = ["canary", "Summ4ry", "Value", "9xQ"].join("-");

/** Every encoding issue 34 found reflected to an agent, plus the ones summaries already caught. */
function encodings(v: string): Record<string, string> {
  const b = Buffer.from(v, "utf8");
  return {
    raw: v,
    json: JSON.stringify(`a"${v}`).slice(1, -1),
    url: encodeURIComponent(`${v}/x y`),
    base64: b.toString("base64"),
    base64url: b.toString("base64url"),
    hex: b.toString("hex"),
    hexUpper: b.toString("hex").toUpperCase(),
    reversed: [...v].reverse().join(""),
    upper: v.toUpperCase(),
    lower: v.toLowerCase(),
    // Inside a longer encoded stream, at each of the three byte alignments.
    base64Offset1: Buffer.from(`x${v}tail`).toString("base64"),
    base64Offset2: Buffer.from(`xy${v}tail`).toString("base64"),
    base64urlOffset1: Buffer.from(`?${v}>>`).toString("base64url"),
  };
}

describe("secretSpellings", () => {
  const spellings = secretSpellings([SECRET]);

  for (const [name, text] of Object.entries(encodings(SECRET))) {
    it(`finds the ${name} spelling`, () => {
      expect(containsSpelling(`before ${text} after`, spellings)).toBe(true);
    });
  }

  it("ignores values under four characters, and derives no encodings under eight", () => {
    expect(secretSpellings(["abc"])).toEqual([]);
    expect(secretSpellings(["abcd"])).toEqual(["abcd"]);
    expect(secretSpellings(["abcdefg"])).not.toContain("ABCDEFG");
    expect(secretSpellings(["abcdefgh"])).toContain("ABCDEFGH");
  });

  it("orders longest first, so a value that contains another is matched whole", () => {
    const s = secretSpellings(["short-secret", "short-secret-and-longer"]);
    expect(s.indexOf("short-secret-and-longer")).toBeLessThan(s.indexOf("short-secret"));
  });

  it("does not match unrelated text", () => {
    expect(containsSpelling("an ordinary sentence about canaries and summaries", spellings)).toBe(false);
  });
});

describe("summarize with known secrets", () => {
  const known = knownSecrets([SECRET]);

  it("redacts every encoding of a known value, in strings at any depth", () => {
    const args = Object.fromEntries(Object.entries(encodings(SECRET)).map(([k, v]) => [`f_${k}`, v]));
    const s = summarize({ ...args, nested: { list: [`x ${SECRET} y`] } }, [], known);
    expect(JSON.stringify(s.summary)).not.toContain(SECRET);
    for (const k of Object.keys(args)) expect(s.summary[k]).toBe(REDACTED);
    expect(s.summary.nested).toEqual({ list: [REDACTED] });
    expect(s.redactions).toContain("/f_base64");
  });

  it("redacts a key that holds a secret, numbering several", () => {
    const s = summarize({ [SECRET]: 1, [`${SECRET}-2`]: 2, plain: 3 }, [], known);
    expect(JSON.stringify(s.summary)).not.toContain(SECRET);
    expect(s.summary).toEqual({ [REDACTED]: 1, [`${REDACTED}#2`]: 2, plain: 3 });
  });

  it("redacts keys in the shape kept for a summary over the size bound", () => {
    const big = {
      [SECRET]: "x".repeat(150),
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, "y".repeat(150)])),
    };
    const s = summarize(big, [], known);
    expect(s.summary.truncated).toBe(true);
    expect(JSON.stringify(s.summary)).not.toContain(SECRET);
    expect(s.summary.keys).toContain(REDACTED);
    expect(s.bytes).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
  });

  it("accepts raw values as well as a prepared set", () => {
    expect(summarize({ a: SECRET }, [], [SECRET]).summary).toEqual({ a: REDACTED });
  });

  it("keeps values that are not secret", () => {
    expect(summarize({ title: "buy milk", n: 3 }, [], known).summary).toEqual({ title: "buy milk", n: 3 });
  });
});
