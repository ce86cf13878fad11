import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as repeatableRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/[entryId]/repeatable/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { activityLog, companies, toolCatalogEntries, toolInvocations } from "@/db/schema";
import { call } from "@/server/testing/api";
import { closeGatewayWorld, type GatewayWorld, gatewayWorld, strangerCompany } from "@/server/testing/world";
import { replayNotice } from "./outcome";

// Issue 35, item 7: a replayed result says so where the model reads it, and an admin can mark
// a tool repeatable (docs/access.md, "When a call is replayed").

let { database, demo, fixtures, gateway } = {} as GatewayWorld;
let companyId: string;
let entry: { id: string; connectionId: string };
const board = () => ({ token: demo.boardApiKey });
const sideEffects = () =>
  (fixtures.get("todo")!.state as { ledger: { sideEffectCount: number } }).ledger.sideEffectCount;

type CallJson = {
  error?: { code: string; message: string };
  result?: { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
  replayed?: boolean;
  notice?: string;
  invocationId?: string;
};
const restCall = (token: string, body: unknown) =>
  call<CallJson>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", { token, body });

async function startRun(): Promise<string> {
  const res = await call<{ gateway: { token: string } }>(agentRunsRoute.POST, "POST", "/", {
    ...board(),
    params: { agentId: demo.agents[0]!.id },
    body: {},
  });
  expect(res.status).toBe(201);
  return res.json.gateway.token;
}

async function mcpClient(token: string) {
  const client = new Client({ name: "repeatable-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.origin}/api/tool-gateway/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const setRepeatable = (
  body: unknown,
  params = { companyId, connectionId: entry.connectionId, entryId: entry.id },
) =>
  call<{ id: string; repeatable: boolean }>(repeatableRoute.POST, "POST", "/", { ...board(), params, body });

const accessVersion = async () =>
  (
    await database.db
      .select({ v: companies.accessVersion })
      .from(companies)
      .where(eq(companies.id, companyId))
  )[0]!.v;

beforeAll(async () => {
  ({ database, demo, fixtures, gateway } = await gatewayWorld({
    home: "pc-repeatable-",
    fixtures: ["todo"],
    install: ["todo"],
  }));
  companyId = demo.companyId;
  const [row] = await database.db
    .select({ id: toolCatalogEntries.id, connectionId: toolCatalogEntries.connectionId })
    .from(toolCatalogEntries)
    .where(and(eq(toolCatalogEntries.companyId, companyId), eq(toolCatalogEntries.name, "todo_add")));
  entry = row!;
}, 120_000);

afterAll(() => closeGatewayWorld({ database, fixtures, gateway }));

describe("a replayed result says so where the model reads it", () => {
  it("REST: a second identical write in the run is replayed, with replayed: true and the notice", async () => {
    const token = await startRun();
    const body = { tool: "todo__todo_add", arguments: { title: "rest twice" } };
    const before = sideEffects();
    const first = await restCall(token, body);
    const second = await restCall(token, body);
    expect(first.status).toBe(200);
    expect(first.json.replayed).toBe(false);
    expect(first.json.notice).toBeUndefined();
    expect(second.status).toBe(200);
    expect(second.json.replayed).toBe(true);
    expect(second.json.notice).toBe(replayNotice("identical_call"));
    expect(second.json.notice).toMatch(/^\[Paperclip\] .*identical earlier call.*new idempotency key/);
    // The recorded result itself is unchanged (the ADR's guarantee for retries).
    expect(JSON.stringify(second.json.result)).toBe(JSON.stringify(first.json.result));
    expect(sideEffects() - before).toBe(1);
  });

  it("MCP (SDK client): the replay's last content item is the notice; structuredContent still validates", async () => {
    const token = await startRun();
    const client = await mcpClient(token);
    try {
      const before = sideEffects();
      const args = { name: "todo__todo_add", arguments: { title: "mcp twice" } };
      // The SDK client validates structuredContent against the tool's outputSchema: it throws
      // if the notice broke the result's shape.
      await client.listTools();
      const first = await client.callTool(args);
      const second = await client.callTool(args);
      expect(first._meta).toMatchObject({ "io.paperclip/replayed": false });
      expect(second._meta).toMatchObject({ "io.paperclip/replayed": true });
      const content = second.content as { type: string; text: string }[];
      expect(content.at(-1)).toEqual({ type: "text", text: replayNotice("identical_call") });
      expect(JSON.stringify(content.slice(0, -1))).toBe(JSON.stringify(first.content));
      expect(second.structuredContent).toEqual(first.structuredContent);
      expect((first.content as { text: string }[]).some((c) => c.text.startsWith("[Paperclip]"))).toBe(false);
      expect(sideEffects() - before).toBe(1);
      // With an explicit key the notice names the key.
      const keyed = { ...args, arguments: { title: "mcp keyed" }, _meta: { idempotencyKey: "mcp-k" } };
      await client.callTool(keyed);
      const again = await client.callTool(keyed);
      expect((again.content as { text: string }[]).at(-1)!.text).toBe(replayNotice("idempotency_key"));
    } finally {
      await client.close();
    }
  });
});

describe("an admin can mark a tool repeatable", () => {
  it("the toggle is audited, bumps the access version and changes behaviour at once", async () => {
    const token = await startRun();
    const body = { tool: "todo__todo_add", arguments: { title: "poll" } };
    const v0 = await accessVersion();
    const on = await setRepeatable({ repeatable: true, reason: "a status tool" });
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({ id: entry.id, repeatable: true });
    expect(await accessVersion()).toBeGreaterThan(v0);
    const [logged] = await database.db
      .select({ details: activityLog.details, entityId: activityLog.entityId })
      .from(activityLog)
      .where(
        and(eq(activityLog.companyId, companyId), eq(activityLog.action, "tool_catalog_entry.repeatable")),
      );
    expect(logged).toMatchObject({
      entityId: entry.id,
      details: { tool: "todo_add", from: false, to: true, reason: "a status tool" },
    });

    // Repeatable: identical calls without a key each run (REST and MCP), never replayed.
    const before = sideEffects();
    const a = await restCall(token, body);
    const b = await restCall(token, body);
    expect([a.json.replayed, b.json.replayed]).toEqual([false, false]);
    expect(a.json.notice).toBeUndefined();
    expect(b.json.invocationId).not.toBe(a.json.invocationId);
    const client = await mcpClient(token);
    try {
      const m = await client.callTool({ name: "todo__todo_add", arguments: { title: "poll" } });
      expect(m._meta).toMatchObject({ "io.paperclip/replayed": false });
    } finally {
      await client.close();
    }
    expect(sideEffects() - before).toBe(3);
    // Its rows carry no implicit identity (each call is a row of its own).
    const rows = await database.db
      .select({ identity: toolInvocations.idempotencyIdentity, tool: toolInvocations.toolName })
      .from(toolInvocations)
      .where(eq(toolInvocations.id, b.json.invocationId!));
    expect(rows).toEqual([{ identity: null, tool: "todo__todo_add" }]);

    // With an explicit idempotency key a repeatable tool still replays.
    const keyed = { ...body, idempotencyKey: "poll-key" };
    const k1 = await restCall(token, keyed);
    const k2 = await restCall(token, keyed);
    expect([k1.json.replayed, k2.json.replayed]).toEqual([false, true]);
    expect(k2.json.notice).toBe(replayNotice("idempotency_key"));
    expect(sideEffects() - before).toBe(4);

    // Off again: the next identical call in a run replays again, at once.
    const off = await setRepeatable({ repeatable: false });
    expect(off.status).toBe(200);
    expect(off.json.repeatable).toBe(false);
    const c1 = await restCall(token, { ...body, arguments: { title: "after off" } });
    const c2 = await restCall(token, { ...body, arguments: { title: "after off" } });
    expect([c1.json.replayed, c2.json.replayed]).toEqual([false, true]);
    expect(sideEffects() - before).toBe(5);
  });

  it("refuses a malformed body, an unknown entry and another company's entry", async () => {
    const stored = async () =>
      (
        await database.db
          .select({ repeatable: toolCatalogEntries.repeatable })
          .from(toolCatalogEntries)
          .where(eq(toolCatalogEntries.id, entry.id))
      )[0]!.repeatable;
    const before = await stored();
    expect((await setRepeatable({ repeatable: "yes" })).status).toBe(400);
    expect((await setRepeatable({})).status).toBe(400);
    const unknown = await setRepeatable(
      { repeatable: true },
      { companyId, connectionId: entry.connectionId, entryId: "00000000-0000-4000-8000-000000000000" },
    );
    expect(unknown.status).toBe(404);
    const stranger = await strangerCompany(database.db, "repeatable");
    const cross = await call(repeatableRoute.POST, "POST", "/", {
      token: stranger.boardKey,
      params: { companyId: stranger.companyId, connectionId: entry.connectionId, entryId: entry.id },
      body: { repeatable: true },
    });
    expect(cross.status).toBe(404);
    expect(await stored()).toBe(before);
  });
});
