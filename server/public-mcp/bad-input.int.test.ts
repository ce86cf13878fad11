/**
 * Bad input on `/mcp/paperclip` never becomes an internal error (issue 34 item 5), in either
 * protocol era: text that cannot be stored (a lone UTF-16 surrogate) in a write's arguments is a
 * tool error `invalid_request`; malformed params of the legacy era are `-32602` with a readable
 * message (JSON-RPC 2.0 §5.1); the SDK client shows "MCP error -32602:" once. A bounded fuzz of
 * both eras asserts no 5xx and no `-32603` for any input.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoCredentials } from "@/server/core/seed";
import { connectAssistant, servePublicMcp } from "@/server/testing/public-mcp";
import { closeDemoWorld, demoOwner, demoWorld, type TestDatabase } from "@/server/testing/world";

const MODERN = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "bad-input", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const FULL = process.env.FUZZ_FULL === "1";
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let database: TestDatabase;
let demo: DemoCredentials;
let served: Awaited<ReturnType<typeof servePublicMcp>>;
let token: string;
let client: Client;
let taskId: string;

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  served = await servePublicMcp(database.db);
  const owner = await demoOwner(database.db, demo);
  ({ token } = await connectAssistant(database.db, { userId: owner.id, companyId: demo.companyId }));
  client = new Client({ name: "bad-input", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(served.url, {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const created = (await client.callTool({
    name: "paperclip_create_task",
    arguments: {
      companyId: demo.companyId,
      requestId: randomUUID(),
      title: "a task to comment on",
      assigneeAgentId: demo.agents[0]!.id,
    },
  })) as CallToolResult;
  expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
  taskId = (created.structuredContent as { result: { task: { id: string } } }).result.task.id;
}, 60_000);

afterAll(async () => {
  await client?.close();
  await served?.close();
  await closeDemoWorld(database);
});

interface Answer {
  status: number;
  text: string;
  json: {
    id?: unknown;
    result?: CallToolResult & Record<string, unknown>;
    error?: { code: number; message: string };
  } | null;
}

/** One POST of `body` (a JSON-RPC message or any text) in the given era. */
async function post(
  era: "legacy" | "modern",
  body: unknown,
  method?: string,
  name?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (era === "modern") {
    headers["mcp-protocol-version"] = MODERN;
    // Header values are bytes: a method fetch cannot send is left out (the server then refuses).
    if (method && /^[\x20-\x7e]*$/.test(method)) headers["mcp-method"] = method;
    if (name)
      headers["mcp-name"] = /^[\x20-\x7e]*$/.test(name)
        ? name
        : `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
  } else headers["mcp-protocol-version"] = LATEST_PROTOCOL_VERSION;
  const res = await fetch(served.url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Answer["json"] = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (an empty 202)
  }
  return { status: res.status, text, json };
}

const message = (era: "legacy" | "modern", method: string, params: unknown, id: unknown = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params === undefined
    ? {}
    : {
        params:
          era === "modern" && params !== null && typeof params === "object" && !Array.isArray(params)
            ? { ...(params as object), _meta: META }
            : params,
      }),
});

/** The writes of the issue, each with a lone surrogate in a text argument. */
function surrogateWrites(): { name: string; args: Record<string, unknown> }[] {
  const companyId = demo.companyId;
  const requestId = () => randomUUID();
  const api = (operation: string, args: Record<string, unknown>) => ({
    name: "paperclip_call_api",
    args: { operation, arguments: { companyId, requestId: requestId(), ...args } },
  });
  return [
    { name: "paperclip_add_comment", args: { companyId, requestId: requestId(), taskId, body: "x\ud800y" } },
    {
      name: "paperclip_create_task",
      args: {
        companyId,
        requestId: requestId(),
        title: "t\udc00",
        assigneeAgentId: demo.agents[0]!.id,
      },
    },
    api("update_task", { taskId, title: "\ud83d" }),
    api("update_skill", { skillId: randomUUID(), description: "a\ud800" }),
    api("register_deliverable", {
      taskId,
      kind: "link",
      title: "d\udfff",
      reference: "https://example.com/x",
    }),
    api("create_project", { name: "p\ud800" }),
    // In a key, too.
    {
      name: "paperclip_add_comment",
      args: { companyId, requestId: requestId(), taskId, body: "ok", "k\ud800": 1 },
    },
  ];
}

const expectUnstorableRefusal = (result: CallToolResult | undefined, what: string) => {
  expect(result?.isError, what).toBe(true);
  const error = (result!.structuredContent as { error: { code: string; message: string } }).error;
  expect(error.code, what).toBe("invalid_request");
  expect(error.message, what).toMatch(
    /^arguments contain text that cannot be stored \(an unpaired surrogate\) (in a key )?at `/,
  );
};

describe("a lone surrogate in a write's arguments", () => {
  it("is a tool error invalid_request in the legacy era (SDK client), never -32603", async () => {
    for (const w of surrogateWrites()) {
      const result = (await client.callTool({ name: w.name, arguments: w.args })) as CallToolResult;
      expectUnstorableRefusal(result, `${w.name} ${JSON.stringify(w.args)}`);
    }
  });

  it("is a tool error invalid_request in the 2026-07-28 era, never an HTTP 500", async () => {
    for (const w of surrogateWrites()) {
      const r = await post(
        "modern",
        message("modern", "tools/call", { name: w.name, arguments: w.args }),
        "tools/call",
        w.name,
      );
      expect(r.status, r.text).toBe(200);
      expectUnstorableRefusal(r.json?.result, `${w.name} ${r.text}`);
    }
  });
});

describe("malformed params in the legacy era", () => {
  const cases: [string, unknown][] = [
    ["tools/call", { name: "paperclip_connection", arguments: "x" }],
    ["tools/call", { name: "paperclip_connection", arguments: [] }],
    ["tools/call", { name: "paperclip_connection", arguments: null }],
    ["tools/call", { name: "paperclip_connection", arguments: 5 }],
    ["tools/call", { name: 5 }],
    ["tools/call", {}],
    ["tools/call", undefined],
    ["tools/list", { cursor: {} }],
    ["tools/list", { cursor: 5 }],
    ["initialize", { protocolVersion: 5 }],
    ["initialize", undefined],
    ["initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: [], clientInfo: {} }],
  ];
  it("answers -32602 with a readable message (no zod issue dump)", async () => {
    for (const [method, params] of cases) {
      const r = await post("legacy", message("legacy", method, params, 7));
      const what = `${method} ${JSON.stringify(params)} → ${r.status} ${r.text}`;
      expect(r.status, what).toBeLessThan(500);
      expect(r.json?.id, what).toBe(7);
      expect(r.json?.error?.code, what).toBe(-32602);
      expect(r.json!.error!.message, what).toMatch(new RegExp(`^invalid params for \`${method}\`: `));
      expect(r.json!.error!.message, what).not.toMatch(/[[{]\s*"|MCP error/);
    }
  });

  it("an unknown tool is -32602 whose message the SDK client prefixes once", async () => {
    const raw = await post("legacy", message("legacy", "tools/call", { name: "nope", arguments: {} }));
    expect(raw.json?.error).toEqual({
      code: -32602,
      message: "Unknown tool: no tool of this name is available to this connection",
    });
    const err = await client.callTool({ name: "nope", arguments: {} }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      "MCP error -32602: Unknown tool: no tool of this name is available to this connection",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Bounded fuzz of both eras: any params, any arguments, any tool → no 5xx, no -32603.

const nasty = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.constantFrom("\ud800", "x\udc00y", "\u0000", "", "paperclip_connection", "nope"),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    nasty,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.uuid(),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(nasty, tie("v"), { maxKeys: 3 }),
  ),
})).v;

const TOOLS = [
  "paperclip_connection",
  "paperclip_add_comment",
  "paperclip_create_task",
  "paperclip_read_task",
  "paperclip_search_tasks",
  "paperclip_search_api",
  "paperclip_call_api",
  "nope",
];
const OPERATIONS = [
  "update_task",
  "update_skill",
  "register_deliverable",
  "create_project",
  "read_task",
  "nope",
];

/** Arguments shaped like a tool's, with hostile values (some valid ids so they reach the verbs). */
const argumentsArb = fc.oneof(
  value,
  fc.record(
    {
      companyId: fc.oneof(fc.constant("__company__"), fc.uuid(), nasty),
      requestId: fc.oneof(fc.uuid(), nasty),
      taskId: fc.oneof(fc.constant("__task__"), fc.uuid(), nasty),
      body: nasty,
      title: nasty,
      name: nasty,
      query: nasty,
      operation: fc.constantFrom(...OPERATIONS),
      arguments: fc.oneof(
        value,
        fc.record(
          {
            companyId: fc.constant("__company__"),
            requestId: fc.uuid(),
            taskId: fc.constant("__task__"),
            title: nasty,
            name: nasty,
            description: nasty,
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  ),
);

/** Writes with exactly their schema's keys and hostile text, so they reach the receipt and the verb. */
const shapedWrite = fc.oneof(
  fc.record({
    name: fc.constant("paperclip_add_comment"),
    arguments: fc.record({
      companyId: fc.constant("__company__"),
      requestId: fc.uuid(),
      taskId: fc.constant("__task__"),
      body: nasty,
    }),
  }),
  fc.record({
    name: fc.constant("paperclip_call_api"),
    arguments: fc.record({
      operation: fc.constant("create_project"),
      arguments: fc.record({ companyId: fc.constant("__company__"), requestId: fc.uuid(), name: nasty }),
    }),
  }),
  fc.record({
    name: fc.constant("paperclip_call_api"),
    arguments: fc.record({
      operation: fc.constant("update_task"),
      arguments: fc.record({
        companyId: fc.constant("__company__"),
        requestId: fc.uuid(),
        taskId: fc.constant("__task__"),
        title: nasty,
        body: nasty,
      }),
    }),
  }),
);

const paramsArb = fc.oneof(
  { weight: 2, arbitrary: shapedWrite },
  {
    weight: 4,
    arbitrary: fc.record(
      { name: fc.oneof(fc.constantFrom(...TOOLS), value), arguments: argumentsArb },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: value },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const rpcArb = fc.record({
  era: fc.constantFrom<"legacy" | "modern">("legacy", "modern"),
  method: fc.oneof(
    { weight: 6, arbitrary: fc.constant("tools/call") },
    {
      weight: 2,
      arbitrary: fc.constantFrom("tools/list", "initialize", "ping", "server/discover", "events/list"),
    },
    { weight: 1, arbitrary: nasty },
  ),
  params: paramsArb,
  id: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 1000 }) }, { weight: 1, arbitrary: value }),
});

/** Puts the world's ids where the generator left placeholders. */
function withIds(v: unknown): unknown {
  if (v === "__company__") return demo.companyId;
  if (v === "__task__") return taskId;
  if (Array.isArray(v)) return v.map(withIds);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withIds(x)]));
  return v;
}

describe("fuzzing both eras", () => {
  it(
    "no input yields a 5xx or -32603",
    async () => {
      await fc.assert(
        fc.asyncProperty(rpcArb, async (g) => {
          const params = withIds(g.params);
          const msg = message(g.era, g.method, params, g.id);
          const name = (params as { name?: unknown } | undefined)?.name;
          const r = await post(g.era, msg, g.method, typeof name === "string" ? name : undefined);
          const what = `${g.era} ${JSON.stringify(msg).slice(0, 400)} → ${r.status} ${r.text.slice(0, 300)}`;
          if (r.status >= 500) throw new Error(`5xx: ${what}`);
          if (r.json?.error?.code === -32603) throw new Error(`-32603: ${what}`);
          if (/-32603/.test(r.text)) throw new Error(`-32603 in the body: ${what}`);
          return true;
        }),
        { numRuns: FULL ? 2000 : 150, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: !FULL },
      );
    },
    FULL ? 3_600_000 : 120_000,
  );
});
