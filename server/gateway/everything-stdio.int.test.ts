/**
 * Issue 17 acceptance over stdio: `@modelcontextprotocol/server-everything` as a local server
 * (a pooled, supervised runtime slot, from the operator's stdio command catalogue) behind the
 * gateway, the SDK client as the agent. Resources and prompts are governed like the remote
 * ones; the slot's shared client relays an elicitation and a log message to the one call in
 * flight, and refuses what the connection's policy forbids.
 */
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
import type { DemoCredentials } from "@/server/core/seed";
import { shutdownAllSlots } from "@/server/runtime";
import { CreateStdioCommandInput, createStdioCommand } from "@/server/runtime/catalog";
import { call } from "@/server/testing/api";
import { startGatewayListener } from "@/server/testing/gateway-listener";
import { entriesNamed, installMcpApplication } from "@/server/testing/mcp-app";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";
import { systemContext } from "../context";

const PATH = "/api/tool-gateway/mcp";
const HIDDEN_RESOURCE = "demo://resource/static/document/features.md";
const VISIBLE_RESOURCE = "demo://resource/static/document/architecture.md";
const HIDDEN_PROMPT = "args-prompt";
const ENTRY = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

let database: TestDatabase;
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

/** A fresh run: its own gateway session (and token) for the agents made after it. */
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

/** An agent that declares elicitation and answers every question as Ada; `asked()` counts them. */
async function elicitingAgent() {
  const c = await agent({ elicitation: { form: {} } });
  let asked = 0;
  c.setRequestHandler(ElicitRequestSchema, async () => {
    asked++;
    return { action: "accept", content: { name: "Ada Lovelace", check: true } };
  });
  return { c, asked: () => asked };
}

/** The slot's recorded refusals of upstream requests it could not attribute to one call. */
async function slotRefusals() {
  const rows = await database.db
    .select({ details: activityLog.details })
    .from(activityLog)
    .where(eq(activityLog.action, "tool_runtime_slot.upstream_request_refused"));
  return rows.map((r) => r.details as { method?: string; inFlight?: number });
}

/**
 * The elicitation tool called from a fresh session (the ledger replays a repeated write of one
 * session) with the connection's policy set: the result, how often the agent was asked, and
 * the `upstream_request` events of the call.
 */
async function elicitation(opts: { policy: boolean; declared: boolean }) {
  await newRun();
  await setElicitation(opts.policy);
  const { c, asked } = opts.declared ? await elicitingAgent() : { c: await agent(), asked: () => 0 };
  const before = (await upstreamRequests()).length;
  const result = await c.callTool(
    { name: "everything__trigger-elicitation-request", arguments: {} },
    CallToolResultSchema,
  );
  return { result, asked: asked(), events: (await upstreamRequests()).slice(before) };
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
  ({ database, demo } = await demoWorld({ home: "pc-everything-stdio-", gateway: true }));
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
    exclude: entriesNamed([
      ["resource", HIDDEN_RESOURCE],
      ["prompt", HIDDEN_PROMPT],
    ]),
  });
  token = installed.token;
  sessionId = installed.sessionId;
  connectionId = installed.connectionId;
  listener = await startGatewayListener();
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await listener?.close();
  await shutdownAllSlots();
  await closeDemoWorld(database);
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
    const { result, asked, events } = await elicitation({ policy: false, declared: true });
    expect(asked).toBe(0);
    expect(JSON.stringify(result)).not.toContain("Ada Lovelace");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ decision: "deny", errorClass: "elicitation/create" });
  }, 30_000);

  it("an agent that did not declare elicitation is refused (audited on the slot) even with the policy on", async () => {
    const { result } = await elicitation({ policy: true, declared: false });
    // Its call relays nothing (no capability to offer): the request names no call that could
    // take it, so the slot refuses it and records that.
    expect(JSON.stringify(result)).toContain("refused");
    expect((await slotRefusals()).map((d) => d.method)).toContain("elicitation/create");
  }, 30_000);

  it("with the policy on, the elicitation reaches the agent and its answer the upstream", async () => {
    const { result, asked, events } = await elicitation({ policy: true, declared: true });
    expect(asked, JSON.stringify(result)).toBe(1);
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("Ada Lovelace");
    expect(events.map((e) => e.decision)).toEqual(["allow"]);
  }, 30_000);

  it("while another call is in flight on the slot, an elicitation names no call: refused, recorded, nobody asked", async () => {
    await newRun();
    await setElicitation(true);
    const { c, asked } = await elicitingAgent();
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
    expect(asked()).toBe(0);
    expect(JSON.stringify(result)).toContain("several calls are in flight");
    expect((await slow).isError).toBeFalsy();
    expect((await slotRefusals()).some((d) => d.inFlight === 2)).toBe(true);
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
