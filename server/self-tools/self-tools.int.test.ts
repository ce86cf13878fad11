import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { activityLog, issueComments, issues } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { requireCompany } from "@/server/auth/authorize";
import type { ServiceContext } from "@/server/context";
import { createIssue } from "@/server/core/issues";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, installExample } from "@/server/testing/world";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let agentId: string;
let issueId: string;
let otherIssueId: string;
let token: string;
const board = () => ({ token: demo.boardApiKey });

type CallAnswer = {
  error?: { code: string; message: string };
  result?: { structuredContent?: Record<string, unknown> };
};
const selfCall = (tool: string, args: unknown) =>
  call<CallAnswer>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
    token,
    body: { tool: `paperclip__${tool}`, arguments: args },
  });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-self-", gateway: true }));
  companyId = demo.companyId;
  agentId = demo.agents[0]!.id;
  const install = await installExample(demo, "paperclip-self");
  expect(install.status, JSON.stringify(install.json)).toBe(201);
  const rows = await database.db
    .select({ id: issues.id })
    .from(issues)
    .where(eq(issues.companyId, companyId))
    .limit(2);
  expect(rows.length).toBe(2);
  issueId = rows[0]!.id;
  otherIssueId = rows[1]!.id;
  const run = await call<{ gateway: { token: string } }>(agentRunsRoute.POST, "POST", "/", {
    ...board(),
    params: { agentId },
    body: { issueId },
  });
  expect(run.status, JSON.stringify(run.json)).toBe(201);
  token = run.json.gateway.token;
}, 120_000);

afterAll(async () => {
  await closeDemoWorld(database);
});

const activityFor = (action: string, entityId: string) =>
  database.db
    .select()
    .from(activityLog)
    .where(
      and(
        eq(activityLog.companyId, companyId),
        eq(activityLog.action, action),
        eq(activityLog.entityId, entityId),
      ),
    );

describe("Paperclip's self tools write through the core verbs", () => {
  it("draft_comment adds a draft comment to the run's issue with its activity row", async () => {
    const res = await selfCall("draft_comment", { body: "A draft from the agent" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const commentId = res.json.result?.structuredContent?.commentId as string;
    expect(res.json.result?.structuredContent).toMatchObject({ draft: true });
    const [comment] = await database.db.select().from(issueComments).where(eq(issueComments.id, commentId));
    expect(comment).toMatchObject({
      issueId,
      authorType: "agent",
      authorAgentId: agentId,
      kind: "text",
      body: "A draft from the agent",
      payload: { draft: true, source: "paperclip_self" },
    });
    const activity = await activityFor("issue.comment", issueId);
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({
      actorType: "agent",
      actorId: agentId,
      details: { commentId, draft: true },
    });
  });

  it("draft_child_issue creates a backlog child issue with its activity row", async () => {
    const res = await selfCall("draft_child_issue", { title: "Follow-up", body: "details" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const childId = res.json.result?.structuredContent?.issueId as string;
    expect(res.json.result?.structuredContent?.identifier).toMatch(/^[A-Z]+-\d+$/);
    const [child] = await database.db.select().from(issues).where(eq(issues.id, childId));
    expect(child).toMatchObject({
      companyId,
      title: "Follow-up",
      body: "details",
      status: "backlog",
      parentId: issueId,
      createdByAgentId: agentId,
      createdByUserId: null,
    });
    const activity = await activityFor("issue.create", childId);
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ actorType: "agent", actorId: agentId });
  });

  it("stays confined to the run's issue", async () => {
    const before = await database.db
      .select()
      .from(issueComments)
      .where(eq(issueComments.issueId, otherIssueId));
    const res = await selfCall("get_issue_context", { issueId: otherIssueId });
    expect(res.status).toBe(200);
    // Writes take no issue id (one is refused as an unknown argument): only the run's issue.
    const draft = await selfCall("draft_comment", { body: "x", issueId: otherIssueId });
    expect(draft.status).toBe(400);
    expect(draft.json.error?.code).toBe("arguments_invalid");
    const after = await database.db
      .select()
      .from(issueComments)
      .where(eq(issueComments.issueId, otherIssueId));
    expect(after.length).toBe(before.length);
  });
});

describe("the agent actor the self tools run the verbs as", () => {
  const agentCtx = (company: string): ServiceContext => ({
    db: database.db,
    actor: { type: "agent", companyId: company, agentId, runId: "00000000-0000-4000-8000-000000000009" },
    requestId: "t",
    now: () => new Date(),
  });

  it("reads and writes its company's work and nothing else", async () => {
    await expect(requireCompany(agentCtx(companyId), companyId, "work:write")).resolves.toMatchObject({
      companyId,
    });
    for (const capability of ["tools:admin", "members:manage", "runs:manage", "tools:approve"] as const)
      await expect(requireCompany(agentCtx(companyId), companyId, capability)).rejects.toMatchObject({
        code: "forbidden",
      });
  });

  it("cannot reach another company (answered as not found)", async () => {
    const other = "00000000-0000-4000-8000-0000000000aa";
    await expect(
      createIssue(agentCtx(other), companyId, { title: "x", body: "", status: "backlog" }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
