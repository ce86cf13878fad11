/**
 * The original directory tools (docs/public-mcp.md, "Tools"; spec 004, "Original directory
 * tool surface") through the shared MCP dispatcher, on a real PostgreSQL: each tool, the
 * company boundary, scopes narrowed by grant and by role, bounded projections, and the
 * attribution a connection leaves (activity rows, comment payload, the issue's createdVia).
 */
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as gatewayCallRoute from "@/app/api/tool-gateway/tools/call/route";
import { activityLog, agents, issueComments, issueDocuments, issues } from "@/db/schema";
import type { OutboxState } from "@/fixtures/mcp";
import type { HttpFixture } from "@/fixtures/mcp/http";
import { proposeFormalApproval } from "@/server/approvals/formal";
import { type ServiceContext, systemContext } from "@/server/context";
import { listAgents } from "@/server/core/agents";
import { createIssue } from "@/server/core/issues";
import type { DemoCredentials } from "@/server/core/seed";
import { ACTIVITY_PER_CONNECTION, listConnectionActivity } from "@/server/oauth/connection-activity";
import { call as callRoute } from "@/server/testing/api";
import {
  addMember,
  connectAssistant,
  secondCompanyOf,
  type TestConnection,
} from "@/server/testing/public-mcp";
import {
  closeDemoWorld,
  demoOwner,
  demoWorld,
  installOutbox,
  startFirstAgentRun,
  type TestDatabase,
} from "@/server/testing/world";
import {
  type AddedComment,
  type AgentList,
  COMMENT_CHARS,
  type CreatedTask,
  type PendingApprovals,
  type ProjectList,
  RECENT_COMMENTS,
  type TaskPage,
  type TaskRead,
} from "./operations/original";

type GatewayAnswer = {
  result: { structuredContent: { draftId?: string; id?: string; draft?: { id: string } } };
  error?: { code: string };
};

let database: TestDatabase;
let demo: DemoCredentials;
let companyId: string;
let ownerId: string;
let otherCompanyId: string;
let otherIssueId: string;
let outbox: HttpFixture<OutboxState>;
let runIssueId: string;
let conn: TestConnection;
let origin: string;
const CLIENT = "Claude (test)";

type Args = Record<string, unknown>;
type Refusal = { error: { code: string; details?: Args } };
/** A tool's structured result, typed as the operation returns it. */
const sc = <T = Args>(r: CallToolResult) => r.structuredContent as T;
const errorCode = (r: CallToolResult) => (r.isError ? sc<Refusal>(r).error.code : undefined);
const mutation = <T = Args>(r: CallToolResult) =>
  sc<{ outcome: string; requestId: string; result: T; error?: { code: string } }>(r);
const system = () => systemContext(database.db, "test");

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-mcp-original-", gateway: true }));
  companyId = demo.companyId;
  ownerId = (await demoOwner(database.db, demo)).id;
  otherCompanyId = await secondCompanyOf(database.db, ownerId);
  otherIssueId = (
    await createIssue(system(), otherCompanyId, { title: "Globex secret plan", body: "", status: "todo" })
  ).id;
  // A pending tool action request (an approval-gated send by the first agent in its run).
  const installed = await installOutbox(database.db, demo);
  outbox = installed.outbox;
  expect(installed.status, JSON.stringify(installed.json)).toBe(201);
  const run = await startFirstAgentRun(database.db, demo);
  runIssueId = run.issueId;
  const agentCall = (body: unknown) =>
    callRoute<GatewayAnswer>(gatewayCallRoute.POST, "POST", "/api/tool-gateway/tools/call", {
      token: run.token,
      body,
    });
  const drafted = await agentCall({
    tool: "outbox__draft_email",
    arguments: { to: "customer@example.com", subject: "Hi", body: "Hello" },
  });
  const draft = drafted.json.result.structuredContent;
  const sent = await agentCall({
    tool: "outbox__send_email",
    arguments: { draftId: draft.draftId ?? draft.id ?? draft.draft?.id },
  });
  expect(sent.json.error?.code, JSON.stringify(sent.json)).toBe("approval_required");
  // A pending formal approval.
  await database.db.transaction((tx) =>
    proposeFormalApproval(tx, system(), companyId, {
      kind: "trust_rule",
      title: "Trust drafting replies",
      summary: "Let the triage bot draft replies without review",
      payload: {},
    }),
  );
  conn = await connectAssistant(database.db, { userId: ownerId, companyId, clientName: CLIENT });
  origin = (await conn.session()).origin;
}, 90_000);

afterAll(async () => {
  await outbox?.close();
  await closeDemoWorld(database);
});

describe("paperclip_list_agents and paperclip_list_projects", () => {
  it("lists agents with availability and without keys or adapter configuration", async () => {
    const result = await conn.call("paperclip_list_agents", { companyId });
    expect(result.isError).toBeFalsy();
    const { agents, total, truncated } = sc<AgentList>(result);
    expect(total).toBe(2);
    expect(truncated).toBe(false);
    const triage = agents.find((a) => a.id === demo.agents[0]!.id)!;
    expect(triage).toMatchObject({
      name: "Triage Bot",
      status: "active",
      runningRuns: 1,
      availability: "running",
    });
    expect(triage.lastRunAt).toEqual(expect.any(String));
    // The console's agent list (the core verb) agrees: it used to compare the run's columns
    // with themselves and always said "never".
    const core = await listAgents(system(), companyId);
    expect(core.find((a) => a.id === triage.id)!.lastRunAt?.toISOString()).toBe(triage.lastRunAt);
    expect(triage.link).toBe(`${origin}/c/${companyId}/agents/${triage.id}`);
    const release = agents.find((a) => a.id === demo.agents[1]!.id);
    expect(release).toMatchObject({ availability: "idle", lastRunAt: null, queuedRuns: 0 });
    const text = JSON.stringify(result);
    expect(text).not.toMatch(/adapterType|apiKey|keyHash/);
    for (const a of demo.agents) expect(text).not.toContain(a.apiKey);
  });

  it("lists projects with open task counts and a short description", async () => {
    const { projects } = sc<ProjectList>(await conn.call("paperclip_list_projects", { companyId }));
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({
      name: "Robot Firmware",
      status: "active",
      description: "Firmware for the R-series warehouse robots.",
      descriptionTruncated: false,
      openTasks: 2,
    });
  });
});

describe("paperclip_search_tasks", () => {
  beforeAll(async () => {
    for (let i = 1; i <= 5; i++)
      await createIssue(system(), companyId, { title: `Paging probe ${i}`, body: "", status: "todo" });
    for (const title of ["Discount 100% off", "Discount 1000 off", "snake_case rename", "snakeXcase rename"])
      await createIssue(system(), companyId, { title, body: "", status: "backlog" });
  });

  const search = async (args: Args) =>
    sc<TaskPage>(await conn.call("paperclip_search_tasks", { companyId, ...args }));

  it("pages with offset, total and nextOffset", async () => {
    const first = await search({ query: "paging probe", limit: 2 });
    expect(first).toMatchObject({ total: 5, offset: 0, limit: 2, nextOffset: 2 });
    expect(first.tasks).toHaveLength(2);
    const second = await search({ query: "paging probe", limit: 2, offset: first.nextOffset });
    expect(second).toMatchObject({ total: 5, offset: 2, nextOffset: 4 });
    const last = await search({ query: "paging probe", limit: 2, offset: 4 });
    expect(last).toMatchObject({ total: 5, nextOffset: null });
    expect(last.tasks).toHaveLength(1);
    const titles = [...first.tasks, ...second.tasks, ...last.tasks].map((t) => t.title);
    expect(new Set(titles).size).toBe(5);
    expect(last.tasks[0]!.link).toMatch(new RegExp(`/c/${companyId}/issues/[0-9a-f-]{36}$`));
  });

  it("matches % and _ literally", async () => {
    expect((await search({ query: "100%" })).tasks.map((t) => t.title)).toEqual(["Discount 100% off"]);
    expect((await search({ query: "snake_case" })).tasks.map((t) => t.title)).toEqual(["snake_case rename"]);
    expect((await search({ query: "%" })).total).toBe(1);
    expect((await search({ query: "\\" })).total).toBe(0);
  });

  it("finds by identifier and filters by status, assignee and project", async () => {
    const byId = await search({ query: "acme-1" });
    expect(byId.tasks.map((t) => t.identifier)).toContain("ACME-1");
    expect((await search({ status: "backlog", query: "discount" })).total).toBe(2);
    const assigned = await search({ assigneeAgentId: demo.agents[1]!.id });
    expect(assigned.tasks.map((t) => t.title)).toEqual(["Draft release notes for firmware 2.4"]);
    const { projects } = sc<ProjectList>(await conn.call("paperclip_list_projects", { companyId }));
    expect((await search({ projectId: projects[0]!.id })).total).toBe(2);
    // Another company's tasks never match.
    expect((await search({ query: "Globex" })).total).toBe(0);
  });

  it("refuses a limit above 50 with arguments_invalid", async () => {
    expect(errorCode(await conn.call("paperclip_search_tasks", { companyId, limit: 51 }))).toBe(
      "arguments_invalid",
    );
  });
});

describe("paperclip_read_task", () => {
  it("reads a task by identifier or UUID with its recent comments truncated and its documents", async () => {
    const task = await createIssue(system(), companyId, {
      title: "Long thread",
      body: "The body",
      status: "todo",
    });
    for (let i = 0; i < RECENT_COMMENTS + 2; i++)
      await database.db.insert(issueComments).values({
        companyId,
        issueId: task.id,
        authorType: "user",
        authorUserId: ownerId,
        body: i === RECENT_COMMENTS + 1 ? "x".repeat(COMMENT_CHARS + 500) : `comment ${i}`,
        createdAt: new Date(Date.now() - 60_000 + i * 1000),
      });
    await database.db
      .insert(issueDocuments)
      .values({ companyId, issueId: task.id, key: "plan", body: "# Plan" });
    const read = sc<TaskRead>(await conn.call("paperclip_read_task", { companyId, taskId: task.identifier }));
    expect(read.task).toMatchObject({
      id: task.id,
      identifier: task.identifier,
      title: "Long thread",
      body: "The body",
    });
    expect(read.commentsTotal).toBe(RECENT_COMMENTS + 2);
    expect(read.commentsOmitted).toBe(2);
    expect(read.comments).toHaveLength(RECENT_COMMENTS);
    expect(read.comments[0]!.body).toBe("comment 2");
    const long = read.comments.at(-1)!;
    expect(long.truncated).toBe(true);
    expect(long.body!.length).toBeLessThanOrEqual(COMMENT_CHARS + 1);
    expect(read.comments[0]!.truncated).toBe(false);
    expect(read.documents).toEqual([expect.objectContaining({ key: "plan", revision: 1 })]);
    expect(read.documents[0]).not.toHaveProperty("body");
    expect(read.link).toBe(`${origin}/c/${companyId}/issues/${task.id}`);
    const byUuid = sc<TaskRead>(await conn.call("paperclip_read_task", { companyId, taskId: task.id }));
    expect(byUuid.task.identifier).toBe(task.identifier);
    // Every comment stays reachable: list_task_comments pages through them, oldest first.
    const page = (await conn.api("list_task_comments", {
      companyId,
      taskId: task.identifier,
      limit: 20,
      offset: 20,
    })) as { comments: { body: string; truncated: boolean }[]; total: number; nextOffset: number | null };
    expect(page.total).toBe(RECENT_COMMENTS + 2);
    expect(page.comments.map((c) => [c.body.slice(0, 10), c.truncated])).toEqual([
      ["comment 20", false],
      ["xxxxxxxxxx", true],
    ]);
    expect(page.nextOffset).toBeNull();
    const first = (await conn.api("list_task_comments", { companyId, taskId: task.id, limit: 5 })) as {
      comments: { body: string }[];
      nextOffset: number | null;
    };
    expect(first.comments.map((c) => c.body)).toEqual([0, 1, 2, 3, 4].map((i) => `comment ${i}`));
    expect(first.nextOffset).toBe(5);
  });

  it("answers not_found for another company's task, by UUID or by its identifier", async () => {
    expect(errorCode(await conn.call("paperclip_read_task", { companyId, taskId: otherIssueId }))).toBe(
      "not_found",
    );
    expect(errorCode(await conn.call("paperclip_read_task", { companyId, taskId: "GLX-1" }))).toBe(
      "not_found",
    );
    expect(errorCode(await conn.call("paperclip_read_task", { companyId, taskId: "ACME-99999" }))).toBe(
      "not_found",
    );
    expect(errorCode(await conn.call("paperclip_read_task", { companyId, taskId: "../../etc" }))).toBe(
      "not_found",
    );
  });
});

describe("paperclip_create_task and paperclip_add_comment", () => {
  it("creates an assigned task attributed to the person via the client", async () => {
    const requestId = randomUUID();
    const result = mutation<CreatedTask>(
      await conn.call("paperclip_create_task", {
        companyId,
        requestId,
        title: "Summarise the R2 beta feedback",
        body: "From the assistant",
        assigneeAgentId: demo.agents[0]!.id,
      }),
    );
    expect(result.outcome).toBe("succeeded");
    expect(result.requestId).toBe(requestId);
    const task = result.result.task;
    expect(task).toMatchObject({ title: "Summarise the R2 beta feedback", status: "todo" });
    expect(task.assignee?.id).toBe(demo.agents[0]!.id);
    expect(task.link).toBe(`${origin}/c/${companyId}/issues/${task.id}`);
    const [row] = await database.db.select().from(issues).where(eq(issues.id, task.id));
    expect(row!.createdByUserId).toBe(ownerId);
    expect(row!.createdVia).toEqual({
      grantId: conn.grantId,
      clientId: expect.any(String),
      clientName: CLIENT,
    });
    const [activity] = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, "issue.create"), eq(activityLog.entityId, task.id)));
    expect(activity).toMatchObject({ actorType: "user", actorId: ownerId });
    expect(activity!.details.via).toMatchObject({ grantId: conn.grantId, clientName: CLIENT });
    const read = sc<TaskRead>(await conn.call("paperclip_read_task", { companyId, taskId: task.id }));
    expect(read.task.createdBy).toMatchObject({ id: ownerId, name: "Ada Owner" });
    expect(read.task.createdVia).toEqual({ clientName: CLIENT });
  });

  it("rejects an unknown agent, another company's agent or project, and a missing assignee", async () => {
    const create = (args: Args) =>
      conn.call("paperclip_create_task", { companyId, requestId: randomUUID(), title: "t", ...args });
    const unknown = mutation(await create({ assigneeAgentId: randomUUID() }));
    expect(unknown.outcome).toBe("rejected");
    expect(unknown.error!.code).toBe("not_found");
    const [otherAgent] = await database.db
      .insert(agents)
      .values({ companyId: otherCompanyId, name: "Globex bot" })
      .returning();
    expect(mutation(await create({ assigneeAgentId: otherAgent!.id })).error!.code).toBe("not_found");
    const foreignProject = mutation(
      await create({ assigneeAgentId: demo.agents[0]!.id, projectId: randomUUID() }),
    );
    expect(foreignProject).toMatchObject({ outcome: "rejected", error: { code: "not_found" } });
    expect(errorCode(await create({}))).toBe("arguments_invalid");
  });

  it("adds a comment whose payload and activity row name the client", async () => {
    const result = mutation<AddedComment>(
      await conn.call("paperclip_add_comment", {
        companyId,
        requestId: randomUUID(),
        taskId: "ACME-1",
        body: "Please prioritise the crash reports",
      }),
    );
    expect(result.outcome).toBe("succeeded");
    const { commentId, taskId, link } = result.result;
    expect(link).toBe(`${origin}/c/${companyId}/issues/${taskId}`);
    const [comment] = await database.db.select().from(issueComments).where(eq(issueComments.id, commentId));
    expect(comment).toMatchObject({ authorType: "user", authorUserId: ownerId, issueId: taskId });
    expect(comment!.payload).toEqual({ via: { grantId: conn.grantId, clientName: CLIENT } });
    const [activity] = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, "issue.comment"), eq(activityLog.entityId, taskId)));
    expect(activity).toMatchObject({ actorType: "user", actorId: ownerId });
    expect(activity!.details).toMatchObject({
      commentId,
      via: { grantId: conn.grantId, clientName: CLIENT },
    });
    const read = sc<TaskRead>(await conn.call("paperclip_read_task", { companyId, taskId }));
    expect(read.comments.at(-1)).toMatchObject({ id: commentId, via: { clientName: CLIENT } });
  });

  it("refuses a comment on another company's task with not_found and writes nothing", async () => {
    const result = mutation(
      await conn.call("paperclip_add_comment", {
        companyId,
        requestId: randomUUID(),
        taskId: otherIssueId,
        body: "hi",
      }),
    );
    expect(result).toMatchObject({ outcome: "rejected", error: { code: "not_found" } });
    const rows = await database.db
      .select()
      .from(issueComments)
      .where(eq(issueComments.issueId, otherIssueId));
    expect(rows).toHaveLength(0);
  });
});

describe("paperclip_pending_approvals", () => {
  it("lists pending formal approvals and action requests with company-prefixed decision links", async () => {
    const result = sc<PendingApprovals>(await conn.call("paperclip_pending_approvals", { companyId }));
    expect(result.approvals).toEqual([
      expect.objectContaining({
        title: "Trust drafting replies",
        kind: "trust_rule",
        youMayDecide: true,
        decisionLink: `${origin}/c/${companyId}/settings/tools/approvals`,
      }),
    ]);
    expect(result.actionRequests).toEqual([
      expect.objectContaining({
        toolName: "outbox__send_email",
        issueId: runIssueId,
        youMayDecide: true,
        decisionLink: `${origin}/c/${companyId}/issues/${runIssueId}`,
      }),
    ]);
    expect(JSON.stringify(result)).not.toMatch(/reviewedArgs|argsEncrypted|customer@example\.com/);
  });
});

describe("refusals", () => {
  it("refuses another company's id with company_not_granted, on every company-scoped tool", async () => {
    const tools: [string, Args][] = [
      ["paperclip_list_agents", {}],
      ["paperclip_list_projects", {}],
      ["paperclip_search_tasks", {}],
      ["paperclip_read_task", { taskId: otherIssueId }],
      ["paperclip_pending_approvals", {}],
      ["paperclip_create_task", { requestId: randomUUID(), title: "x", assigneeAgentId: demo.agents[0]!.id }],
      ["paperclip_add_comment", { requestId: randomUUID(), taskId: otherIssueId, body: "x" }],
    ];
    for (const [tool, args] of tools)
      expect(errorCode(await conn.call(tool, { companyId: otherCompanyId, ...args })), tool).toBe(
        "company_not_granted",
      );
  });

  it("a read-only grant reads but cannot create tasks or comment (insufficient_scope)", async () => {
    const reader = await connectAssistant(database.db, {
      userId: ownerId,
      companyId,
      scopes: ["paperclip:read"],
    });
    expect((await reader.call("paperclip_list_agents", { companyId })).isError).toBeFalsy();
    expect((await reader.call("paperclip_read_task", { companyId, taskId: "ACME-1" })).isError).toBeFalsy();
    const create = await reader.call("paperclip_create_task", {
      companyId,
      requestId: randomUUID(),
      title: "x",
      assigneeAgentId: demo.agents[0]!.id,
    });
    expect(errorCode(create)).toBe("insufficient_scope");
    expect(sc<Refusal>(create).error.details).toEqual({
      required: "paperclip:write",
      granted: ["paperclip:read"],
    });
    const comment = await reader.api("add_comment", {
      companyId,
      requestId: randomUUID(),
      taskId: "ACME-1",
      body: "x",
    });
    expect(comment.error).toMatchObject({ code: "insufficient_scope" });
  });

  it("a viewer's grant is narrowed to reading by the role, whatever it asked for", async () => {
    const viewerId = await addMember(database.db, companyId, {
      email: "viewer@acme.example",
      name: "Vera Viewer",
      role: "viewer",
    });
    const asViewer = await connectAssistant(database.db, { userId: viewerId, companyId });
    expect((await asViewer.call("paperclip_search_tasks", { companyId })).isError).toBeFalsy();
    expect(
      sc<PendingApprovals>(await asViewer.call("paperclip_pending_approvals", { companyId })).approvals[0]!
        .youMayDecide,
    ).toBe(false);
    for (const [tool, args] of [
      ["paperclip_create_task", { title: "x", assigneeAgentId: demo.agents[0]!.id }],
      ["paperclip_add_comment", { taskId: "ACME-1", body: "x" }],
    ] as const)
      expect(
        errorCode(await asViewer.call(tool, { companyId, requestId: randomUUID(), ...args })),
        tool,
      ).toBe("insufficient_scope");
  });
});

describe("the Assistant connections page's recent activity", () => {
  const asPerson = (userId: string): ServiceContext => ({
    db: database.db,
    actor: { type: "user", userId, email: "x@example.com" },
    requestId: "test",
    now: () => new Date(),
  });

  it("lists what a connection did, newest first, bounded, to its own person only", async () => {
    for (let i = 0; i < ACTIVITY_PER_CONNECTION + 2; i++)
      await conn.call("paperclip_add_comment", {
        companyId,
        requestId: randomUUID(),
        taskId: "ACME-2",
        body: `note ${i}`,
      });
    const other = await connectAssistant(database.db, { userId: ownerId, companyId, clientName: "Other" });
    const activity = await listConnectionActivity(asPerson(ownerId), [conn.grantId, other.grantId]);
    const mine = activity[conn.grantId]!;
    expect(mine).toHaveLength(ACTIVITY_PER_CONNECTION);
    expect(mine.every((a) => a.action === "issue.comment" && a.companyId === companyId)).toBe(true);
    const times = mine.map((a) => a.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(activity[other.grantId]).toBeUndefined();
    // Another person asking for this grant's activity reads nothing.
    const stranger = await addMember(database.db, companyId, {
      email: "stranger@acme.example",
      name: "S",
      role: "member",
    });
    expect(await listConnectionActivity(asPerson(stranger), [conn.grantId])).toEqual({});
  });
});
