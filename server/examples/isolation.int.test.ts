/**
 * Issue 12 "Examples isolated": the in-app example fixture endpoint, served on a real loopback
 * HTTP server exactly as Next serves it, installed by two companies through the real install
 * route, reached by their agents through the real gateway (REST and MCP over HTTP with the
 * SDK client). Nothing is mocked.
 */

import http, { createServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as approveRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/approve/route";
import * as executeRoute from "@/app/api/companies/[companyId]/tools/action-requests/[actionRequestId]/execute/route";
import * as applicationRoute from "@/app/api/companies/[companyId]/tools/applications/[applicationId]/route";
import * as installRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/install/route";
import * as smokeRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/smoke/route";
import * as examplesRoute from "@/app/api/companies/[companyId]/tools/examples/route";
import * as mcpRoute from "@/app/api/tool-gateway/mcp/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import {
  activityLog,
  companySecretBindings,
  companySecrets,
  exampleCredentials,
  issues,
  toolCallEvents,
} from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import { resolveConnectionSecrets } from "@/server/secrets/resolve";
import { call } from "@/server/testing/api";
import { listenLoopback, toRequest } from "@/server/testing/serve";
import {
  closeDemoWorld,
  demoWorld,
  installExample,
  strangerCompany,
  type TestDatabase,
} from "@/server/testing/world";
import { handleExampleFixture } from "./fixture-endpoint";

let database: TestDatabase;
let demo: DemoCredentials;
let server: http.Server;
let origin: string;
let port: number;
const A = { companyId: "", board: "", agentId: "", token: "", issueId: "" };
const B = { companyId: "", board: "", agentId: "", token: "" };
const CANARY_A = "company-a-private-value-7e1f";
const TODO_A = "company A secret to-do 91c2";

type CallJson = {
  error?: { code: string; message: string; actionRequestId?: string };
  result?: { structuredContent?: Record<string, unknown>; content?: { text?: string }[] };
};
const agentCall = (token: string, body: unknown) =>
  call<CallJson>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
    token,
    body,
    headers: { host: new URL(origin).host },
  });

/** A raw request with any Host/Origin (fetch forbids setting Host). */
function rawPost(
  pathName: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: pathName,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(data),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

const rpc = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method,
  params,
});

async function startRun(board: string, agentId: string, issueId?: string) {
  const res = await call<{ gateway: { token: string } }>(agentRunsRoute.POST, "POST", "/", {
    token: board,
    params: { agentId },
    body: issueId ? { issueId } : {},
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.gateway.token;
}

async function install(c: { companyId: string; board: string }, exampleId: string) {
  const res = await installExample<{ connectionId: string; applicationId: string }>(
    { companyId: c.companyId, boardApiKey: c.board },
    exampleId,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}

let todoA: { connectionId: string; applicationId: string };

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const match = /^\/api\/examples\/mcp\/([^/]+)$/.exec(url.pathname);
    const request = await toRequest(req);
    const response = match
      ? await handleExampleFixture(request, decodeURIComponent(match[1]!))
      : url.pathname === "/api/tool-gateway/mcp"
        ? await mcpRoute.POST(request)
        : new Response(null, { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  port = await listenLoopback(server);
  origin = `http://127.0.0.1:${port}`;
  // The examples' default URL is `${publicOrigin()}/api/examples/mcp/<fixture>`: this server.
  process.env.PAPERCLIP_PUBLIC_URL = origin;

  ({ database, demo } = await demoWorld({ home: "pc-examples-iso-", gateway: true, origin }));
  A.companyId = demo.companyId;
  A.board = demo.boardApiKey;
  A.agentId = demo.agents[0]!.id;
  const [issue] = await database.db
    .select({ id: issues.id })
    .from(issues)
    .where(eq(issues.companyId, A.companyId))
    .limit(1);
  A.issueId = issue!.id;

  // Company B: made by any signed-in user, who becomes its owner.
  const b = await strangerCompany(database.db, "Globex", { agent: "Globex agent" });
  B.companyId = b.companyId;
  B.board = b.boardKey;
  B.agentId = b.agentId!;

  todoA = await install(A, "todo");
  await install(B, "todo");
  A.token = await startRun(A.board, A.agentId, A.issueId);
  B.token = await startRun(B.board, B.agentId);
}, 120_000);

afterAll(async () => {
  delete process.env.PAPERCLIP_PUBLIC_URL;
  delete process.env.PAPERCLIP_EXAMPLES;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await closeDemoWorld(database);
});

describe("install", () => {
  it("gives each install its own credential: a company secret bound as the Authorization header, stored elsewhere only hashed", async () => {
    const rows = await database.db.select().from(exampleCredentials);
    expect(rows.map((r) => r.companyId).sort()).toEqual([A.companyId, B.companyId].sort());
    expect(new Set(rows.map((r) => r.credentialHash)).size).toBe(2);
    for (const r of rows) expect(r.credentialHash).toMatch(/^[0-9a-f]{64}$/);
    const bound = await database.db
      .select({
        target: companySecretBindings.target,
        prefix: companySecretBindings.valuePrefix,
        name: companySecrets.name,
      })
      .from(companySecretBindings)
      .innerJoin(companySecrets, eq(companySecrets.id, companySecretBindings.secretId))
      .where(
        and(
          eq(companySecretBindings.companyId, A.companyId),
          eq(companySecretBindings.connectionId, todoA.connectionId),
        ),
      );
    expect(bound).toEqual([{ target: "authorization", prefix: "Bearer ", name: "EXAMPLE_TODO_CREDENTIAL" }]);
    // The raw credential is nowhere in the database outside the encrypted secret version.
    const dump = JSON.stringify(await database.db.execute(sql`select * from activity_log`));
    expect(dump).not.toContain("pcex_");
    const events = JSON.stringify(await database.db.select().from(toolCallEvents));
    expect(events).not.toContain("pcex_");
  });

  it("the smoke checks of the HTTP examples still pass", async () => {
    for (const exampleId of ["echo", "outbox", "social"]) await install(A, exampleId);
    for (const exampleId of ["echo", "todo", "outbox", "social"]) {
      const res = await call<{ checks: { name: string; passed: boolean }[] }>(smokeRoute.POST, "POST", "/", {
        token: A.board,
        params: { companyId: A.companyId, exampleId },
        body: { agentId: A.agentId },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      for (const c of res.json.checks)
        expect(c.passed, `${exampleId}: ${c.name} ${JSON.stringify(c)}`).toBe(true);
    }
  });
});

describe("the fixture endpoint itself", () => {
  it("refuses a request without a credential (401), whatever the method, and reveals no state", async () => {
    for (const fixture of ["todo", "echo", "outbox", "social"]) {
      const res = await fetch(`${origin}/api/examples/mcp/${fixture}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(rpc("tools/list")),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const text = await res.text();
      expect(text).not.toContain("todo_list");
    }
    expect((await fetch(`${origin}/api/examples/mcp/todo`)).status).toBe(401);
  });

  it("refuses an unknown, malformed or other-fixture credential (401)", async () => {
    for (const auth of [
      `Bearer pcex_${"A".repeat(43)}`,
      "Bearer not-a-credential",
      "Basic dXNlcjpwYXNz",
      `Bearer pcgt_${"a".repeat(43)}`,
    ]) {
      const res = await rawPost(
        "/api/examples/mcp/todo",
        { authorization: auth, host: `127.0.0.1:${port}` },
        rpc("tools/list"),
      );
      expect(res.status).toBe(401);
    }
  });

  it("the MCP SDK client cannot even initialize without the credential", async () => {
    const client = new Client({ name: "outsider", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/api/examples/mcp/todo`));
    await expect(client.connect(transport)).rejects.toThrow(/unauthenticated/);
    await client.close().catch(() => {});
  });

  it("refuses a foreign Host or Origin (403), as the gateway does", async () => {
    const foreignHost = await rawPost("/api/examples/mcp/todo", { host: "evil.example" }, rpc("tools/list"));
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.text).toContain("host_not_allowed");
    const foreignOrigin = await rawPost(
      "/api/examples/mcp/todo",
      { host: `127.0.0.1:${port}`, origin: "http://evil.example" },
      rpc("tools/call", { name: "todo_delete", arguments: { id: 1 } }),
    );
    expect(foreignOrigin.status).toBe(403);
  });

  it("PAPERCLIP_EXAMPLES=off removes the endpoint and the HTTP examples", async () => {
    process.env.PAPERCLIP_EXAMPLES = "off";
    try {
      const res = await fetch(`${origin}/api/examples/mcp/todo`, { method: "POST", body: "{}" });
      expect(res.status).toBe(404);
      const list = await call<{ examples: { id: string; available: boolean }[] }>(
        examplesRoute.GET,
        "GET",
        "/",
        {
          token: B.board,
          params: { companyId: B.companyId },
        },
      );
      expect(list.json.examples.find((e) => e.id === "outbox")?.available).toBe(false);
      const refused = await call<{ error: { code: string } }>(installRoute.POST, "POST", "/", {
        token: B.board,
        params: { companyId: B.companyId, exampleId: "outbox" },
      });
      expect(refused.json.error.code).toBe("examples_disabled");
    } finally {
      delete process.env.PAPERCLIP_EXAMPLES;
    }
  });
});

describe("company isolation through the gateway", () => {
  it("company B's agent sees none of company A's key-value or to-do state", async () => {
    const set = await agentCall(A.token, {
      tool: "todo__kv_set",
      arguments: { key: "shared-key", value: CANARY_A },
    });
    expect(set.json.error, JSON.stringify(set.json)).toBeUndefined();
    const added = await agentCall(A.token, { tool: "todo__todo_add", arguments: { title: TODO_A } });
    expect(added.json.error, JSON.stringify(added.json)).toBeUndefined();
    const readA = await agentCall(A.token, { tool: "todo__kv_get", arguments: { key: "shared-key" } });
    expect(JSON.stringify(readA.json)).toContain(CANARY_A);

    // B through the REST gateway…
    const readB = await agentCall(B.token, { tool: "todo__kv_get", arguments: { key: "shared-key" } });
    expect(readB.json.error, JSON.stringify(readB.json)).toBeUndefined();
    expect(JSON.stringify(readB.json)).not.toContain(CANARY_A);
    const listB = await agentCall(B.token, { tool: "todo__todo_list", arguments: {} });
    expect(listB.json.error).toBeUndefined();
    expect(JSON.stringify(listB.json)).not.toContain(TODO_A);

    // …and over MCP with the SDK client.
    const client = new Client({ name: "globex-agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/api/tool-gateway/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${B.token}` } },
      }),
    );
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("todo__kv_get");
      const viaMcp = await client.callTool({ name: "todo__kv_get", arguments: { key: "shared-key" } });
      expect(viaMcp.isError).not.toBe(true);
      expect(JSON.stringify(viaMcp)).not.toContain(CANARY_A);
      const todos = await client.callTool({ name: "todo__todo_list", arguments: {} });
      expect(JSON.stringify(todos)).not.toContain(TODO_A);
    } finally {
      await client.close();
    }
  });

  it("the agent never sees the example credential", async () => {
    const res = await agentCall(A.token, { tool: "todo__todo_list", arguments: {} });
    expect(JSON.stringify(res.json)).not.toContain("pcex_");
  });
});

describe("approval-gated example tools", () => {
  it("todo_delete cannot run by calling the endpoint directly, and through the gateway only after approval", async () => {
    const list = async () =>
      JSON.stringify((await agentCall(A.token, { tool: "todo__todo_list", arguments: {} })).json);
    const added = await agentCall(A.token, {
      tool: "todo__todo_add",
      arguments: { title: "delete me 44aa" },
    });
    const id = (added.json.result?.structuredContent as { todo?: { id: number } } | undefined)?.todo?.id;
    expect(typeof id).toBe("number");
    expect(await list()).toContain("delete me 44aa");

    // Directly: refused without the credential, with or without a foreign Origin.
    const attempts: Record<string, string>[] = [
      { host: `127.0.0.1:${port}` },
      { host: `127.0.0.1:${port}`, origin: "http://evil.example" },
    ];
    for (const headers of attempts) {
      const direct = await rawPost(
        "/api/examples/mcp/todo",
        headers,
        rpc("tools/call", { name: "todo_delete", arguments: { id } }),
      );
      expect([401, 403]).toContain(direct.status);
    }
    expect(await list()).toContain("delete me 44aa");

    // Through the gateway: held for approval, nothing runs.
    const held = await agentCall(A.token, { tool: "todo__todo_delete", arguments: { id } });
    expect(held.status).toBe(409);
    expect(held.json.error?.code).toBe("approval_required");
    expect(await list()).toContain("delete me 44aa");

    // A person approves; the approved action runs once, through the gateway.
    const actionRequestId = held.json.error!.actionRequestId!;
    const approved = await call(approveRoute.POST, "POST", "/", {
      token: A.board,
      params: { companyId: A.companyId, actionRequestId },
      body: {},
    });
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    const executed = await call(executeRoute.POST, "POST", "/", {
      token: A.board,
      params: { companyId: A.companyId, actionRequestId },
    });
    expect(executed.status, JSON.stringify(executed.json)).toBe(200);
    expect(await list()).not.toContain("delete me 44aa");
  });
});

describe("uninstall", () => {
  it("archiving the example's application ends its credential: the endpoint no longer answers to it", async () => {
    const social = await database.db
      .select({ hash: exampleCredentials.credentialHash, connectionId: exampleCredentials.connectionId })
      .from(exampleCredentials)
      .where(and(eq(exampleCredentials.companyId, A.companyId), eq(exampleCredentials.fixture, "social")));
    expect(social).toHaveLength(1);
    const before = await agentCall(A.token, { tool: "social__list_posts", arguments: {} });
    expect(before.status, JSON.stringify(before.json)).toBe(200);
    // Stand in for a leaked credential: the test decrypts it the way the gateway does.
    const resolved = await resolveConnectionSecrets(database.db, {
      companyId: A.companyId,
      connectionId: social[0]!.connectionId,
      agentId: null,
      runId: null,
      actorType: "system",
      actorId: "test",
      purpose: "health",
    });
    if (!resolved.ok) throw new Error(resolved.message);
    const authorization = resolved.headers.authorization!;
    expect(authorization).toMatch(/^Bearer pcex_/);
    const direct = () =>
      rawPost("/api/examples/mcp/social", { host: `127.0.0.1:${port}`, authorization }, rpc("tools/list"));
    expect((await direct()).status).toBe(200);
    // Its credential is for `social` only.
    expect(
      (
        await rawPost(
          "/api/examples/mcp/todo",
          { host: `127.0.0.1:${port}`, authorization },
          rpc("tools/list"),
        )
      ).status,
    ).toBe(401);
    const [{ applicationId }] = (await database.db.execute(
      sql`select application_id as "applicationId" from tool_connections where id = ${social[0]!.connectionId}`,
    )) as unknown as [{ applicationId: string }];
    const archived = await call(applicationRoute.PATCH, "PATCH", "/", {
      token: A.board,
      params: { companyId: A.companyId, applicationId },
      body: { status: "archived" },
    });
    expect(archived.status, JSON.stringify(archived.json)).toBe(200);
    const after = await agentCall(A.token, { tool: "social__list_posts", arguments: {} });
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect((await direct()).status).toBe(401);
    // Other installs keep working.
    expect((await agentCall(A.token, { tool: "todo__todo_list", arguments: {} })).status).toBe(200);
    const logged = await database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.companyId, A.companyId));
    expect(logged.map((l) => l.action)).toContain("tool_application.archive");
  });
});
