/**
 * The end-to-end acceptance of the public MCP connection (docs/public-mcp.md, "Tools";
 * docs/public-mcp-requirements.md, "Public MCP 2"): the real MCP SDK `Client` over Streamable
 * HTTP against `/mcp/paperclip` served on loopback, with a bearer token of an assistant
 * connection. It delegates a task to an agent, comments on it, reads it back and checks that
 * the audit trail names the person and the client. (The OAuth dance itself is proven in
 * server/oauth/oauth.int.test.ts; here the grant is made directly.)
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityLog, issues } from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import { connectAssistant, servePublicMcp } from "@/server/testing/public-mcp";
import { closeDemoWorld, demoOwner, demoWorld, type TestDatabase } from "@/server/testing/world";
import type { AddedComment, AgentList, CreatedTask, ProjectList, TaskRead } from "./operations/original";

const CLIENT = "Acceptance Assistant";

let database: TestDatabase;
let demo: DemoCredentials;
let ownerId: string;
let served: Awaited<ReturnType<typeof servePublicMcp>>;
let grantId: string;
let client: Client;

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  ownerId = (await demoOwner(database.db, demo)).id;
  served = await servePublicMcp(database.db);
  const conn = await connectAssistant(database.db, {
    userId: ownerId,
    companyId: demo.companyId,
    clientName: CLIENT,
  });
  grantId = conn.grantId;
  client = new Client({ name: "acceptance", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(served.url, {
      requestInit: { headers: { Authorization: `Bearer ${conn.token}` } },
    }),
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  await served?.close();
  await closeDemoWorld(database);
});

/** Calls a tool over HTTP; fails the test on a tool error. */
async function tool<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  return result.structuredContent as T;
}

/** A mutation's recorded result; fails the test unless it succeeded. */
async function mutate<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const requestId = randomUUID();
  const answer = await tool<{ outcome: string; requestId: string; result: T }>(name, { ...args, requestId });
  expect(answer, JSON.stringify(answer)).toMatchObject({ outcome: "succeeded", requestId });
  return answer.result;
}

describe("an assistant delegates work through the MCP SDK client", () => {
  it("lists the tools, agents and projects, creates an assigned task, comments, reads it, audited", async () => {
    const companyId = demo.companyId;
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "paperclip_connection",
        "paperclip_list_agents",
        "paperclip_list_projects",
        "paperclip_search_tasks",
        "paperclip_read_task",
        "paperclip_create_task",
        "paperclip_add_comment",
        "paperclip_pending_approvals",
        "paperclip_search_api",
        "paperclip_call_api",
      ]),
    );
    expect(tools.find((t) => t.name === "paperclip_create_task")!.annotations?.readOnlyHint).toBe(false);

    const { agents } = await tool<AgentList>("paperclip_list_agents", { companyId });
    const triage = agents.find((a) => a.name === "Triage Bot")!;
    // The seed's assigned issues queue runs (assignment schedules the assignee).
    expect(["idle", "queued", "running"]).toContain(triage.availability);
    const { projects } = await tool<ProjectList>("paperclip_list_projects", { companyId });
    const firmware = projects.find((p) => p.name === "Robot Firmware")!;

    const { task } = await mutate<CreatedTask>("paperclip_create_task", {
      companyId,
      title: "Collect crash logs from the R2 beta",
      body: "Delegated from an assistant conversation.",
      assigneeAgentId: triage.id,
      projectId: firmware.id,
    });
    expect(task.link).toBe(`${served.origin}/c/${companyId}/issues/${task.id}`);
    expect(task.assignee).toEqual({ id: triage.id, name: "Triage Bot" });

    const comment = await mutate<AddedComment>("paperclip_add_comment", {
      companyId,
      taskId: task.identifier,
      body: "Start with the reports from this week.",
    });
    expect(comment.taskId).toBe(task.id);

    const read = await tool<TaskRead>("paperclip_read_task", { companyId, taskId: task.identifier });
    expect(read.task).toMatchObject({
      id: task.id,
      title: "Collect crash logs from the R2 beta",
      body: "Delegated from an assistant conversation.",
      project: { id: firmware.id, name: "Robot Firmware" },
      createdBy: { id: ownerId, name: "Ada Owner" },
      createdVia: { clientName: CLIENT },
    });
    expect(read.comments).toEqual([
      expect.objectContaining({
        id: comment.commentId,
        author: { type: "user", name: "Ada Owner" },
        via: { clientName: CLIENT },
        body: "Start with the reports from this week.",
      }),
    ]);

    // The audit trail: the person is the actor, the connection and its client are named.
    const rows = await database.db
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.entityId, task.id),
          inArray(activityLog.action, ["issue.create", "issue.comment"]),
        ),
      );
    expect(rows.map((r) => r.action).sort()).toEqual(["issue.comment", "issue.create"]);
    for (const row of rows) {
      expect(row).toMatchObject({ companyId, actorType: "user", actorId: ownerId });
      expect(row.details.via).toMatchObject({ grantId, clientName: CLIENT });
    }
  });

  it("answers a tool error, not a transport error, for another company", async () => {
    const result = (await client.callTool({
      name: "paperclip_list_agents",
      arguments: { companyId: randomUUID() },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "company_not_granted" } });
  });

  it("writes a document, uploads 3 MB through the URL, lists deliverables, finishes; a run was queued", async () => {
    const companyId = demo.companyId;
    const { agents } = await tool<AgentList>("paperclip_list_agents", { companyId });
    const triage = agents.find((a) => a.name === "Triage Bot")!;
    const { task } = await mutate<CreatedTask>("paperclip_create_task", {
      companyId,
      title: "Write up the R2 crash analysis",
      assigneeAgentId: triage.id,
    });

    // Assigned on creation: a heartbeat run is queued for the assignee.
    const runs = await callApi<{ runs: { agent: { id: string }; status: string }[] }>("list_task_runs", {
      companyId,
      taskId: task.id,
    });
    expect(runs.runs).toEqual([
      expect.objectContaining({ agent: expect.objectContaining({ id: triage.id }), status: "queued" }),
    ]);

    // A document, then an edit on its revision; a stale revision is a conflict.
    const created = await callApiMutation<{ revisionId: string; revision: number }>("write_document", {
      companyId,
      taskId: task.id,
      key: "report",
      body: "# Crash analysis\n\nFirst draft.",
      baseRevisionId: null,
    });
    const edited = await callApiMutation<{ revisionId: string; revision: number }>("write_document", {
      companyId,
      taskId: task.id,
      key: "report",
      body: "# Crash analysis\n\nThe watchdog resets on low battery.",
      baseRevisionId: created.revisionId,
    });
    expect(edited.revision).toBe(created.revision + 1);
    const stale = await callApi<{ outcome: string; error: { code: string } }>("write_document", {
      companyId,
      taskId: task.id,
      key: "report",
      body: "overwrite",
      baseRevisionId: created.revisionId,
      requestId: randomUUID(),
    });
    expect(stale).toMatchObject({ outcome: "rejected", error: { code: "revision_conflict" } });
    const doc = await tool<{ body: string; revisionId: string }>("paperclip_read_document", {
      companyId,
      taskId: task.id,
      key: "report",
    });
    expect(doc).toMatchObject({
      body: "# Crash analysis\n\nThe watchdog resets on low battery.",
      revisionId: edited.revisionId,
    });

    // 3 MB through the transfer URL: the PUT's answer is the saved attachment.
    const bytes = randomBytes(3 * 1024 * 1024);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const upload = await tool<{ uploadUrl: string; headers: Record<string, string> }>(
      "paperclip_get_upload_url",
      {
        companyId,
        taskId: task.id,
        filename: "crash-logs.bin",
        contentType: "application/octet-stream",
        byteSize: bytes.length,
        sha256,
        requestId: randomUUID(),
      },
    );
    expect(upload.uploadUrl.startsWith(`${served.origin}/mcp/files/`)).toBe(true);
    const put = await fetch(upload.uploadUrl, { method: "PUT", headers: upload.headers, body: bytes });
    expect(put.status).toBe(201);
    const attachment = (await put.json()) as { id: string; sha256: string; byteSize: number };
    expect(attachment).toMatchObject({ sha256, byteSize: bytes.length });

    const download = await tool<{ downloadUrl: string }>("paperclip_get_download_url", {
      companyId,
      attachmentId: attachment.id,
    });
    const got = Buffer.from(await (await fetch(download.downloadUrl)).arrayBuffer());
    expect(got.length).toBe(bytes.length);
    expect(createHash("sha256").update(got).digest("hex")).toBe(sha256);

    const deliverables = await tool<{
      documents: { key: string }[];
      attachments: { id: string; sha256: string }[];
    }>("paperclip_list_deliverables", { companyId, taskId: task.id });
    expect(deliverables.documents.map((d) => d.key)).toEqual(["report"]);
    expect(deliverables.attachments).toEqual([expect.objectContaining({ id: attachment.id, sha256 })]);

    const finished = await callApiMutation<{ task: { status: string } }>("finish_task", {
      companyId,
      taskId: task.id,
      summary: "Report written, logs attached.",
    });
    expect(finished.task.status).toBe("done");
    // The run that never started is cancelled with the task: nothing wakes the agent for it.
    const after = await callApi<{ runs: { status: string }[] }>("list_task_runs", {
      companyId,
      taskId: task.id,
    });
    expect(after.runs.map((r) => r.status)).toEqual(["cancelled"]);

    // Every step is the person's, through this connection.
    const rows = await database.db.select().from(activityLog).where(eq(activityLog.entityId, task.id));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const row of rows.filter((r) => r.actorType === "user")) {
      expect(row.actorId).toBe(ownerId);
      expect(row.details.via).toMatchObject({ grantId, clientName: CLIENT });
    }
  });

  it("the same requestId 20 times at once creates one task; changed arguments are refused", async () => {
    const companyId = demo.companyId;
    const { agents } = await tool<AgentList>("paperclip_list_agents", { companyId });
    const requestId = randomUUID();
    const args = { companyId, title: "Exactly once", assigneeAgentId: agents[0]!.id, requestId };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        client
          .callTool({ name: "paperclip_create_task", arguments: args })
          .then((r) => (r as CallToolResult).structuredContent as { outcome: string; result?: CreatedTask }),
      ),
    );
    const made = await database.db.select().from(issues).where(eq(issues.title, "Exactly once"));
    expect(made).toHaveLength(1);
    for (const a of answers) expect(["succeeded", "unknown"]).toContain(a.outcome);
    const replay = await tool<{ outcome: string; result: CreatedTask }>("paperclip_create_task", args);
    expect(replay.outcome).toBe("succeeded");
    expect(replay.result.task.id).toBe(made[0]!.id);
    const changed = await tool<{ outcome: string; error: { code: string } }>("paperclip_create_task", {
      ...args,
      title: "Exactly once, renamed",
    });
    expect(changed).toMatchObject({ outcome: "rejected", error: { code: "request_id_reused" } });
  });
});

/** `paperclip_call_api` over HTTP; fails the test on a tool error. */
function callApi<T>(operation: string, args: Record<string, unknown>): Promise<T> {
  return tool<T>("paperclip_call_api", { operation, arguments: args });
}

/** A mutation through `paperclip_call_api`; its recorded result, failing unless it succeeded. */
async function callApiMutation<T>(operation: string, args: Record<string, unknown>): Promise<T> {
  const requestId = randomUUID();
  const answer = await callApi<{ outcome: string; result: T }>(operation, { ...args, requestId });
  expect(answer, JSON.stringify(answer)).toMatchObject({ outcome: "succeeded", requestId });
  return answer.result;
}
