import { describe, expect, it } from "vitest";
import {
  allCases,
  caseInput,
  patchRequest,
  patchSnapshot,
  readJson,
  world,
} from "../testing/policy-fixtures";
import { decide } from "./decide";
import type { Decision } from "./types";

// Replays every case of `fixtures/policy/cases/<family>.json` (see server/testing/policy-fixtures.ts
// for the case format) through the real engine. `expected` holds a SUBSET of the Decision:
// `effects` and `matchedPolicyIds` compare as sets, `rateLimitState` and `target` as partial
// objects (or null), every other key with deep equality. A key the Decision does not have
// fails the case, so a typo cannot silently pass.

const MIN_CASES = 200;

const SET_KEYS = new Set(["effects", "matchedPolicyIds"]);
const PARTIAL_KEYS = new Set(["rateLimitState", "target"]);

function expectDecisionMatches(decision: Decision, expected: Record<string, unknown>) {
  expect(Object.keys(expected).length, "`expected` must name at least one key").toBeGreaterThan(0);
  for (const [key, want] of Object.entries(expected)) {
    expect(Object.hasOwn(decision, key), `expected key \`${key}\` is not a Decision key`).toBe(true);
    const got = (decision as unknown as Record<string, unknown>)[key];
    if (SET_KEYS.has(key)) {
      expect(Array.isArray(want), `\`${key}\` must be an array in \`expected\``).toBe(true);
      expect([...new Set(got as unknown[])].sort(), key).toEqual([...new Set(want as unknown[])].sort());
    } else if (PARTIAL_KEYS.has(key) && want !== null) {
      expect(typeof want, `\`${key}\` must be an object or null in \`expected\``).toBe("object");
      expect(got, key).not.toBeNull();
      expect(got, key).toMatchObject(want as Record<string, unknown>);
    } else {
      expect(got, key).toEqual(want);
    }
  }
}

describe("policy fixtures", () => {
  it(`has at least ${MIN_CASES} cases with unique kebab-case names that start with their family`, () => {
    expect(allCases.length).toBeGreaterThanOrEqual(MIN_CASES);
    const names = allCases.map((c) => c.name);
    expect(new Set(names).size, "case names must be unique").toBe(names.length);
    for (const c of allCases) {
      expect(c.name, "kebab-case").toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.name.startsWith(c.family), `${c.name} belongs in cases/${c.name.split("-")[0]}….json`).toBe(
        true,
      );
      expect(typeof c.description, `${c.name} needs a description`).toBe("string");
      expect(
        Object.keys(c).filter(
          (k) => !["name", "description", "patch", "request", "expected", "family"].includes(k),
        ),
      ).toEqual([]);
    }
  });

  it("rejects an expected key that the Decision does not have", () => {
    const decision = decide(world.snapshot, {
      ...world.request,
      target: { toolName: "github__issues_list" },
    });
    expect(() => expectDecisionMatches(decision, { reasonCode: decision.reasonCode })).not.toThrow();
    expect(() => expectDecisionMatches(decision, { reason: decision.reasonCode })).toThrow();
  });

  it("rejects a patch that removes an entity or sets a key the world does not have", () => {
    expect(() => patchSnapshot(world.snapshot, { policies: { "no-such-id": null } })).toThrow(
      /does not have/,
    );
    expect(() => patchSnapshot(world.snapshot, { polices: {} })).toThrow(/not part of the world/);
    expect(() => patchRequest(world.request, { $remove: ["nope"] })).toThrow(/does not have/);
  });

  it.each(allCases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const { snapshot, request } = caseInput(c);
    const decision = decide(snapshot, request);
    expectDecisionMatches(decision, c.expected);
  });
});

describe("policy requirements", () => {
  const { requirements } = readJson("requirements.json") as {
    requirements: Record<string, { rule: string; cases: string[] }>;
  };
  const names = new Set(allCases.map((c) => c.name));

  it.each(Object.entries(requirements))("%s is pinned by existing cases", (_id, req) => {
    expect(req.rule.length).toBeGreaterThan(0);
    expect(req.cases.length, `no case pins: ${req.rule}`).toBeGreaterThan(0);
    for (const name of req.cases)
      expect(names.has(name), `requirement cites unknown case \`${name}\``).toBe(true);
  });

  it("covers every step of the ADR's precedence", () => {
    for (const step of [
      "hard.company_mismatch",
      "hard.archived_app",
      "hard.disabled_connection",
      "hard.missing_secret",
      "hard.invalid_session",
      "hard.unsafe_template",
      "block.explicit",
      "approval.required",
      "profile.membership",
      "content.validation",
      "rate_limit",
      "runtime.defer",
      "default_deny",
    ]) {
      expect(requirements[step], `no requirement entry for \`${step}\``).toBeDefined();
    }
  });
});
