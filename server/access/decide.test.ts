import { afterEach, describe, expect, it, vi } from "vitest";
import { POLICY_KINDS } from "../contracts/values";
import { allCases, caseInput } from "../testing/policy-fixtures";
import { decide, MAX_ARGUMENT_BYTES } from "./decide";
import {
  type AccessRequest,
  type AccessSnapshot,
  type Decision,
  REASON_CODES,
  type SnapshotPolicy,
} from "./types";

// Properties of `decide` that are awkward to write as fixtures: robustness against junk,
// determinism, purity and the list/call agreement. The world below mirrors the fixtures.

const COMPANY = "6d1f0e52-3c5a-4f0b-9a47-1c2d3e4f5a01";
const AGENT = "0c9b7a15-2e4d-4b6f-8a10-9f8e7d6c5b01";
const APP = "a3b2c1d0-1111-4a2b-9c3d-4e5f6a7b8c01";
const CONN = "b4c3d2e1-2222-4b3c-8d4e-5f6a7b8c9d01";
const STDIO_APP = "a3b2c1d0-1111-4a2b-9c3d-4e5f6a7b8c02";
const STDIO_CONN = "b4c3d2e1-2222-4b3c-8d4e-5f6a7b8c9d02";
const SEND = "e5d4c3b2-3333-4c4d-9e5f-6a7b8c9d0e01";
const LIST = "e5d4c3b2-3333-4c4d-9e5f-6a7b8c9d0e02";
const TODO_ADD = "e5d4c3b2-3333-4c4d-9e5f-6a7b8c9d0e03";
const PROFILE = "f6e5d4c3-4444-4d5e-8f60-7b8c9d0e1f01";

function snapshot(policies: unknown[] = []): AccessSnapshot {
  return {
    companyId: COMPANY,
    applications: [
      { id: APP, slug: "outbox", type: "remote_mcp", status: "active" },
      { id: STDIO_APP, slug: "todo", type: "stdio_mcp", status: "active" },
    ],
    connections: [
      {
        id: CONN,
        applicationId: APP,
        status: "active",
        enabled: true,
        healthStatus: "ok",
        transport: "http",
      },
      {
        id: STDIO_CONN,
        applicationId: STDIO_APP,
        status: "active",
        enabled: true,
        healthStatus: "ok",
        transport: "stdio",
        templateSafe: true,
      },
    ],
    catalog: [
      { id: SEND, connectionId: CONN, name: "send_email", status: "active", risk: "write", schemaHash: "h1" },
      { id: LIST, connectionId: CONN, name: "drafts_list", status: "active", risk: "read", schemaHash: "h2" },
      {
        id: TODO_ADD,
        connectionId: STDIO_CONN,
        name: "todo_add",
        status: "active",
        risk: "write",
        schemaHash: "h3",
      },
    ],
    profiles: [
      {
        id: PROFILE,
        name: "All tools",
        status: "active",
        entries: [{ id: "e1", mode: "include", selector: { type: "tool_glob", glob: "*" } }],
      },
    ],
    bindings: [{ id: "b1", profileId: PROFILE, targetType: "company", targetId: null }],
    policies: policies as SnapshotPolicy[],
    trustRules: [],
  };
}

function request(over: Partial<AccessRequest> = {}): AccessRequest {
  return {
    purpose: "call",
    context: { companyId: COMPANY, agentId: AGENT, runId: "r1", sessionValid: true },
    target: { toolName: "outbox__send_email" },
    arguments: { to: "ops@acme.example", subject: "hi" },
    now: "2024-06-04T10:30:00Z",
    ...over,
  };
}

/** Invariants every decision keeps, whatever the input. */
function expectWellFormed(d: Decision) {
  expect(REASON_CODES).toContain(d.reasonCode);
  expect(d.allowed).toBe(d.reasonCode === "allowed");
  expect(d.effects.includes("allow")).toBe(d.allowed);
  if (d.allowed) expect(d.visibility).toBe("visible");
  expect(Array.isArray(d.matchedPolicyIds)).toBe(true);
  expect(Array.isArray(d.explanation)).toBe(true);
  expect(JSON.parse(JSON.stringify(d))).toEqual(d); // plain JSON data
}

describe("decide never throws on junk", () => {
  it("deeply nested arguments are refused, not a stack overflow", () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < 200_000; i++) {
      const next: Record<string, unknown> = {};
      node.a = next;
      node = next;
    }
    const d = decide(snapshot(), request({ arguments: root }));
    expectWellFormed(d);
    expect(d.reasonCode).toBe("arguments_invalid");
  });

  it("deeply nested arguments with argument conditions on them still decide", () => {
    let nested: unknown = "leaf";
    for (let i = 0; i < 50_000; i++) nested = [nested];
    const policies = [
      {
        id: "p-block",
        kind: "block",
        priority: 1,
        enabled: true,
        selectors: { catalogEntryIds: [SEND] },
        conditions: { arguments: [{ path: "/x/0/0/0/0/0/0", op: "exists" }] },
        effect: {},
      },
    ];
    const d = decide(snapshot(policies), request({ arguments: { x: nested } }));
    expectWellFormed(d);
    expect(d.reasonCode).toBe("policy_block");
  });

  it("wide and oversized arguments are refused with arguments_invalid", () => {
    const wide: Record<string, number> = {};
    for (let i = 0; i < 50_000; i++) wide[`k${i}`] = i;
    expect(decide(snapshot(), request({ arguments: wide })).reasonCode).toBe("arguments_invalid");
    const longArray = new Array(1_000_000).fill(0);
    expect(decide(snapshot(), request({ arguments: { list: longArray } })).reasonCode).toBe(
      "arguments_invalid",
    );
  });

  it("arguments that are not JSON (circular, BigInt, functions, symbols) do not throw", () => {
    const circular: Record<string, unknown> = { to: "x" };
    circular.self = circular;
    for (const args of [circular, { n: 10n }]) {
      const d = decide(snapshot(), request({ arguments: args }));
      expectWellFormed(d);
      expect(d.reasonCode).toBe("arguments_invalid");
    }
    for (const args of [() => 1, Symbol("x"), 42, true, "text", [1, 2]]) {
      const d = decide(snapshot(), request({ arguments: args }));
      expectWellFormed(d);
      expect(d.reasonCode).toBe("arguments_invalid");
    }
  });

  it("accepts arguments of exactly MAX_ARGUMENT_BYTES and refuses one byte more", () => {
    const overhead = JSON.stringify({ body: "" }).length;
    const exact = { body: "x".repeat(MAX_ARGUMENT_BYTES - overhead) };
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(MAX_ARGUMENT_BYTES);
    expect(decide(snapshot(), request({ arguments: exact })).reasonCode).toBe("allowed");
    const over = { body: `${exact.body}x` };
    expect(decide(snapshot(), request({ arguments: over })).reasonCode).toBe("arguments_invalid");
    // bytes, not characters: 2-byte characters count twice
    const multibyte = { body: "é".repeat(Math.ceil((MAX_ARGUMENT_BYTES - overhead) / 2) + 1) };
    expect(decide(snapshot(), request({ arguments: multibyte })).reasonCode).toBe("arguments_invalid");
  });

  it("policies with null or junk selectors, conditions, effects, kinds and priorities", () => {
    const junk: unknown[] = [null, undefined, 0, 1, -1, "", "x", true, [], [null], {}, { a: 1 }, Number.NaN];
    const fields = ["selectors", "conditions", "effect", "kind", "priority"] as const;
    const base = {
      id: "p",
      name: "junk",
      kind: "block",
      priority: 1,
      enabled: true,
      selectors: {},
      conditions: {},
      effect: {},
    };
    for (const field of fields) {
      for (const value of junk) {
        const p = { ...base, [field]: value };
        for (const purpose of ["call", "list"] as const) {
          const d = decide(snapshot([p]), request({ purpose }));
          expectWellFormed(d);
          expect(d.allowed, `${field}: ${String(value)}`).toBe(false);
        }
      }
    }
  });

  it("selectors: null means no selectors: the policy applies to every tool", () => {
    const p = {
      id: "p",
      kind: "block",
      priority: 1,
      enabled: true,
      selectors: null,
      conditions: null,
      effect: null,
    };
    for (const toolName of ["outbox__send_email", "outbox__drafts_list", "todo__todo_add"]) {
      const d = decide(snapshot([p]), request({ target: { toolName } }));
      expect(d.reasonCode, toolName).toBe("policy_block");
    }
  });

  it("a fuzzed set of half-broken policies never throws and keeps the decision invariants", () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const kinds = [...POLICY_KINDS, "nope"];
    const selectors = [
      {},
      null,
      { catalogEntryIds: [SEND] },
      { applicationIds: [APP] },
      { connectionIds: [CONN] },
      { toolGlobs: ["outbox.*"] },
      { toolGlobs: [""] },
      { risks: ["write", "bogus"] },
      { agentIds: [AGENT] },
      { agentIds: [] },
      "junk",
    ];
    const conditions = [
      {},
      null,
      { arguments: [{ path: "/to", op: "suffix", value: "@acme.example" }] },
      { arguments: [{ path: "to", op: "suffix", value: "x" }] },
      { timeWindow: { start: "09:00", end: "17:00" } },
      { timeWindow: { start: "9", end: "17:00" } },
      { requireIssue: true },
      [],
    ];
    const effects = [{}, null, { paths: ["/body"] }, { limit: 1, windowSeconds: 60 }, { limit: 0 }, "x"];
    for (let round = 0; round < 300; round++) {
      const policies = Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, i) => ({
        id: `p${i}`,
        kind: pick(kinds),
        priority: pick([0, 1, 100, -3, Number.NaN]),
        enabled: pick([true, true, false]),
        selectors: pick(selectors),
        conditions: pick(conditions),
        effect: pick(effects),
      }));
      const req = request({
        purpose: pick(["call", "list"] as const),
        arguments: pick([{ to: "a@acme.example" }, [], null, { body: "x" }]),
        rateLimits: pick<Record<string, { tokens: number }> | undefined>([
          undefined,
          { p0: { tokens: 0 } },
          { p1: { tokens: 0.5 } },
        ]),
        approvalVerified: pick([undefined, true]),
      });
      let d: Decision | undefined;
      expect(() => {
        d = decide(snapshot(policies), req);
      }, JSON.stringify({ policies, req })).not.toThrow();
      expectWellFormed(d!);
      if (d!.reasonCode === "policy_malformed") expect(d!.visibility).toBe("hidden");
    }
  });

  it("trust rules with junk constraints do not throw and do not stand in for approval", () => {
    const s = snapshot([
      {
        id: "p-approve",
        kind: "require_approval",
        priority: 1,
        enabled: true,
        selectors: {},
        conditions: {},
        effect: {},
      },
    ]);
    for (const argumentConstraints of ["junk", [{ path: "to", op: "exists" }], [{ op: "nope" }], 42]) {
      s.trustRules = [
        {
          id: "t1",
          catalogEntryId: SEND,
          schemaHash: "h1",
          scopeType: "company",
          scopeId: null,
          argumentConstraints,
          maxUses: null,
          useCount: 0,
          expiresAt: null,
          status: "active",
        },
      ];
      const d = decide(structuredClone(s), request());
      expectWellFormed(d);
      expect(d.reasonCode).toBe("approval_required");
      expect(d.trustRuleId).toBeNull();
    }
  });

  it("unknown profile selector types, modes and binding levels grant nothing", () => {
    const s = snapshot();
    s.profiles[0]!.entries = [
      { id: "e1", mode: "include", selector: { type: "everything" } as never },
      { id: "e2", mode: "maybe" as never, selector: { type: "tool_glob", glob: "*" } },
      { id: "e3", mode: "include", selector: { type: "tool_glob" } as never },
    ];
    expect(decide(s, request()).reasonCode).toBe("not_in_profile");
    const s2 = snapshot();
    s2.bindings = [{ id: "b1", profileId: PROFILE, targetType: "workspace" as never, targetId: "w" }];
    expect(decide(s2, request()).reasonCode).toBe("not_in_profile");
  });
});

describe("rate limits", () => {
  /** The `p-rate` rate-limit policy with this effect (and selectors). */
  const ratePolicy = (effect: Record<string, unknown>, selectors: Record<string, unknown> = {}) => ({
    id: "p-rate",
    kind: "rate_limit",
    priority: 1,
    enabled: true,
    selectors,
    conditions: {},
    effect,
  });
  // EXPECTED TO FAIL until compile.ts de-duplicates ids within a selector list (or
  // candidatePolicies always de-duplicates): a policy listing the same catalog entry twice is
  // evaluated twice, so the caller is told to consume two tokens for one call.
  it("a policy that names the same entry twice applies once", () => {
    const p = ratePolicy({ limit: 5, windowSeconds: 60 }, { catalogEntryIds: [SEND, SEND] });
    const d = decide(snapshot([p]), request());
    expect(d.reasonCode).toBe("allowed");
    expect(d.rateLimits).toHaveLength(1);
    expect(d.matchedPolicyIds).toEqual(["p-rate"]);
  });

  it("retryAfterMs is the exact time for the missing fraction of a token to refill", () => {
    const cases: [limit: number, windowSeconds: number, tokens: number, retry: number][] = [
      [10, 60, 0, 6_000],
      [10, 60, 0.5, 3_000],
      [10, 60, -1, 6_000], // a negative count is junk: read as an empty bucket
      [3, 60, 0, 20_000],
      [7, 60, 0, 8_572], // 8571.43 rounded up
      [1, 86_400, 0, 86_400_000],
    ];
    for (const [limit, windowSeconds, tokens, retry] of cases) {
      const p = ratePolicy({ limit, windowSeconds, per: "company" });
      const d = decide(snapshot([p]), request({ rateLimits: { "p-rate": { tokens } } }));
      expect(d.reasonCode).toBe("rate_limited");
      expect(d.retryAfterMs, JSON.stringify({ limit, windowSeconds, tokens })).toBe(retry);
    }
  });

  it("more tokens than the limit are capped at the limit", () => {
    const p = ratePolicy({ limit: 5, windowSeconds: 60 });
    const d = decide(snapshot([p]), request({ rateLimits: { "p-rate": { tokens: 1e9 } } }));
    expect(d.rateLimits[0]?.tokens).toBe(5);
    expect(d.rateLimits[0]?.scopeKey).toBe(`agent:${AGENT}`);
  });
});

// ---------------------------------------------------------------- determinism and purity over every fixture
const fixtures = allCases.map((c) => ({ name: c.name, ...caseInput(c) }));

describe("determinism and purity", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the same input gives the same decision (same object, a fresh copy, policies in another order)", () => {
    for (const f of fixtures) {
      const first = decide(f.snapshot, f.request);
      expect(decide(f.snapshot, f.request), f.name).toEqual(first);
      expect(decide(structuredClone(f.snapshot), structuredClone(f.request)), f.name).toEqual(first);
      const reordered = { ...structuredClone(f.snapshot), policies: [...f.snapshot.policies].reverse() };
      expect(decide(reordered, f.request), f.name).toEqual(first);
    }
  });

  it("memoised indexes never carry one request's context into another", () => {
    // The compiled snapshot caches per-tool work. Deciding a matrix of contexts and tools in
    // one order and, on a fresh copy of the snapshot, in the reverse order must agree.
    const other = "99999999-9999-4999-8999-999999999999";
    for (const f of fixtures) {
      const ctx = f.request.context;
      const requests: AccessRequest[] = [];
      const names = f.snapshot.catalog.map((e) => ({ catalogEntryId: e.id }));
      for (const agentId of [ctx.agentId, other])
        for (const issueId of [ctx.issueId ?? other, null])
          for (const routineId of [ctx.routineId ?? other, null])
            for (const target of names)
              for (const purpose of ["call", "list"] as const)
                requests.push({
                  ...f.request,
                  purpose,
                  target,
                  arguments: {},
                  context: { ...ctx, agentId, issueId, routineId },
                });
      const shared = f.snapshot;
      const forward = requests.map((r) => decide(shared, r));
      const fresh = structuredClone(f.snapshot);
      const backward = [...requests].reverse().map((r) => decide(fresh, r));
      backward.reverse();
      for (let i = 0; i < requests.length; i++) {
        expect(forward[i], `${f.name} ${JSON.stringify(requests[i]!.context)}`).toEqual(backward[i]);
      }
    }
  }, 60_000); // a matrix of every fixture × context × tool: seconds on a loaded machine

  it("does not read the wall clock", () => {
    for (const f of fixtures) {
      vi.useFakeTimers();
      vi.setSystemTime(new Date("2001-01-01T03:00:00Z"));
      const early = decide(structuredClone(f.snapshot), f.request);
      vi.setSystemTime(new Date("2099-12-31T22:00:00Z"));
      const late = decide(structuredClone(f.snapshot), f.request);
      vi.useRealTimers();
      expect(late, f.name).toEqual(early);
    }
  });

  it("does not mutate its inputs", () => {
    for (const f of fixtures) {
      const snapshotBefore = structuredClone(f.snapshot);
      const requestBefore = structuredClone(f.request);
      decide(f.snapshot, f.request);
      expect(f.snapshot, f.name).toEqual(snapshotBefore);
      expect(f.request, f.name).toEqual(requestBefore);
    }
  });

  it("every fixture decision is well-formed", () => {
    for (const f of fixtures) expectWellFormed(decide(f.snapshot, f.request));
  });
});

describe("tools/list and tools/call agree", () => {
  const asList = (r: AccessRequest): AccessRequest => {
    const { arguments: _ignored, ...rest } = r;
    return { ...rest, purpose: "list" };
  };

  it("a tool hidden from the list refuses a direct call; an allowed call is listed", () => {
    for (const f of fixtures) {
      const call: AccessRequest = { ...f.request, purpose: "call" };
      const listed = decide(f.snapshot, asList(f.request));
      const called = decide(f.snapshot, call);
      if (listed.visibility === "hidden") expect(called.allowed, f.name).toBe(false);
      if (called.allowed) expect(listed.visibility, f.name).toBe("visible");
    }
  });

  it("hidden decisions never carry an approval card", () => {
    for (const f of fixtures) {
      const d = decide(f.snapshot, f.request);
      if (d.visibility === "hidden") expect(d.effects, f.name).not.toContain("require_approval");
      if (d.reasonCode === "approval_required") expect(d.visibility, f.name).toBe("visible");
    }
  });
});
