import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decide } from "./decide";
import type { AccessRequest, AccessSnapshot, Decision } from "./types";

// Replays every `fixtures/policy/<case>/input.json` through the real engine and compares the
// decision with `expected.json`, which holds a SUBSET of the Decision:
// - `effects` and `matchedPolicyIds` are compared as sets (order and duplicates do not matter);
// - `rateLimitState` and `target` are partial objects (or null);
// - every other key is compared with deep equality.
// A key that the Decision does not have fails the case, so a typo cannot silently pass.

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/policy");
const MIN_CASES = 50;

interface FixtureInput {
  description: string;
  snapshot: AccessSnapshot;
  request: AccessRequest;
}

const caseNames = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const readJson = (name: string, file: string): unknown =>
  JSON.parse(readFileSync(path.join(FIXTURES, name, file), "utf8"));

const SET_KEYS = new Set(["effects", "matchedPolicyIds"]);
const PARTIAL_KEYS = new Set(["rateLimitState", "target"]);

function expectDecisionMatches(decision: Decision, expected: Record<string, unknown>) {
  expect(Object.keys(expected).length, "expected.json must name at least one key").toBeGreaterThan(0);
  for (const [key, want] of Object.entries(expected)) {
    expect(Object.hasOwn(decision, key), `expected.json key \`${key}\` is not a Decision key`).toBe(true);
    const got = (decision as unknown as Record<string, unknown>)[key];
    if (SET_KEYS.has(key)) {
      expect(Array.isArray(want), `\`${key}\` must be an array in expected.json`).toBe(true);
      expect([...new Set(got as unknown[])].sort(), key).toEqual([...new Set(want as unknown[])].sort());
    } else if (PARTIAL_KEYS.has(key) && want !== null) {
      expect(typeof want, `\`${key}\` must be an object or null in expected.json`).toBe("object");
      expect(got, key).not.toBeNull();
      expect(got, key).toMatchObject(want as Record<string, unknown>);
    } else {
      expect(got, key).toEqual(want);
    }
  }
}

describe("policy fixtures", () => {
  it(`has at least ${MIN_CASES} cases, each with input.json and expected.json`, () => {
    expect(caseNames.length).toBeGreaterThanOrEqual(MIN_CASES);
    for (const name of caseNames) {
      expect(existsSync(path.join(FIXTURES, name, "input.json")), `${name}/input.json`).toBe(true);
      expect(existsSync(path.join(FIXTURES, name, "expected.json")), `${name}/expected.json`).toBe(true);
    }
  });

  it("rejects an expected key that the Decision does not have", () => {
    const decision = decide(
      {
        companyId: "c",
        applications: [],
        connections: [],
        catalog: [],
        profiles: [],
        bindings: [],
        policies: [],
        trustRules: [],
      },
      {
        purpose: "call",
        context: { companyId: "c", agentId: "a", sessionValid: true },
        target: { toolName: "x__y" },
        now: "2024-06-04T10:30:00Z",
      },
    );
    expect(() => expectDecisionMatches(decision, { reasonCode: "tool_not_found" })).not.toThrow();
    expect(() => expectDecisionMatches(decision, { reason: "tool_not_found" })).toThrow();
    expect(() => expectDecisionMatches(decision, { effects: ["allow"] })).toThrow();
  });

  it.each(caseNames)("%s", (name) => {
    const input = readJson(name, "input.json") as FixtureInput;
    const expected = readJson(name, "expected.json") as Record<string, unknown>;
    expect(typeof input.description, "input.json needs a description").toBe("string");
    expect(input.snapshot, "input.json needs a snapshot").toBeTypeOf("object");
    expect(input.request, "input.json needs a request").toBeTypeOf("object");
    const decision = decide(input.snapshot, input.request);
    expectDecisionMatches(decision, expected);
  });
});
