import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as approveRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/approve/route";
import * as executeRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/execute/route";
import * as adminRoute from "@/app/api/companies/[companyId]/tools/audit/admin/route";
import * as callsRoute from "@/app/api/companies/[companyId]/tools/audit/calls/route";
import * as exportRoute from "@/app/api/companies/[companyId]/tools/audit/export/route";
import * as auditRoute from "@/app/api/companies/[companyId]/tools/audit/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { activityLog, toolCallEvents, toolInvocations, toolPolicies } from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import { AdminChangesPage, AuditCallsPage, AuditPage } from "../contracts/api/audit";
import { call } from "../testing/api";
import {
  closeDemoWorld,
  demoWorld,
  installOutbox,
  startFirstAgentRun,
  strangerCompany,
  type TestDatabase,
} from "../testing/world";
import { csvCell } from "./audit-export";

let database: TestDatabase;
let demo: DemoCredentials;
let token: string;
let stranger: { companyId: string; boardKey: string };
let foreignPolicyId: string;
let approvedInvocationId: string;
let draftInvocationId: string;
/** Looks like a GitHub token: the trail's redaction must drop it before storage. */
const CANARY = "ghp_CANARYcanaryCANARYcanary0123456789";

const board = () => ({ token: demo.boardApiKey, params: { companyId: demo.companyId } });
const calls = async (query: Record<string, string> = {}) => {
  const res = await call(callsRoute.GET, "GET", "/", { ...board(), query });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return AuditCallsPage.parse(res.json);
};
const agentCall = (body: unknown) =>
  call<{
    invocationId?: string;
    error?: { actionRequestId?: string };
    result?: { structuredContent?: Record<string, unknown> };
  }>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", { token, body });

async function download(query: Record<string, string>) {
  const url = new URL("http://localhost:3100/x");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await exportRoute.GET(
    new Request(url, { headers: { host: "localhost:3100", authorization: `Bearer ${demo.boardApiKey}` } }),
    { params: Promise.resolve({ companyId: demo.companyId }) },
  );
  return { status: res.status, headers: res.headers, text: await res.text() };
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-audit-calls-", gateway: true }));
  const installed = await installOutbox(database.db, demo);
  expect(installed.status, JSON.stringify(installed.json)).toBe(201);
  ({ token } = await startFirstAgentRun(database.db, demo));

  // 1. allowed and executed (a canary credential in the body); 2. held for approval, approved,
  // executed; 3. an unknown tool (denied).
  const drafted = await agentCall({
    tool: "outbox__draft_email",
    arguments: { to: "customer@example.com", subject: '=HYPERLINK("x")', body: `key ${CANARY}` },
  });
  expect(drafted.status, JSON.stringify(drafted.json)).toBe(200);
  draftInvocationId = drafted.json.invocationId!;
  const sc = drafted.json.result!.structuredContent as { draftId: string };
  const held = await agentCall({ tool: "outbox__send_email", arguments: { draftId: sc.draftId } });
  expect(held.status, JSON.stringify(held.json)).toBe(409);
  const actionRequestId = held.json.error!.actionRequestId!;
  const request = { token: demo.boardApiKey, params: { companyId: demo.companyId, actionRequestId } };
  expect((await call(approveRoute.POST, "POST", "/", { ...request, body: {} })).status).toBe(200);
  expect((await call(executeRoute.POST, "POST", "/", request)).status).toBe(200);
  const [inv] = await database.db
    .select({ id: toolInvocations.id })
    .from(toolInvocations)
    .where(eq(toolInvocations.toolName, "outbox__send_email"));
  approvedInvocationId = inv!.id;
  const denied = await agentCall({ tool: "outbox__no_such_tool", arguments: {} });
  expect(denied.status).toBeGreaterThanOrEqual(400);

  // Another company's policy, whose id is then planted on one of our events: it must not resolve.
  const other = await strangerCompany(database.db, "Audit Stranger");
  stranger = { companyId: other.companyId, boardKey: other.boardKey };
  const [foreign] = await database.db
    .insert(toolPolicies)
    .values({ companyId: other.companyId, name: "Foreign secret policy", kind: "deny" })
    .returning({ id: toolPolicies.id });
  foreignPolicyId = foreign!.id;
  await database.db.insert(toolCallEvents).values({
    companyId: demo.companyId,
    eventType: "decision",
    invocationId: draftInvocationId,
    actorType: "system",
    actorId: "test",
    toolName: "outbox__draft_email",
    decision: "allow",
    reasonCode: "allowed",
    matchedPolicyIds: [foreignPolicyId, "not-a-uuid"],
  });
  // An event without an invocation (discovery).
  await database.db.insert(toolCallEvents).values({
    companyId: demo.companyId,
    eventType: "discovery",
    actorType: "system",
    actorId: "test",
    reasonCode: "listed",
  });
}, 120_000);

afterAll(() => closeDemoWorld(database));

describe("grouped audit (GET /tools/audit/calls)", () => {
  it("answers one row per invocation with its events in order", async () => {
    const page = await calls();
    const ids = page.calls.map((c) => c.invocationId);
    expect(new Set(ids).size).toBe(ids.length);
    const sent = page.calls.find((c) => c.invocationId === approvedInvocationId)!;
    expect(sent.toolName).toBe("outbox__send_email");
    expect(sent.agentName).toBe(demo.agents[0]!.name);
    const types = sent.events.map((e) => e.eventType);
    expect(types[0]).toBe("decision");
    expect(types).toContain("approval_requested");
    expect(types).toContain("approval_accepted");
    expect(types).toContain("result_returned");
    const seqs = sent.events.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(sent.outcome).toBe("succeeded");
    // The old per-event route still answers for its callers.
    const old = await call(auditRoute.GET, "GET", "/", board());
    expect(old.status).toBe(200);
    expect(AuditPage.parse(old.json).events.length).toBeGreaterThan(page.calls.length);
  });

  it("names the matched policies and profiles, and never a policy of another company", async () => {
    const page = await calls();
    const sent = page.calls.find((c) => c.invocationId === approvedInvocationId)!;
    expect(sent.policies.length).toBeGreaterThan(0);
    for (const p of sent.policies) expect(p.name).toBeTruthy();
    expect(sent.profiles.map((p) => p.name).filter(Boolean).length).toBeGreaterThan(0);
    const draft = page.calls.find((c) => c.invocationId === draftInvocationId)!;
    const foreign = draft.policies.find((p) => p.id === foreignPolicyId);
    expect(foreign).toEqual({ id: foreignPolicyId, name: null });
    expect(draft.policies.find((p) => p.id === "not-a-uuid")).toEqual({ id: "not-a-uuid", name: null });
    expect(JSON.stringify(page)).not.toContain("Foreign secret policy");
  });

  it("filters by decision, outcome, event type, tool, agent and time range", async () => {
    const denied = await calls({ decision: "deny" });
    expect(denied.calls.length).toBeGreaterThan(0);
    expect(denied.calls.every((c) => c.decision === "deny")).toBe(true);
    const accepted = await calls({ eventType: "approval_accepted" });
    expect(accepted.calls.map((c) => c.invocationId)).toEqual([approvedInvocationId]);
    const succeeded = await calls({ outcome: "succeeded" });
    expect(succeeded.calls.every((c) => c.outcome === "succeeded")).toBe(true);
    const tool = await calls({ tool: "DRAFT" });
    expect(tool.calls.map((c) => c.invocationId)).toEqual([draftInvocationId]);
    expect((await calls({ agentId: demo.agents[0]!.id })).calls.length).toBeGreaterThanOrEqual(3);
    expect((await calls({ agentId: demo.agents[1]!.id })).calls).toEqual([]);
    expect((await calls({ from: "2000-01-01T00:00:00Z", to: "2000-01-02T00:00:00Z" })).calls).toEqual([]);
    expect(
      (await calls({ from: new Date(Date.now() - 3_600_000).toISOString() })).calls.length,
    ).toBeGreaterThan(0);
    const bad = await call(callsRoute.GET, "GET", "/", { ...board(), query: { from: "yesterday-ish" } });
    expect(bad.status).toBe(400);
    expect((await call(callsRoute.GET, "GET", "/", { ...board(), query: { limit: "101" } })).status).toBe(
      400,
    );
    expect((await call(callsRoute.GET, "GET", "/", { ...board(), query: { cursor: "x" } })).status).toBe(400);
  });

  it("pages with a keyset cursor without repeating a call", async () => {
    const first = await calls({ limit: "1" });
    expect(first.calls).toHaveLength(1);
    expect(first.nextCursor).toBeTruthy();
    const second = await calls({ limit: "1", cursor: first.nextCursor! });
    expect(second.calls[0]!.invocationId).not.toBe(first.calls[0]!.invocationId);
  });

  it("lists events without an invocation under kind=other", async () => {
    const other = await calls({ kind: "other" });
    expect(other.calls.length).toBeGreaterThan(0);
    expect(other.calls.every((c) => c.invocationId === null && c.events.length === 1)).toBe(true);
    expect(other.calls.map((c) => c.events[0]!.eventType)).toContain("discovery");
  });

  it("is company-scoped: another company's board gets 404", async () => {
    const res = await call(callsRoute.GET, "GET", "/", {
      token: stranger.boardKey,
      params: { companyId: demo.companyId },
    });
    expect(res.status).toBe(404);
    const own = await call(callsRoute.GET, "GET", "/", {
      token: stranger.boardKey,
      params: { companyId: stranger.companyId },
    });
    expect(AuditCallsPage.parse(own.json).calls).toEqual([]);
  });
});

describe("audit export (GET /tools/audit/export)", () => {
  it("guards CSV cells against formula injection", () => {
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe('"\'\rx"');
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell(null)).toBe("");
  });

  it("streams the current filter as CSV with the cap in a header", async () => {
    const res = await download({ format: "csv", decision: "deny" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("x-audit-export-limit")).toBe("50000");
    expect(res.headers.get("content-disposition")).toContain("attachment");
    const lines = res.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "time,invocation_id,agent,tool,tool_title,decision,reason,outcome,error,latency_ms,policies,profiles,run_id,issue,events",
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toContain(",deny,");
  });

  it("stops at the cap and refuses a larger one", async () => {
    const res = await download({ format: "csv", limit: "2" });
    expect(res.headers.get("x-audit-export-limit")).toBe("2");
    expect(res.text.trimEnd().split("\r\n")).toHaveLength(3);
    expect((await download({ format: "csv", limit: "50001" })).status).toBe(400);
    expect((await download({ format: "xml" })).status).toBe(400);
  });

  it("writes JSONL lines that each parse as a call, and no secret appears in any format", async () => {
    const res = await download({ format: "jsonl" });
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = res.text.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const parsed = AuditCallsPage.shape.calls.parse(lines.map((l) => JSON.parse(l)));
    expect(parsed.map((c) => c.invocationId)).toContain(approvedInvocationId);
    expect(res.text).not.toContain(CANARY);
    expect(res.text).not.toContain("CANARYcanary");
    const csv = await download({ format: "csv" });
    expect(csv.text).not.toContain("CANARYcanary");
    // The formula in the subject never starts a cell (it is inside the JSON events only in JSONL).
    expect(csv.text).not.toMatch(/(^|,)=HYPERLINK/m);
    const page = await call(callsRoute.GET, "GET", "/", board());
    expect(JSON.stringify(page.json)).not.toContain("CANARYcanary");
  });

  it("answers 404 to another company's board", async () => {
    const url = new URL("http://localhost:3100/x?format=csv");
    const res = await exportRoute.GET(
      new Request(url, { headers: { host: "localhost:3100", authorization: `Bearer ${stranger.boardKey}` } }),
      { params: Promise.resolve({ companyId: demo.companyId }) },
    );
    expect(res.status).toBe(404);
  });
});

describe("admin changes (GET /tools/audit/admin)", () => {
  it("lists administrative changes with names, leaving out the work trail unless all is asked", async () => {
    await database.db.insert(activityLog).values({
      companyId: demo.companyId,
      actorType: "system",
      actorId: "test",
      action: "issue.comment",
      entityType: "issue",
      entityId: null,
    });
    const res = await call(adminRoute.GET, "GET", "/", board());
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const page = AdminChangesPage.parse(res.json);
    const actions = page.changes.map((c) => c.action);
    expect(actions).toContain("tool_policy.create");
    expect(actions).toContain("tool_connection.create");
    expect(actions.some((a) => a.startsWith("issue.") || a.startsWith("run."))).toBe(false);
    const policy = page.changes.find((c) => c.action === "tool_policy.create")!;
    expect(policy.entityName).toBeTruthy();
    const all = AdminChangesPage.parse(
      (await call(adminRoute.GET, "GET", "/", { ...board(), query: { scope: "all" } })).json,
    );
    expect(all.changes.map((c) => c.action)).toContain("issue.comment");
    const one = AdminChangesPage.parse(
      (await call(adminRoute.GET, "GET", "/", { ...board(), query: { limit: "1" } })).json,
    );
    expect(one.changes).toHaveLength(1);
    const next = AdminChangesPage.parse(
      (await call(adminRoute.GET, "GET", "/", { ...board(), query: { limit: "1", cursor: one.nextCursor! } }))
        .json,
    );
    expect(next.changes[0]!.id).not.toBe(one.changes[0]!.id);
    const filtered = AdminChangesPage.parse(
      (await call(adminRoute.GET, "GET", "/", { ...board(), query: { action: "tool_policy" } })).json,
    );
    expect(filtered.changes.every((c) => c.action.startsWith("tool_policy"))).toBe(true);
    expect(
      (
        await call(adminRoute.GET, "GET", "/", {
          token: stranger.boardKey,
          params: { companyId: demo.companyId },
        })
      ).status,
    ).toBe(404);
  });
});
