import { spawn } from "node:child_process";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as boardKeysRoute from "@/app/api/companies/[companyId]/board-keys/route";
import * as effectiveRoute from "@/app/api/companies/[companyId]/tools/agents/[agentId]/effective-tools/route";
import * as auditRoute from "@/app/api/companies/[companyId]/tools/audit/route";
import * as invocationsRoute from "@/app/api/companies/[companyId]/tools/invocations/route";
import * as policyRoute from "@/app/api/companies/[companyId]/tools/policies/[policyId]/route";
import * as policiesRoute from "@/app/api/companies/[companyId]/tools/policies/route";
import * as policyTestRoute from "@/app/api/companies/[companyId]/tools/policies/test/route";
import * as bindingsRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/bindings/route";
import * as entriesRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/entries/route";
import * as previewRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/preview/route";
import * as profileRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/route";
import * as profilesRoute from "@/app/api/companies/[companyId]/tools/profiles/route";
import * as companiesRoute from "@/app/api/companies/route";
import { activityLog, companies, toolCallEvents, toolInvocations, toolPolicies, users } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { hashPassword } from "@/server/auth/password";
import type { DemoCredentials } from "@/server/core/seed";
import { recordAttempt } from "@/server/ledger/record-attempt";
import { call, sessionCookie } from "@/server/testing/api";
import { agentOnlyContext } from "@/server/testing/attempt";
import { type SeededTool, seedApplication } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { clearSnapshotCache, getAccessSnapshot } from "./snapshot";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let agentId: string;
let github: Record<string, SeededTool>;
let profileId: string;

const base = () => `/api/companies/${companyId}/tools`;
const board = () => ({ token: demo.boardApiKey });
/** Creates a policy as the board (the response, for its status and id). */
const addPolicy = (body: Record<string, unknown>) =>
  call<{ id: string }>(policiesRoute.POST, "POST", "/", { ...board(), params: { companyId }, body });

beforeAll(async () => {
  clearSnapshotCache();
  ({ database, demo } = await demoWorld());
  companyId = demo.companyId;
  agentId = demo.agents[0]!.id;
  github = (
    await seedApplication(database.db, companyId, "github", [
      { name: "list_issues", risk: "read" },
      { name: "create_issue", risk: "write" },
      { name: "delete_repo", risk: "destructive" },
      { name: "new_tool", risk: "write", status: "quarantined" },
    ])
  ).tools;
  await seedApplication(database.db, companyId, "gitlab", [{ name: "list_issues", risk: "read" }]);
});

afterAll(async () => {
  await closeDemoWorld(database);
});

async function effectiveToolNames(query: Record<string, string> = {}) {
  const res = await call<{
    tools: { toolName: string; reasons: string[] }[];
    hiddenCount: number;
    hidden: { toolName: string; reasonCode: string; connectionName: string | null }[];
  }>(effectiveRoute.GET, "GET", "/", { ...board(), params: { companyId, agentId }, query });
  expect(res.status).toBe(200);
  return res.json;
}

async function testCall(
  tool: string,
  args: Record<string, unknown> = {},
  extra: Record<string, string> = {},
) {
  const res = await call<{
    decision: {
      allowed: boolean;
      reasonCode: string;
      explanation: string[];
      matchedPolicyIds: string[];
      visibility: string;
    };
    matchedPolicies: { id: string; name: string; kind: string }[];
  }>(policyTestRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { agentId, tool, arguments: args, ...extra },
  });
  expect(res.status).toBe(200);
  return res.json;
}

describe("default deny", () => {
  it("an agent with no bound profile sees no tools and every call is refused", async () => {
    const effective = await effectiveToolNames();
    expect(effective.tools).toEqual([]);
    expect(effective.hiddenCount).toBe(5);
    // The page says which tools are hidden and why: none is in a profile; a quarantined one
    // says so first (the engine checks the catalog state before the profiles).
    expect(effective.hidden).toHaveLength(5);
    expect(effective.hidden.find((h) => h.toolName === "github__new_tool")?.reasonCode).toBe(
      "tool_quarantined",
    );
    expect(new Set(effective.hidden.map((h) => h.reasonCode))).toEqual(
      new Set(["not_in_profile", "tool_quarantined"]),
    );
    expect(effective.hidden.map((h) => h.toolName)).toContain("github__list_issues");
    const t = await testCall("github__list_issues");
    expect(t.decision).toMatchObject({ allowed: false, reasonCode: "not_in_profile", visibility: "hidden" });
    expect(t.decision.explanation.join(" ")).toContain("default deny");
  });
});

describe("profiles", () => {
  it("a profile with a glob include and a risk exclude, bound to the agent, decides visibility", async () => {
    const created = await call<{ id: string }>(profilesRoute.POST, "POST", base(), {
      ...board(),
      params: { companyId },
      body: { name: "GitHub without destructive", description: "Triage work on GitHub" },
    });
    expect(created.status).toBe(201);
    profileId = created.json.id;
    const include = await call(entriesRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId },
      body: { mode: "include", selector: { type: "tool_glob", glob: "github.*" } },
    });
    expect(include.status).toBe(201);
    expect(include.json).toMatchObject({ label: "tools matching github.*" });
    await call(entriesRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId },
      body: { mode: "exclude", selector: { type: "risk", risk: "destructive" } },
    });
    // Before it is bound anywhere, the editor previews what the profile resolves to: the same
    // decide, without bindings or policies, and only tools agents can use now.
    const preview = await call<{
      tools: { toolName: string; risk: string; connectionName: string | null }[];
    }>(previewRoute.GET, "GET", "/", { ...board(), params: { companyId, profileId } });
    expect(preview.status).toBe(200);
    expect(preview.json.tools.map((t) => [t.toolName, t.risk])).toEqual([
      ["github__create_issue", "write"],
      ["github__list_issues", "read"],
    ]);
    const noProfile = await call(previewRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId, profileId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(noProfile.status).toBe(404);
    const binding = await call(bindingsRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId },
      body: { targetType: "agent", targetId: agentId },
    });
    expect(binding.status).toBe(201);
    expect(binding.json).toMatchObject({ targetLabel: "Agent · Triage Bot" });

    const effective = await effectiveToolNames();
    expect(effective.tools.map((t) => t.toolName)).toEqual(["github__create_issue", "github__list_issues"]);
    // Outside the profile (gitlab), excluded (destructive) and quarantined tools never appear.
    expect(effective.hiddenCount).toBe(3);
    expect(Object.fromEntries(effective.hidden.map((h) => [h.toolName, h.reasonCode]))).toEqual({
      github__delete_repo: "not_in_profile",
      github__new_tool: "tool_quarantined",
      gitlab__list_issues: "not_in_profile",
    });
    expect(effective.tools[0]!.reasons.join(" ")).toContain("GitHub without destructive");

    const denied = await testCall("gitlab__list_issues");
    expect(denied.decision).toMatchObject({ allowed: false, reasonCode: "not_in_profile" });
    const excluded = await testCall("github__delete_repo");
    expect(excluded.decision.reasonCode).toBe("not_in_profile");
    expect(excluded.decision.explanation.join(" ")).toContain("excluded by profile");
    const quarantined = await testCall("github__new_tool");
    expect(quarantined.decision.reasonCode).toBe("tool_quarantined");
    const unknown = await testCall("github__no_such_tool");
    expect(unknown.decision.reasonCode).toBe("tool_not_found");
  });

  it("refuses malformed entries and bindings with 400 and foreign ids with 404", async () => {
    const badGlob = await call(entriesRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId },
      body: { mode: "include", selector: { type: "tool_glob", glob: "x".repeat(300) } },
    });
    expect(badGlob.status).toBe(400);
    const missingTarget = await call(bindingsRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId },
      body: { targetType: "agent" },
    });
    expect(missingTarget.status).toBe(400);
    const unknownAgent = await call(bindingsRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId },
      body: { targetType: "agent", targetId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknownAgent.status).toBe(404);
  });

  it("removing an unknown, another profile's or a malformed entry/binding is 404 and removes nothing", async () => {
    const { DELETE: removeBinding } = await import(
      "@/app/api/companies/[companyId]/tools/profiles/[profileId]/bindings/[bindingId]/route"
    );
    const { DELETE: removeEntry } = await import(
      "@/app/api/companies/[companyId]/tools/profiles/[profileId]/entries/[entryId]/route"
    );
    const other = await call<{ id: string }>(profilesRoute.POST, "POST", base(), {
      ...board(),
      params: { companyId },
      body: { name: "Other" },
    });
    const profile = await call<{ entries: { id: string }[]; bindings: { id: string }[] }>(
      profileRoute.GET,
      "GET",
      "/",
      {
        ...board(),
        params: { companyId, profileId },
      },
    );
    const bindingId = profile.json.bindings[0]!.id;
    const entryId = profile.json.entries[0]!.id;
    for (const [handler, params] of [
      [removeBinding, { companyId, profileId: other.json.id, bindingId }],
      [removeBinding, { companyId, profileId, bindingId: "00000000-0000-4000-8000-000000000000" }],
      [removeEntry, { companyId, profileId: other.json.id, entryId }],
      [removeEntry, { companyId, profileId, entryId: "not-an-id" }],
    ] as const) {
      const res = await call(handler, "DELETE", "/", { ...board(), params });
      expect(res.status, JSON.stringify(params)).toBe(404);
    }
    const after = await call<{ entries: unknown[]; bindings: unknown[] }>(profileRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId, profileId },
    });
    expect(after.json.entries).toHaveLength(profile.json.entries.length);
    expect(after.json.bindings).toHaveLength(profile.json.bindings.length);
    // A removal that does happen works and is logged under its own action.
    const added = await call<{ id: string }>(entriesRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId: other.json.id },
      body: { mode: "include", selector: { type: "risk", risk: "read" } },
    });
    const ok = await call(removeEntry, "DELETE", "/", {
      ...board(),
      params: { companyId, profileId: other.json.id, entryId: added.json.id },
    });
    expect(ok.status).toBe(200);
    const logged = await database.db.execute(
      sql`select details from activity_log where action = 'tool_profile.entry_remove'`,
    );
    expect(logged as unknown as { details: { entryId: string } }[]).toContainEqual({
      details: { entryId: added.json.id },
    });
    await call(profileRoute.DELETE, "DELETE", "/", {
      ...board(),
      params: { companyId, profileId: other.json.id },
    });
  });

  it("a narrower issue binding can exclude what the agent binding includes", async () => {
    const issues = await database.db.execute(
      sql`select id from issues where company_id = ${companyId} order by number limit 1`,
    );
    const issueId = (issues as unknown as { id: string }[])[0]!.id;
    const narrow = await call<{ id: string }>(profilesRoute.POST, "POST", base(), {
      ...board(),
      params: { companyId },
      body: { name: "Read-only on this issue" },
    });
    await call(entriesRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId: narrow.json.id },
      body: { mode: "exclude", selector: { type: "risk", risk: "write" } },
    });
    await call(bindingsRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, profileId: narrow.json.id },
      body: { targetType: "issue", targetId: issueId },
    });
    const onIssue = await effectiveToolNames({ issueId });
    expect(onIssue.tools.map((t) => t.toolName)).toEqual(["github__list_issues"]);
    const elsewhere = await effectiveToolNames();
    expect(elsewhere.tools.map((t) => t.toolName)).toEqual(["github__create_issue", "github__list_issues"]);
    await call(profileRoute.DELETE, "DELETE", "/", {
      ...board(),
      params: { companyId, profileId: narrow.json.id },
    });
  });
});

describe("policies", () => {
  let blockId: string;
  it("a block beats an allow of higher priority, and the test panel says why", async () => {
    const allow = await addPolicy({
      name: "Allow gitlab reads",
      kind: "allow",
      priority: 1000,
      selectors: { toolGlobs: ["gitlab.*"], risks: ["read"] },
    });
    expect(allow.status).toBe(201);
    const allowed = await testCall("gitlab__list_issues");
    expect(allowed.decision).toMatchObject({ allowed: true, reasonCode: "allowed" });

    const gitlabAppId = await appIdOf("gitlab");
    const block = await addPolicy({
      name: "No gitlab",
      kind: "block",
      priority: 1,
      selectors: { applicationIds: [gitlabAppId] },
    });
    expect(block.status).toBe(201);
    blockId = block.json.id;
    const blocked = await testCall("gitlab__list_issues");
    expect(blocked.decision).toMatchObject({ allowed: false, reasonCode: "policy_block" });
    expect(blocked.matchedPolicies.map((p) => p.name)).toContain("No gitlab");
    expect(blocked.decision.explanation.join(" ")).toContain("No gitlab");
  });

  it("argument conditions: a block only for some arguments", async () => {
    await call(policyRoute.PATCH, "PATCH", "/", {
      ...board(),
      params: { companyId, policyId: blockId },
      body: { conditions: { arguments: [{ path: "/state", op: "equals", value: "closed" }] } },
    });
    expect((await testCall("gitlab__list_issues", { state: "open" })).decision.allowed).toBe(true);
    expect((await testCall("gitlab__list_issues", { state: "closed" })).decision.reasonCode).toBe(
      "policy_block",
    );
  });

  it("refuses a policy with a bad effect, selector or condition (400) and an unknown kind", async () => {
    for (const body of [
      { name: "x", kind: "rate_limit", effect: { limit: 0, windowSeconds: 60 } },
      { name: "x", kind: "block", selectors: { toolGlobs: [""] } },
      { name: "x", kind: "block", conditions: { timeWindow: { start: "25:00", end: "26:00" } } },
      { name: "x", kind: "block", conditions: { timeWindow: { timezone: "Mars/Olympus" } } },
      { name: "x", kind: "shell_exec" },
      { name: "x", kind: "block", selectors: { regex: ".*" } },
    ]) {
      const res = await addPolicy(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ error: { code: "invalid_request" } });
    }
  });

  it("a malformed policy row (unknown kind written behind the API) fails closed", async () => {
    const [row] = await database.db
      .insert(toolPolicies)
      .values({
        companyId,
        name: "From the future",
        kind: "quantum_allow",
        selectors: { toolGlobs: ["github.list_*"] },
      })
      .returning();
    await database.db.transaction(async (tx) => {
      await tx
        .update(companies)
        .set({ accessVersion: sql`${companies.accessVersion} + 1` })
        .where(eq(companies.id, companyId));
    });
    const t = await testCall("github__list_issues");
    expect(t.decision).toMatchObject({ allowed: false, reasonCode: "policy_malformed" });
    // Tools its selectors do not match are unaffected.
    expect((await testCall("github__create_issue")).decision.allowed).toBe(true);
    await database.db.delete(toolPolicies).where(eq(toolPolicies.id, row!.id));
    await database.db
      .update(companies)
      .set({ accessVersion: sql`${companies.accessVersion} + 1` })
      .where(eq(companies.id, companyId));
  });

  it("policy and profile changes are activity-logged", async () => {
    const actions = (await database.db.select({ action: activityLog.action }).from(activityLog)).map(
      (r) => r.action,
    );
    for (const a of [
      "tool_profile.create",
      "tool_profile.entry_add",
      "tool_profile.binding_add",
      "tool_policy.create",
      "tool_policy.update",
    ]) {
      expect(actions).toContain(a);
    }
  });

  it("a viewer cannot change policies; an outsider gets 404", async () => {
    const viewer = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId },
      body: { name: "viewer", role: "viewer" },
    });
    const res = await call(policiesRoute.POST, "POST", "/", {
      token: viewer.json.key,
      params: { companyId },
      body: { name: "x", kind: "allow" },
    });
    expect(res.status).toBe(403);
    const audit = await call(auditRoute.GET, "GET", "/", { token: viewer.json.key, params: { companyId } });
    expect(audit.status).toBe(403);

    const [outsider] = await database.db
      .insert(users)
      .values({ email: "out@example.com", passwordHash: await hashPassword("x") })
      .returning();
    const cookie = await sessionCookie(database.db, outsider!.id, outsider!.email);
    await call(companiesRoute.POST, "POST", "/", { cookie, body: { name: "Elsewhere" } });
    for (const [handler, method, params] of [
      [profilesRoute.GET, "GET", { companyId }],
      [policiesRoute.GET, "GET", { companyId }],
      [auditRoute.GET, "GET", { companyId }],
      [effectiveRoute.GET, "GET", { companyId, agentId }],
    ] as const) {
      const r = await call(handler, method, "/", { cookie, params });
      expect(r.status).toBe(404);
    }
  });
});

async function appIdOf(slug: string): Promise<string> {
  const rows = (await database.db.execute(
    sql`select id from tool_applications where company_id = ${companyId} and slug = ${slug}`,
  )) as unknown as { id: string }[];
  return rows[0]!.id;
}

/** An attempt's context: the demo agent, outside any run, issue, project or routine. */
const context = () => agentOnlyContext(companyId, agentId);
/** Records an attempt as an agent key, outside any run, now. */
const agentAttempt = (input: Omit<Parameters<typeof recordAttempt>[1], "actorType" | "context" | "now">) =>
  recordAttempt(database.db, { actorType: "agent_key", context: context(), now: new Date(), ...input });

describe("ledger, audit and redaction", () => {
  it("100 concurrent identical idempotent attempts create exactly one ledger row", async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        agentAttempt({
          actorId: "test",
          toolName: "github__create_issue",
          arguments: { title: "Crash on boot", labels: ["bug"] },
          idempotencyKey: "retry-1",
        }),
      ),
    );
    const ids = new Set(results.map((r) => r.invocation.id));
    expect(ids.size).toBe(1);
    const rows = await database.db
      .select()
      .from(toolInvocations)
      .where(eq(toolInvocations.id, [...ids][0]!));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attempts).toBe(100);
    // The first is allowed and claimed in its own transaction (running, under a live lease);
    // every other one finds it executing, decided from the locked row.
    expect(results.filter((r) => r.outcome === "allow")).toHaveLength(1);
    expect(results.filter((r) => r.outcome === "in_progress")).toHaveLength(99);
    expect(rows[0]!.executionStatus).toBe("running");
  });

  it("different arguments are a different invocation; reads get a row per attempt", async () => {
    const a = await agentAttempt({
      actorId: "test",
      toolName: "github__create_issue",
      arguments: { labels: ["bug"], title: "Crash on boot" }, // same content, other key order
      idempotencyKey: "retry-1",
    });
    const b = await agentAttempt({
      actorId: "test",
      toolName: "github__create_issue",
      arguments: { title: "Crash on boot!", labels: ["bug"] },
      idempotencyKey: "retry-1",
    });
    expect(a.invocation.attempts).toBe(101); // canonical JSON: key order does not matter
    expect(b.invocation.id).not.toBe(a.invocation.id);
    const r1 = await agentAttempt({
      actorId: "t",
      toolName: "github__list_issues",
      arguments: {},
    });
    const r2 = await agentAttempt({
      actorId: "t",
      toolName: "github__list_issues",
      arguments: {},
    });
    expect(r1.invocation.id).not.toBe(r2.invocation.id);
  });

  it("denied and unknown calls are recorded too", async () => {
    const r = await agentAttempt({
      actorId: "t",
      toolName: "nope__never_heard_of_it",
      arguments: {},
    });
    expect(r.outcome).toBe("deny");
    expect(r.decision.reasonCode).toBe("tool_not_found");
    const [event] = await database.db
      .select()
      .from(toolCallEvents)
      .where(eq(toolCallEvents.invocationId, r.invocation.id));
    expect(event).toMatchObject({ eventType: "decision", decision: "deny", reasonCode: "tool_not_found" });
  });

  it("a canary in a field marked sensitive never reaches the ledger, the audit trail or the API", async () => {
    const CANARY = "canary-7f3a9c1e-never-store-me";
    await addPolicy({
      name: "Hide notes",
      kind: "redact_arguments",
      selectors: { toolGlobs: ["github.*"] },
      effect: { paths: ["/note"] },
    });
    const r = await agentAttempt({
      actorId: "t",
      toolName: "github__create_issue",
      arguments: {
        title: "ok",
        note: CANARY,
        nested: { password: `${CANARY}-2` },
        token: "ghp_abcdefghijklmnopqrstuvwxyz0123",
      },
    });
    expect(r.outcome).toBe("allow");
    expect(r.invocation.argsSummary).toMatchObject({
      title: "ok",
      note: "[redacted]",
      nested: { password: "[redacted]" },
    });
    const dump = JSON.stringify([
      await database.db.select().from(toolInvocations),
      await database.db.select().from(toolCallEvents),
      await database.db.select().from(activityLog),
    ]);
    expect(dump).not.toContain(CANARY);
    expect(dump).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123");
    const audit = await call(auditRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { limit: "200" },
    });
    const ledger = await call(invocationsRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { limit: "200" },
    });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.json)).not.toContain(CANARY);
    expect(JSON.stringify(ledger.json)).not.toContain(CANARY);
    const events = (
      audit.json as { events: { redactions: string[]; invocationId: string; eventType: string }[] }
    ).events;
    // The decision event carries the summary and its redactions (execution_started follows it).
    const decision = events.find((e) => e.invocationId === r.invocation.id && e.eventType === "decision");
    expect(decision?.redactions).toEqual(expect.arrayContaining(["/note", "/nested/password", "/token"]));
  });

  it("audit pages with a cursor and filters by decision", async () => {
    const first = await call<{ events: { seq: number }[]; nextCursor: string | null }>(
      auditRoute.GET,
      "GET",
      "/",
      {
        ...board(),
        params: { companyId },
        query: { limit: "2" },
      },
    );
    expect(first.json.events).toHaveLength(2);
    expect(first.json.nextCursor).not.toBeNull();
    const second = await call<{ events: { seq: number }[] }>(auditRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { limit: "2", cursor: first.json.nextCursor! },
    });
    expect(second.json.events[0]!.seq).toBeLessThan(first.json.events[1]!.seq);
    const denies = await call<{ events: { decision: string }[] }>(auditRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { decision: "deny" },
    });
    expect(denies.json.events.length).toBeGreaterThan(0);
    expect(denies.json.events.every((e) => e.decision === "deny")).toBe(true);
    const bad = await call(auditRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { cursor: "drop table" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("rate limits", () => {
  it("a limited call gets rate_limited with retryAfterMs and an audit event", async () => {
    const res = await addPolicy({
      name: "Two list calls a minute",
      kind: "rate_limit",
      selectors: { catalogEntryIds: [github.list_issues!.id] },
      effect: { limit: 2, windowSeconds: 60, per: "agent" },
    });
    expect(res.status).toBe(201);
    const attempt = () =>
      agentAttempt({
        actorId: "t",
        toolName: "github__list_issues",
        arguments: {},
      });
    const outcomes = [await attempt(), await attempt(), await attempt()];
    expect(outcomes.map((o) => o.outcome)).toEqual(["allow", "allow", "rate_limited"]);
    const limited = outcomes[2]!;
    expect(limited.decision.retryAfterMs).toBeGreaterThan(25_000);
    expect(limited.decision.retryAfterMs).toBeLessThanOrEqual(30_000);
    const [event] = await database.db
      .select()
      .from(toolCallEvents)
      .where(eq(toolCallEvents.invocationId, limited.invocation.id));
    expect(event).toMatchObject({ decision: "rate_limited", reasonCode: "rate_limited" });
    const panel = await testCall("github__list_issues");
    expect(panel.decision.reasonCode).toBe("rate_limited");
  });

  it("two server processes sharing the database allow exactly N calls in total", async () => {
    const limit = 25;
    const res = await addPolicy({
      name: "Race",
      kind: "rate_limit",
      selectors: { catalogEntryIds: [github.create_issue!.id] },
      effect: { limit, windowSeconds: 3600, per: "company" },
    });
    expect(res.status).toBe(201);
    const worker = path.join(process.cwd(), "scripts", "rate-limit-worker.ts");
    // Each worker connects, prints "ready", and fires when told "go" — sent once both are ready.
    const workers = [0, 1].map(() => {
      const child = spawn(process.execPath, ["--import", "tsx", worker], {
        env: {
          ...process.env,
          WORKER_DATABASE_URL: database.url,
          WORKER_COMPANY_ID: companyId,
          WORKER_AGENT_ID: agentId,
          WORKER_TOOL: "github__create_issue",
          WORKER_ATTEMPTS: "40",
        },
        stdio: ["pipe", "pipe", "inherit"],
      });
      let out = "";
      let markReady: () => void = () => {};
      const ready = new Promise<void>((r) => {
        markReady = r;
      });
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("ready\n")) markReady();
      });
      const allowed = new Promise<number>((resolve, reject) => {
        child.on("exit", (code) =>
          code === 0
            ? resolve(JSON.parse(out.slice(out.indexOf("ready\n") + 6)).allowed as number)
            : reject(new Error(`worker exited ${code}`)),
        );
      });
      return { child, ready, allowed };
    });
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.child.stdin.end("go\n");
    const [a, b] = (await Promise.all(workers.map((w) => w.allowed))) as [number, number];
    expect(a + b).toBe(limit);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
  });
});

describe("snapshot cache", () => {
  it("sees a change made through another connection pool at once (version bump)", async () => {
    const before = await getAccessSnapshot(database.db, companyId);
    const other = await import("@/db/client").then((m) => m.openDatabase(database.url, { max: 1 }));
    try {
      await addPolicy({ name: "Fresh", kind: "allow", selectors: { toolGlobs: ["nothing.*"] } });
      const after = await getAccessSnapshot(other.db, companyId);
      expect(after.version).toBeGreaterThan(before.version!);
      expect(after.policies.map((p) => p.name)).toContain("Fresh");
      // Unchanged version → the same cached object (no reload).
      expect(await getAccessSnapshot(other.db, companyId)).toBe(after);
    } finally {
      await other.close();
    }
  });
});
