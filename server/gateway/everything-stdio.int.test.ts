/**
 * Issue 17 acceptance over stdio: `@modelcontextprotocol/server-everything` as a local server
 * (a pooled, supervised runtime slot, from the operator's stdio command catalogue) behind the
 * gateway, the SDK client as the agent. Resources and prompts are governed like the remote
 * ones; the slot's shared client relays an elicitation and a log message to the one call in
 * flight, and refuses what the connection's policy forbids.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as connectionRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/route";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import { activityLog, toolCallEvents } from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import { type DemoCredentials, seedDemoIfEmpty } from "@/server/core/seed";
import { setRouteDatabase } from "@/server/http/route";
import { shutdownAllSlots } from "@/server/runtime";
import { CreateStdioCommandInput, createStdioCommand } from "@/server/runtime/catalog";
import { call } from "@/server/testing/api";
import { startGatewayListener } from "@/server/testing/gateway-listener";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { systemContext } from "../context";
import { setGatewayDatabase } from "./http";

const PATH = "/api/tool-gateway/mcp";
const HIDDEN_RESOURCE = "demo://resource/static/document/features.md";
const VISIBLE_RESOURCE = "demo://resource/static/document/architecture.md";
const HIDDEN_PROMPT = "args-prompt";
const ENTRY = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let listener: Awaited<ReturnType<typeof startGatewayListener>>;
let token: string;
let sessionId: string;
let connectionId: string;
const clients: Client[] = [];

async function agent(capabilities: Record<string, unknown> = {}) {
  const client = new Client({ name: "everything-stdio-agent", version: "1.0.0" }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${listener.origin}${PATH}`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

/**
 * A fresh run (its own gateway session): the ledger replays a repeated write of one session,
 * so each elicitation case calls the tool from a session of its own.
 */
async function newRun() {
  const run = await call<{ gateway: { token: string; sessionId: string } }>(
    agentRunsRoute.POST,
    "POST",
    "/",
    {
      token: demo.boardApiKey,
      params: { agentId: demo.agents[0]!.id },
      body: {},
    },
  );
  expect(run.status, JSON.stringify(run.json)).toBe(201);
  token = run.json.gateway.token;
  sessionId = run.json.gateway.sessionId;
}

async function rpcError(p: Promise<unknown>): Promise<{ code?: number; message?: string }> {
  return p.then(
    (v) => {
      throw new Error(`expected an error, got ${JSON.stringify(v).slice(0, 200)}`);
    },
    (err: { code?: number; message?: string }) => ({ code: err.code, message: err.message }),
  );
}

async function setElicitation(on: boolean) {
  const patched = await call(connectionRoute.PATCH, "PATCH", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId, connectionId },
    body: { allowElicitation: on },
  });
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
}

const upstreamRequests = () =>
  database.db
    .select()
    .from(toolCallEvents)
    .where(and(eq(toolCallEvents.sessionId, sessionId), eq(toolCallEvents.eventType, "upstream_request")));

beforeAll(async () => {
  process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), "pc-everything-stdio-"));
  database = await createTestDatabase();
  setRouteDatabase(database.db);
  setGatewayDatabase(database.db);
  demo = (await seedDemoIfEmpty(database.db, "http://localhost:3100"))!;
  // The operator's catalogue allows the reference server (its default transport is stdio).
  await createStdioCommand(
    systemContext(database.db, "test"),
    CreateStdioCommandInput.parse({
      key: "test.everything",
      name: "server-everything",
      command: "node",
      args: [ENTRY, "stdio"],
    }),
  );
  const template = await call<{ id: string }>(templatesRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId },
    body: { name: "Everything (stdio)", catalogCommand: "test.everything" },
  });
  expect(template.status, JSON.stringify(template.json)).toBe(201);
  const installed = await installMcpApplication(database.db, demo, {
    slug: "everything",
    stdioTemplateId: template.json.id,
    exclude: (entries) =>
      [
        ["resource", HIDDEN_RESOURCE],
        ["prompt", HIDDEN_PROMPT],
      ].map(([kind, name]) => {
        const e = entries.find((x) => x.kind === kind && x.name === name);
        if (!e) throw new Error(`${kind} ${name} is not in the catalog`);
        return e;
      }),
  });
  token = installed.token;
  sessionId = installed.sessionId;
  connectionId = installed.connectionId;
  listener = await startGatewayListener();
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  setRouteDatabase(null);
  setGatewayDatabase(null);
  await listener?.close();
  await shutdownAllSlots();
  await database?.drop();
});

describe("server-everything over stdio behind the gateway", () => {
  it("lists the slot's resources and prompts; the hidden ones are absent and refused like missing ones", async () => {
    const c = await agent();
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toContain(`paperclip://apps/everything/${VISIBLE_RESOURCE}`);
    expect(uris).not.toContain(`paperclip://apps/everything/${HIDDEN_RESOURCE}`);
    const names = (await c.listPrompts()).prompts.map((p) => p.name);
    expect(names).toContain("everything__simple-prompt");
    expect(names).not.toContain(`everything__${HIDDEN_PROMPT}`);

    const hidden = await rpcError(c.readResource({ uri: `paperclip://apps/everything/${HIDDEN_RESOURCE}` }));
    const missing = await rpcError(c.readResource({ uri: "paperclip://apps/everything/demo://nope" }));
    expect(hidden.code).toBe(-32002);
    expect(missing).toEqual(hidden);
    const hiddenPrompt = await rpcError(
      c.getPrompt({ name: `everything__${HIDDEN_PROMPT}`, arguments: { city: "x" } }),
    );
    const missingPrompt = await rpcError(c.getPrompt({ name: "everything__no-such-prompt" }));
    expect(hiddenPrompt.code).toBe(-32602);
    expect(missingPrompt).toEqual(hiddenPrompt);
  }, 30_000);

  it("reads a visible resource, gets a prompt and completes an argument through the slot", async () => {
    const c = await agent();
    const uri = `paperclip://apps/everything/${VISIBLE_RESOURCE}`;
    const read = await c.readResource({ uri });
    expect(read.contents[0]?.uri).toBe(uri);
    expect(String((read.contents[0] as { text?: string }).text ?? "").length).toBeGreaterThan(10);
    const got = await c.getPrompt({ name: "everything__simple-prompt" });
    expect(got.messages.length).toBeGreaterThan(0);
    const done = await c.complete({
      ref: { type: "ref/prompt", name: "everything__completable-prompt" },
      argument: { name: "department", value: "E" },
    });
    expect(done.completion.values).toContain("Engineering");
  }, 30_000);

  it("with the policy off, the upstream's elicitation is refused and audited; the agent is not asked", async () => {
    await newRun();
    await setElicitation(false);
    const c = await agent({ elicitation: { form: {} } });
    let asked = 0;
    c.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: "accept", content: { name: "Ada Lovelace", check: true } };
    });
    const before = (await upstreamRequests()).length;
    const result = await c.callTool(
      { name: "everything__trigger-elicitation-request", arguments: {} },
      CallToolResultSchema,
    );
    expect(asked).toBe(0);
    expect(JSON.stringify(result)).not.toContain("Ada Lovelace");
    const events = (await upstreamRequests()).slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ decision: "deny", errorClass: "elicitation/create" });
  }, 30_000);

  it("an agent that did not declare elicitation is refused (audited on the slot) even with the policy on", async () => {
    await newRun();
    await setElicitation(true);
    const c = await agent();
    const result = await c.callTool(
      { name: "everything__trigger-elicitation-request", arguments: {} },
      CallToolResultSchema,
    );
    // Its call relays nothing (no capability to offer): the request names no call that could
    // take it, so the slot refuses it and records that.
    expect(JSON.stringify(result)).toContain("refused");
    const refused = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.action, "tool_runtime_slot.upstream_request_refused"));
    expect(refused.map((r) => (r.details as { method?: string }).method)).toContain("elicitation/create");
  }, 30_000);

  it("with the policy on, the elicitation reaches the agent and its answer the upstream", async () => {
    await newRun();
    await setElicitation(true);
    const c = await agent({ elicitation: { form: {} } });
    let asked = 0;
    c.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: "accept", content: { name: "Ada Lovelace", check: true } };
    });
    const before = (await upstreamRequests()).length;
    const result = await c.callTool(
      { name: "everything__trigger-elicitation-request", arguments: {} },
      CallToolResultSchema,
    );
    expect(asked, JSON.stringify(result)).toBe(1);
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("Ada Lovelace");
    const events = (await upstreamRequests()).slice(before);
    expect(events.map((e) => e.decision)).toEqual(["allow"]);
  }, 30_000);

  it("while another call is in flight on the slot, an elicitation names no call: refused, recorded, nobody asked", async () => {
    await newRun();
    await setElicitation(true);
    const c = await agent({ elicitation: { form: {} } });
    let asked = 0;
    c.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: "accept", content: { name: "Ada Lovelace", check: true } };
    });
    await newRun(); // another agent's session, on the same shared slot
    const other = await agent();
    const slow = other.callTool(
      { name: "everything__trigger-long-running-operation", arguments: { duration: 3, steps: 3 } },
      CallToolResultSchema,
      { timeout: 20_000 },
    );
    await new Promise((r) => setTimeout(r, 700));
    const result = await c.callTool(
      { name: "everything__trigger-elicitation-request", arguments: {} },
      CallToolResultSchema,
    );
    expect(asked).toBe(0);
    expect(JSON.stringify(result)).toContain("several calls are in flight");
    expect((await slow).isError).toBeFalsy();
    const refused = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.action, "tool_runtime_slot.upstream_request_refused"));
    expect(refused.some((r) => (r.details as { inFlight?: number }).inFlight === 2)).toBe(true);
  }, 30_000);

  it("a log message the slot sends during the call arrives on the call's stream", async () => {
    const c = await agent();
    await c.setLoggingLevel("debug");
    const logs: unknown[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      logs.push(n.params);
    });
    const result = await c.callTool(
      { name: "everything__toggle-simulated-logging", arguments: {} },
      CallToolResultSchema,
    );
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(logs.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(logs[0])).toMatch(/-level message|level-message/);
  }, 30_000);
});
