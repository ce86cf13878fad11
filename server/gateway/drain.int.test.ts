// Issue 35, item 2: while a server drains (SIGTERM), readiness is 503, a new call is refused
// before it runs (`503 server_draining` with Retry-After, no ledger row), a call in flight
// finishes and records its outcome, and change streams close. The node listener as
// scripts/server.ts serves it; the shutdown itself is in the fault suite (rolling restart).
import http from "node:http";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { toolInvocations } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { listenLoopback } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld, installExample, startRun } from "@/server/testing/world";
import { beginDrain, resetDrain, waitForCalls } from "../lifecycle/drain";
import { handlePublicMcp } from "../public-mcp/endpoint";
import { shutdownAllSlots } from "../runtime";
import { companyLedgerKey, idempotencyKeyDigest } from "../secrets/ledger-key";
import { handleGatewayMcpNode, handleHealthNode, isGatewayMcpPath, isHealthPath } from "./node";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let token: string;
let listener: http.Server;
let origin: string;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-gw-drain-", gateway: true }));
  const lab = await installExample(demo, "lab");
  expect(lab.status, JSON.stringify(lab.json)).toBe(201);
  // `lab__sleep` as a write: a slow call with a ledger row to watch.
  await database.db.execute(
    sql`update tool_catalog_entries set risk_override = 'write' where company_id = ${demo.companyId} and name = 'sleep'`,
  );
  await database.db.execute(
    sql`update companies set access_version = access_version + 1 where id = ${demo.companyId}`,
  );
  const run = await startRun<{ gateway: { token: string } }>(demo);
  expect(run.status).toBe(201);
  token = run.json.gateway.token;
  listener = http.createServer((req, res) => {
    if (isGatewayMcpPath(req.url)) void handleGatewayMcpNode(req, res);
    else if (isHealthPath(req.url)) void handleHealthNode(req, res);
    else res.writeHead(404).end();
  });
  origin = `http://127.0.0.1:${await listenLoopback(listener)}`;
}, 60_000);

afterEach(() => resetDrain());

afterAll(async () => {
  resetDrain();
  await shutdownAllSlots();
  await new Promise((resolve) => listener?.close(resolve));
  await closeDemoWorld(database);
});

let rpcId = 0;
function post(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${origin}/api/tool-gateway/mcp`, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, ...body }),
  });
}

const callTool = (name: string, args: Record<string, unknown>, key: string) =>
  post({ method: "tools/call", params: { name, arguments: args, _meta: { idempotencyKey: key } } });

async function rowOf(key: string) {
  const [row] = await database.db
    .select({ status: toolInvocations.executionStatus })
    .from(toolInvocations)
    .where(
      eq(
        toolInvocations.idempotencyKey,
        idempotencyKeyDigest(await companyLedgerKey(database.db, demo.companyId), key),
      ),
    );
  return row?.status ?? null;
}

describe("a draining server", () => {
  it("finishes the call in flight and refuses new ones before they run", async () => {
    const health = await fetch(`${origin}/api/health`);
    expect(health.status).toBe(200);
    const inFlight = callTool("lab__sleep", { ms: 1200 }, "drain-in-flight");
    for (let i = 0; i < 100 && (await rowOf("drain-in-flight")) !== "running"; i++)
      await new Promise((r) => setTimeout(r, 30));
    expect(await rowOf("drain-in-flight")).toBe("running");

    beginDrain();
    // Readiness turns 503 at once.
    const draining = await fetch(`${origin}/api/health`);
    expect(draining.status).toBe(503);
    expect(((await draining.json()) as { status: string }).status).toBe("draining");
    // A new call: refused before anything is written or run, retryable elsewhere.
    const refused = await callTool("lab__increment", {}, "drain-refused");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("connection")).toBe("close");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("server_draining");
    expect(await rowOf("drain-refused")).toBeNull();
    // tools/list and a new change stream too.
    expect((await post({ method: "tools/list", params: {} })).status).toBe(503);
    const stream = await fetch(`${origin}/api/tool-gateway/mcp`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
    });
    expect(stream.status).toBe(503);
    // The public MCP endpoint (/mcp/paperclip) too, before it reads anything.
    const assistant = await handlePublicMcp(
      database.db,
      new Request("http://localhost/mcp/paperclip", { method: "POST", body: "{}" }),
      new Date(),
    );
    expect(assistant.status).toBe(503);
    expect(assistant.headers.get("retry-after")).toBe("1");
    expect(((await assistant.json()) as { error: { code: string } }).error.code).toBe("server_draining");

    // The call admitted before the drain is answered and recorded.
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { result?: { isError?: boolean } };
    expect(body.result?.isError, JSON.stringify(body)).toBeFalsy();
    await expect(waitForCalls(5000)).resolves.toBe(true);
    expect(await rowOf("drain-in-flight")).toBe("succeeded");
  }, 30_000);

  it("closes an open change stream when the drain begins", async () => {
    const res = await fetch(`${origin}/api/tool-gateway/mcp`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();
    beginDrain();
    const outcome = await Promise.race([ended, new Promise((r) => setTimeout(() => r("still open"), 3000))]);
    expect(outcome).toBe(true);
  }, 15_000);
});
