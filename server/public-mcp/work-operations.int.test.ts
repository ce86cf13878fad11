import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityLog, companies, companyMemberships, issues, users } from "@/db/schema";
import type { ServiceContext } from "../context";
import { createIssue } from "../core/issues";
import type { DemoCredentials } from "../core/seed";
import { ALL_SCOPES, connectAssistant, type TestConnection } from "../testing/public-mcp";
import { closeDemoWorld, demoWorld, type TestDatabase } from "../testing/world";
import { operationNamed } from "./operations";
import { runOperation } from "./tools";

let database: TestDatabase;
let demo: DemoCredentials;
let owner: ServiceContext;
let conn: TestConnection;
let companyId: string;

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  companyId = demo.companyId;
  const [u] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
  owner = {
    db: database.db,
    actor: { type: "user", userId: u!.id, email: u!.email },
    requestId: "t",
    now: () => new Date(),
  };
  conn = await connectAssistant(database.db, { userId: u!.id, companyId, clientName: "Claude Test" });
});
afterAll(() => closeDemoWorld(database));

const newTask = (status: "todo" | "backlog" = "todo") =>
  createIssue(owner, companyId, { title: "Assistant task", body: "", status });

type Outcome = {
  outcome: string;
  result?: Record<string, unknown>;
  error?: { code: string; details?: Record<string, unknown> };
};
const mutate = async (operation: string, args: Record<string, unknown>) =>
  (await conn.api(operation, { companyId, requestId: randomUUID(), ...args })) as Outcome;

describe("work operations", () => {
  it("writes a document, reads it by identifier through the direct tool, and refuses a stale edit", async () => {
    const task = await newTask();
    const created = await mutate("write_document", {
      taskId: task.id,
      key: "plan",
      body: "# v1",
      baseRevisionId: null,
    });
    expect(created.outcome, JSON.stringify(created)).toBe("succeeded");
    const read = await conn.call("paperclip_read_document", {
      companyId,
      taskId: task.identifier,
      key: "plan",
    });
    const doc = read.structuredContent as {
      body: string;
      revisionId: string;
      revision: number;
      link: string;
    };
    expect(doc).toMatchObject({ body: "# v1", revision: 1, revisionId: created.result!.revisionId });
    expect(doc.link).toContain(`/c/${companyId}/issues/${task.id}`);
    const edited = await mutate("write_document", {
      taskId: task.id,
      key: "plan",
      body: "# v2",
      baseRevisionId: doc.revisionId,
    });
    expect(edited.result!.revision).toBe(2);
    const stale = await mutate("write_document", {
      taskId: task.id,
      key: "plan",
      body: "x",
      baseRevisionId: doc.revisionId,
    });
    expect(stale.outcome).toBe("rejected");
    expect(stale.error).toMatchObject({
      code: "revision_conflict",
      details: { current: { revision: 2, revisionId: edited.result!.revisionId } },
    });
    const history = await conn.api("document_history", { companyId, taskId: task.id, key: "plan" });
    expect(
      (history.revisions as { revision: number; viaClient: string }[]).map((r) => [r.revision, r.viaClient]),
    ).toEqual([
      [2, "Claude Test"],
      [1, "Claude Test"],
    ]);
  });

  it("lets exactly one of two concurrent assistant edits on the same revision win", async () => {
    const task = await newTask();
    const created = await mutate("write_document", {
      taskId: task.id,
      key: "notes",
      body: "v1",
      baseRevisionId: null,
    });
    const base = created.result!.revisionId;
    const both = await Promise.all(
      ["a", "b"].map((w) =>
        mutate("write_document", { taskId: task.id, key: "notes", body: w, baseRevisionId: base }),
      ),
    );
    expect(both.map((r) => r.outcome).sort()).toEqual(["rejected", "succeeded"]);
    expect(both.find((r) => r.outcome === "rejected")!.error!.code).toBe("revision_conflict");
  });

  it("updates, blocks and finishes a task; assignment queues a run listed by list_task_runs", async () => {
    const task = await newTask();
    const agentId = demo.agents[0]!.id;
    const updated = await mutate("update_task", {
      taskId: task.identifier,
      title: "Renamed",
      assigneeAgentId: agentId,
    });
    expect(updated.outcome, JSON.stringify(updated)).toBe("succeeded");
    const view = updated.result as { task: { title: string; assignee: { id: string } }; queuedRunId: string };
    expect(view.task).toMatchObject({ title: "Renamed", assignee: { id: agentId } });
    expect(view.queuedRunId).toBeTruthy();
    const runs = await conn.api("list_task_runs", { companyId, taskId: task.id });
    expect(runs.runs).toEqual([
      expect.objectContaining({
        id: view.queuedRunId,
        status: "queued",
        agent: expect.objectContaining({ id: agentId }),
      }),
    ]);
    const blocked = await mutate("block_task", { taskId: task.id, reason: "waiting for access" });
    expect((blocked.result as { task: { status: string; blockedReason: string } }).task).toMatchObject({
      status: "blocked",
      blockedReason: "waiting for access",
    });
    const refused = await mutate("finish_task", { taskId: task.id, summary: "done?" });
    expect(refused).toMatchObject({ outcome: "rejected", error: { code: "invalid_transition" } });
    await mutate("update_task", { taskId: task.id, status: "in_progress" });
    const finished = await mutate("finish_task", { taskId: task.id, summary: "shipped" });
    expect((finished.result as { task: { status: string } }).task.status).toBe("done");
    // A status update cannot block (no reason): the schema leaves `blocked` out.
    const noBlock = await conn.api("update_task", {
      companyId,
      requestId: randomUUID(),
      taskId: task.id,
      status: "blocked",
    });
    expect((noBlock.error as { code: string }).code).toBe("arguments_invalid");
  });

  it("registers and updates deliverables and lists them with documents and attachments", async () => {
    const task = await newTask();
    await mutate("write_document", { taskId: task.id, key: "report", body: "r", baseRevisionId: null });
    const link = await mutate("register_deliverable", {
      taskId: task.id,
      kind: "link",
      title: "Preview",
      reference: "https://example.com/preview",
    });
    expect(link.outcome, JSON.stringify(link)).toBe("succeeded");
    const bad = await mutate("register_deliverable", {
      taskId: task.id,
      kind: "link",
      title: "x",
      reference: "file:///etc/passwd",
    });
    expect(bad).toMatchObject({ outcome: "rejected", error: { code: "invalid_request" } });
    const changed = await mutate("update_deliverable", {
      taskId: task.id,
      deliverableId: link.result!.id,
      kind: "document",
      reference: "report",
    });
    expect(changed.result).toMatchObject({
      kind: "document",
      reference: "report",
      revision: 2,
      viaClient: "Claude Test",
    });
    const listed = (await conn.call("paperclip_list_deliverables", { companyId, taskId: task.id }))
      .structuredContent as {
      documents: { key: string }[];
      workProducts: unknown[];
      attachments: unknown[];
    };
    expect(listed.documents.map((d) => d.key)).toEqual(["report"]);
    expect(listed.workProducts).toHaveLength(1);
    expect(listed.attachments).toEqual([]);
  });

  it("names the person and the client in the task history and the activity rows", async () => {
    const task = await newTask();
    await mutate("update_task", { taskId: task.id, title: "Via assistant" });
    const history = await conn.api("task_history", { companyId, taskId: task.id });
    const events = history.events as {
      action: string;
      via: { clientName: string } | null;
      actorType: string;
    }[];
    expect(events[0]).toMatchObject({
      action: "issue.update",
      actorType: "user",
      via: { clientName: "Claude Test" },
    });
    expect(events.at(-1)).toMatchObject({ action: "issue.create", via: null });
    const [row] = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, task.id), eq(activityLog.action, "issue.update")));
    expect(row!.details.via).toMatchObject({ grantId: conn.grantId, clientName: "Claude Test" });
  });

  it("refuses writes to a read-only connection with insufficient_scope", async () => {
    const task = await newTask();
    const [u] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
    const readOnly = await connectAssistant(database.db, {
      userId: u!.id,
      companyId,
      scopes: ["paperclip:read"],
    });
    for (const [op, args] of [
      ["update_task", { title: "x" }],
      ["finish_task", {}],
      ["block_task", { reason: "x" }],
      ["write_document", { key: "plan", body: "x", baseRevisionId: null }],
      ["register_deliverable", { kind: "link", title: "x", reference: "https://example.com" }],
      ["update_deliverable", { deliverableId: randomUUID(), title: "x" }],
    ] as const) {
      const res = await readOnly.api(op, { companyId, requestId: randomUUID(), taskId: task.id, ...args });
      expect((res.error as { code: string }).code, op).toBe("insufficient_scope");
    }
    const read = await readOnly.api("task_history", { companyId, taskId: task.id });
    expect(read.events).toBeTruthy();
  });

  it("narrows a viewer's write grant to read, and the verb refuses a viewer even with the scope", async () => {
    const task = await newTask();
    const [viewer] = await database.db
      .insert(users)
      .values({ email: `viewer-${Date.now()}@example.com` })
      .returning();
    await database.db.insert(companyMemberships).values({ companyId, userId: viewer!.id, role: "viewer" });
    const viewerConn = await connectAssistant(database.db, {
      userId: viewer!.id,
      companyId,
      scopes: ALL_SCOPES,
    });
    const session = await viewerConn.session();
    // liveGrant keeps only the scopes the person's role allows: a viewer holds read only.
    expect(session.scopes).toEqual(["paperclip:read"]);
    const res = await viewerConn.api("update_task", {
      companyId,
      requestId: randomUUID(),
      taskId: task.id,
      title: "x",
    });
    expect((res.error as { code: string }).code).toBe("insufficient_scope");
    // Past the scope check (a role changed after the session was built), the verb's own
    // requireCompany refuses: defence in depth, not one check.
    const widened = { ...session, scopes: ALL_SCOPES };
    const forced = await runOperation(widened, operationNamed("update_task")!, {
      companyId,
      requestId: randomUUID(),
      taskId: task.id,
      title: "x",
    });
    expect(forced.structuredContent).toMatchObject({ outcome: "rejected", error: { code: "forbidden" } });
    const [row] = await database.db.select().from(issues).where(eq(issues.id, task.id));
    expect(row!.title).toBe("Assistant task");
  });

  it("answers not_found for a task of another company the person also belongs to", async () => {
    const [other] = await database.db
      .insert(companies)
      .values({ name: "Second", slug: `second-${Date.now()}`, issuePrefix: "SEC" })
      .returning();
    const [u] = await database.db.select().from(users).where(eq(users.email, demo.ownerEmail));
    await database.db
      .insert(companyMemberships)
      .values({ companyId: other!.id, userId: u!.id, role: "owner" });
    const foreign = await createIssue(owner, other!.id, { title: "elsewhere", body: "", status: "todo" });
    for (const taskId of [foreign.id, foreign.identifier, "ACME-99999", "not a task"]) {
      const res = await conn.call("paperclip_read_document", { companyId, taskId, key: "plan" });
      expect(res.isError, taskId).toBe(true);
      expect((res.structuredContent as { error: { code: string } }).error.code, taskId).toBe("not_found");
    }
    const res = await mutate("update_task", { taskId: foreign.id, title: "x" });
    expect(res).toMatchObject({ outcome: "rejected", error: { code: "not_found" } });
  });
});
