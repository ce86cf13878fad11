import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as connectionEnableRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/enable/route";
import * as connectionRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/route";
import * as connectionTestRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/test/route";
import * as profileEntriesRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/entries/route";
import { companySecretAccessEvents, toolCallEvents, toolCatalogEntries, toolInvocations } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { setExampleUrlResolver } from "@/server/examples/examples";
import { bindSecret } from "@/server/secrets/bindings";
import { createSecret } from "@/server/secrets/secrets";
import { call } from "@/server/testing/api";
import { seedApplication } from "@/server/testing/catalog";
import { grantPrivateUpstreams } from "@/server/testing/private-upstreams";
import { listenLoopback } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld, installWithFixture, startRun } from "@/server/testing/world";
import { handleGatewayMcp } from "./mcp";
import { handleGatewayMcpNode, isGatewayMcpPath } from "./node";

const PATH = "/api/tool-gateway/mcp";
const CANARY = "canary-node-listener-7f3e-do-not-leak";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let echo: HttpFixture<unknown>;
let install: { connectionId: string; profileId: string; tools: { name: string; status: string }[] };
let run: { id: string; gateway: { token: string; sessionId: string } };
let listener: http.Server;
let origin: string;
/** Every body the node listener wrote, for the canary check. */
const nodeBodies: string[] = [];
const board = () => ({ token: demo.boardApiKey });

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-gw-node-", gateway: true }));
  const res = await installWithFixture<typeof install>(database.db, demo, "echo");
  echo = res.fixture;
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  install = res.json;
  // An application outside every profile: its tool exists but is hidden from the agent.
  await seedApplication(database.db, demo.companyId, "vault", [{ name: "read_secrets", risk: "read" }]);
  const started = await startRun<typeof run>(demo);
  expect(started.status).toBe(201);
  run = started.json;
  listener = http.createServer((req, res) => {
    const end = res.end.bind(res);
    res.end = ((chunk?: unknown, ...rest: never[]) => {
      if (typeof chunk === "string" || Buffer.isBuffer(chunk)) nodeBodies.push(String(chunk));
      return end(chunk as string, ...rest);
    }) as typeof res.end;
    if (isGatewayMcpPath(req.url)) void handleGatewayMcpNode(req, res);
    else res.writeHead(404).end();
  });
  origin = `http://127.0.0.1:${await listenLoopback(listener)}`;
}, 60_000);

afterAll(async () => {
  setExampleUrlResolver(null);
  await new Promise((resolve) => listener?.close(resolve));
  await echo?.close();
  await closeDemoWorld(database);
});

async function mcpClient(token: string) {
  const client = new Client({ name: "node-listener-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}${PATH}`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

interface Raw {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  query?: string;
  token?: string | null;
  /** Send the body in two writes (chunked, no Content-Length). */
  chunked?: boolean;
}
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

function rawHeaders(o: Raw): Record<string, string> {
  return {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
    ...(o.token === null ? {} : { authorization: `Bearer ${o.token ?? run.gateway.token}` }),
    ...o.headers,
  };
}

/** A raw request to the node listener (node:http, so the Host header is ours to choose). */
function viaNode(o: Raw): Promise<Answer> {
  const method = o.method ?? "POST";
  const { port } = listener.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path: `${PATH}${o.query ?? ""}`, headers: rawHeaders(o) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string>,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    const body = method === "POST" ? (o.body ?? "") : undefined;
    if (o.chunked && body) {
      req.write(body.slice(0, 1000));
      req.end(body.slice(1000));
    } else req.end(body);
  });
}

/** The same request through the Next.js route adapter. */
async function viaNext(o: Raw): Promise<Answer> {
  const method = o.method ?? "POST";
  const headers = new Headers(rawHeaders(o));
  if (!headers.has("host")) headers.set("host", "localhost:3100");
  const res = await handleGatewayMcp(
    new Request(`http://localhost:3100${PATH}${o.query ?? ""}`, {
      method,
      headers,
      body: method === "POST" ? (o.body ?? "") : undefined,
    }),
  );
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

const rpc = (method: string, params?: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });

/** A JSON body with the per-call invocation ids masked. */
function normalised(text: string): unknown {
  return JSON.parse(text.replace(/"invocationId":"[0-9a-f-]{36}"/g, '"invocationId":"<id>"'));
}

async function auditOf(invocationId: string) {
  return database.db
    .select({ eventType: toolCallEvents.eventType })
    .from(toolCallEvents)
    .where(eq(toolCallEvents.invocationId, invocationId))
    .orderBy(asc(toolCallEvents.seq));
}

async function discoveryEvents(sessionId: string): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(toolCallEvents)
    .where(and(eq(toolCallEvents.sessionId, sessionId), eq(toolCallEvents.eventType, "discovery")));
  return row!.n;
}

describe("MCP endpoint on the node:http listener", () => {
  it("the SDK client connects, lists exactly the profile's tools and runs an allowed read with a full audit trail", async () => {
    const client = await mcpClient(run.gateway.token);
    expect(client.getServerVersion()?.name).toBe("paperclip-gateway");
    const { tools } = await client.listTools();
    const expected = install.tools.filter((t) => t.status === "active").map((t) => t.name);
    expect(expected.length).toBeGreaterThan(1);
    expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort());
    expect(tools.every((t) => t.name.startsWith("echo__"))).toBe(true);

    const result = await client.callTool({ name: "echo__echo", arguments: { text: "over node:http" } });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ text: "over node:http" });
    const invocationId = (result._meta as Record<string, string>)["io.paperclip/invocationId"]!;
    expect(invocationId).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await database.db
      .select()
      .from(toolInvocations)
      .where(eq(toolInvocations.id, invocationId));
    expect(row?.executionStatus).toBe("succeeded");
    expect(row?.runId).toBe(run.id);
    expect((await auditOf(invocationId)).map((e) => e.eventType)).toEqual([
      "decision",
      "execution_started",
      "result_returned",
    ]);
    // The hot path's precompiled statements keep absent JSON values SQL NULL (not JSON `null`)
    // and store present ones as JSON.
    expect(row?.argsSummary).toEqual({ text: "over node:http" });
    expect(row?.resultSummary).toMatchObject({ text: "over node:http" });
    expect(row?.latencyMs).toEqual(expect.any(Number));
    const nulls = await database.db
      .select({ type: toolCallEvents.eventType })
      .from(toolCallEvents)
      .where(
        and(
          eq(toolCallEvents.invocationId, invocationId),
          sql`${toolCallEvents.resultSummary} is null and ${toolCallEvents.latencyMs} is null`,
        ),
      );
    expect(nulls.map((e) => e.type).sort()).toEqual(["decision", "execution_started"]);
  });

  it("the Next route adapter and the node listener give identical answers to tools/list and to refused calls", async () => {
    const requests = [
      rpc("tools/list", {}),
      rpc("tools/call", { name: "vault__read_secrets", arguments: {} }, 2),
      rpc("tools/call", { name: "vault__no_such_tool", arguments: {} }, 2),
      rpc("tools/call", { name: "echo__echo" }, 3), // valid call, missing required argument
    ];
    const answers: Answer[] = [];
    for (const body of requests) {
      const node = await viaNode({ body });
      const next = await viaNext({ body });
      expect(node.status).toBe(200);
      expect(next.status).toBe(node.status);
      expect(normalised(next.text)).toEqual(normalised(node.text));
      // The fast path answered (the SDK writes `result` first), and its answer is the SDK's:
      // a batch of one takes the SDK path (which answers a batch of one with a bare message).
      expect(node.text.startsWith('{"jsonrpc":"2.0","id":'), node.text).toBe(true);
      const sdk = await viaNode({ body: `[${body}]` });
      expect(sdk.status).toBe(200);
      // (The SDK writes a result's `result` first and an error's `jsonrpc` first.)
      expect(/^\{"(result|jsonrpc)":/.test(sdk.text), sdk.text).toBe(true);
      expect(normalised(sdk.text)).toEqual(normalised(node.text));
      answers.push(node);
    }
    // A hidden and a non-existent tool: one JSON-RPC error, word for word (issue 17).
    const [hidden, missing] = answers.slice(1, 3).map((a) => JSON.parse(a.text).error);
    expect(hidden.code).toBe(-32602);
    expect(missing).toEqual(hidden);
    expect(JSON.stringify(hidden)).not.toContain("vault");
  });

  it("tools/list is served from a memo, yet every listing is audited and an access change shows at once", async () => {
    const sessionId = run.gateway.sessionId;
    const before = await discoveryEvents(sessionId);
    const names = async () =>
      (JSON.parse((await viaNode({ body: rpc("tools/list") })).text).result.tools as { name: string }[]).map(
        (t) => t.name,
      );
    const first = await names();
    expect(first).toContain("echo__now");
    expect(await names()).toEqual(first); // the same snapshot: the memoised listing

    const [now] = await database.db
      .select({ id: toolCatalogEntries.id })
      .from(toolCatalogEntries)
      .where(
        and(eq(toolCatalogEntries.connectionId, install.connectionId), eq(toolCatalogEntries.name, "now")),
      );
    const excluded = await call(profileEntriesRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId: demo.companyId, profileId: install.profileId },
      body: { mode: "exclude", selector: { type: "catalog_entry", catalogEntryId: now!.id } },
    });
    expect(excluded.status, JSON.stringify(excluded.json)).toBe(201);

    const after = await names();
    expect(after).not.toContain("echo__now");
    expect(after).toEqual(first.filter((n) => n !== "echo__now"));
    expect(await discoveryEvents(sessionId)).toBe(before + 3);

    const refused = await viaNode({ body: rpc("tools/call", { name: "echo__now", arguments: {} }) });
    expect(JSON.parse(refused.text).error.code).toBe(-32602);
  });

  it("protocol edge cases get the same answer from both adapters, and none is a 500", async () => {
    const notification = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const big = { text: "x".repeat(1024 * 1024) };
    // [name, request, status, error code in the body (REST string or JSON-RPC number)]
    const cases: [string, Raw, number, (string | number)?][] = [
      ["no bearer", { token: null, body: rpc("tools/list") }, 401, "session_invalid"],
      [
        "invalid bearer",
        { token: "pcgt_not-a-real-token-at-all", body: rpc("tools/list") },
        401,
        "session_invalid",
      ],
      [
        "token in the query",
        { query: `?token=${run.gateway.token}`, body: rpc("tools/list") },
        400,
        "token_in_query",
      ],
      [
        "foreign Host",
        { headers: { host: "evil.example" }, body: rpc("tools/list") },
        403,
        "host_not_allowed",
      ],
      [
        "GET without SSE",
        { method: "GET", headers: { accept: "application/json" } },
        405,
        "method_not_allowed",
      ],
      ["DELETE", { method: "DELETE" }, 204],
      [
        "body over 1 MiB",
        { body: rpc("tools/call", { name: "echo__echo", arguments: big }) },
        413,
        "payload_too_large",
      ],
      [
        "streamed body over 1 MiB",
        { chunked: true, body: `[${rpc("tools/list")}${" ".repeat(1 << 20)}]` },
        413,
        "payload_too_large",
      ],
      ["invalid JSON", { body: '{"jsonrpc":"2.0","id":1,"method":' }, 400, -32700],
      [
        "Accept without SSE",
        { headers: { accept: "application/json" }, body: rpc("tools/list") },
        406,
        -32000,
      ],
      [
        "protocol version",
        { headers: { "mcp-protocol-version": "1999-01-01" }, body: rpc("tools/list") },
        400,
        -32000,
      ],
      ["notification", { body: notification }, 202],
      ["ping", { body: rpc("ping", undefined, 7) }, 200],
      ["batch", { body: `[${rpc("tools/list", {}, 1)},${rpc("tools/list", {}, 2)}]` }, 200],
      ["tools/call without name", { body: rpc("tools/call", { arguments: {} }, 9) }, 200],
    ];
    const malformedEvents = async () =>
      (
        await database.db
          .select({ errorClass: toolCallEvents.errorClass })
          .from(toolCallEvents)
          .where(
            and(
              eq(toolCallEvents.sessionId, run.gateway.sessionId),
              eq(toolCallEvents.reasonCode, "request_malformed"),
            ),
          )
      )
        .map((e) => e.errorClass)
        .sort();
    const malformedBefore = await malformedEvents();
    const answers = new Map<string, Answer>();
    for (const [name, req, status, code] of cases) {
      const node = await viaNode(req);
      const next = await viaNext(req);
      expect([name, node.status, next.status]).toEqual([name, status, status]);
      if (code !== undefined) expect(JSON.parse(node.text).error.code, name).toBe(code);
      if (node.text) expect(normalised(next.text), name).toEqual(normalised(node.text));
      answers.set(name, node);
    }
    for (const name of ["no bearer", "invalid bearer"])
      expect(answers.get(name)!.headers["www-authenticate"]).toMatch(/^Bearer realm=/);
    expect(answers.get("GET without SSE")!.headers.allow).toBe("GET, POST");
    expect(answers.get("notification")!.text).toBe("");
    expect(JSON.parse(answers.get("ping")!.text)).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    const batch = JSON.parse(answers.get("batch")!.text) as { id: number; result: { tools: unknown[] } }[];
    expect(batch.map((m) => m.id).sort()).toEqual([1, 2]);
    expect(batch.every((m) => m.result.tools.length > 0)).toBe(true);
    const noName = JSON.parse(answers.get("tools/call without name")!.text);
    expect(noName).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: expect.any(Number) } });
    expect(noName.result).toBeUndefined();
    // Each malformed request of the session is on its audit trail (once per adapter).
    // invalid JSON and the bad protocol version: http_400; Accept without SSE: http_406;
    // tools/call without a name: invalid_params.
    const after = await malformedEvents();
    const added = (c: string) =>
      after.filter((x) => x === c).length - malformedBefore.filter((x) => x === c).length;
    expect({
      http_400: added("http_400"),
      http_406: added("http_406"),
      invalid_params: added("invalid_params"),
    }).toEqual({ http_400: 4, http_406: 2, invalid_params: 2 });
    expect(after.length - malformedBefore.length).toBe(8);
  });

  it("a request refused before authentication is on the audit trail of the known session whose token it carried", async () => {
    const refusals = async (reasonCode: string) =>
      (
        await database.db
          .select({ n: count() })
          .from(toolCallEvents)
          .where(
            and(
              eq(toolCallEvents.sessionId, run.gateway.sessionId),
              eq(toolCallEvents.reasonCode, reasonCode),
              eq(toolCallEvents.decision, "deny"),
            ),
          )
      )[0]!.n;
    const hostBefore = await refusals("host_not_allowed");
    const queryBefore = await refusals("token_in_query");
    const foreign = await viaNode({ headers: { host: "evil.example" }, body: rpc("tools/list") });
    expect(foreign.status).toBe(403);
    // The token only in the URL (no header): still refused, and still attributed.
    const leaked = await viaNode({
      token: null,
      query: `?access_token=${run.gateway.token}`,
      body: rpc("tools/list"),
    });
    expect(leaked.status).toBe(400);
    // An unknown token names no company: refused, nothing to attribute.
    const unknown = await viaNode({ token: null, query: "?token=pcgt_unknown", body: rpc("tools/list") });
    expect(unknown.status).toBe(400);
    expect(await refusals("host_not_allowed")).toBe(hostBefore + 1);
    expect(await refusals("token_in_query")).toBe(queryBefore + 1);
  });

  it("node responses carry no-store and nosniff and no mcp-session-id (stateless)", async () => {
    const answers = [
      await viaNode({ body: rpc("tools/list") }), // fast path
      await viaNode({ body: rpc("ping") }), // SDK path
      await viaNode({
        body: rpc("initialize", {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        }),
      }),
      await viaNode({ body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) }),
      await viaNode({ token: null, body: rpc("tools/list") }),
      await viaNode({ method: "GET", headers: { accept: "application/json" } }),
      await viaNode({ method: "DELETE" }),
    ];
    for (const a of answers) {
      expect(a.headers["cache-control"], `${a.status} ${a.text}`).toBe("no-store");
      expect(a.headers["x-content-type-options"], `${a.status} ${a.text}`).toBe("nosniff");
      expect(a.headers["mcp-session-id"]).toBeUndefined();
    }
  });

  it("the listener claims exactly the endpoint's path", () => {
    for (const url of [PATH, `${PATH}?x=1`, `${PATH}/`]) expect(isGatewayMcpPath(url), url).toBe(true);
    for (const url of [undefined, "/", `${PATH}x`, `${PATH}/x`, `${PATH}//`, "/api/tool-gateway/tools"])
      expect(isGatewayMcpPath(url), url).toBe(false);
  });

  // The fast path must not accept what the SDK transport refuses as invalid JSON-RPC (a
  // non-integer id, unknown top-level keys): otherwise the same request would be answered (a
  // tools/call even executed) or refused depending on the path. (Found by this test; fixed.)
  it("a message the SDK transport refuses is refused on the fast path too", async () => {
    for (const body of [
      '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","extra":true}',
    ]) {
      const sdk = await viaNode({ body: `[${body}]` });
      expect(sdk.status).toBe(400);
      const fast = await viaNode({ body });
      expect([body, fast.status]).toEqual([body, 400]);
    }
  });

  // The node adapter answers 413 itself (before serveGatewayMcp): same headers as everywhere.
  it("the node listener's 413 carries the same security headers as the Next adapter's", async () => {
    const req = { body: "x".repeat(1024 * 1024 + 1) };
    const node = await viaNode(req);
    const next = await viaNext(req);
    expect([node.status, next.status]).toEqual([413, 413]);
    expect(next.headers["x-content-type-options"]).toBe("nosniff");
    expect(node.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("a secret bound to the connection reaches no response body of the node listener", async () => {
    const actor = { type: "board_key" as const, keyId: "k", role: "admin" as const, userId: null };
    const ctx = {
      db: database.db,
      actor: { ...actor, companyId: demo.companyId },
      requestId: "t",
      now: () => new Date(),
    };
    const secret = await createSecret(ctx, demo.companyId, { name: "ECHO_TOKEN", value: CANARY });
    await bindSecret(ctx, demo.companyId, install.connectionId, {
      secretId: secret.id,
      placement: "http_header",
      target: "X-Echo-Token",
    });
    const listed = await viaNode({ body: rpc("tools/list") });
    expect(listed.status).toBe(200);
    const called = await viaNode({
      body: rpc("tools/call", { name: "echo__echo", arguments: { text: "with a secret" } }),
    });
    const result = JSON.parse(called.text).result;
    expect(result.isError).toBeFalsy();
    const [row] = await database.db
      .select()
      .from(toolInvocations)
      .where(eq(toolInvocations.id, result._meta["io.paperclip/invocationId"]));
    expect(row?.executionStatus).toBe("succeeded");
    // The secret was really resolved for the upstream (so the canary was in play).
    const access = await database.db
      .select({ outcome: companySecretAccessEvents.outcome })
      .from(companySecretAccessEvents)
      .where(eq(companySecretAccessEvents.secretId, secret.id));
    expect(access.map((e) => e.outcome)).toContain("granted");
    const client = await mcpClient(run.gateway.token);
    await client.callTool({ name: "echo__add", arguments: { a: 1, b: 2 } });
    await client.close();
    expect(nodeBodies.length).toBeGreaterThan(20);
    expect(nodeBodies.join("\n")).not.toContain(CANARY);
  });
  // Execution takes the connection's row from the access snapshot the call was decided on, not
  // from a per-call query: a change to the connection must reach the very next call.
  it("a changed connection URL takes effect on the next call (no stale cached connection row)", async () => {
    const other = (await startHttpFixture("echo")) as HttpFixture<{ ledger: { totalCalls: number } }>;
    await grantPrivateUpstreams(database.db, [other.url]);
    const first = echo as HttpFixture<{ ledger: { totalCalls: number } }>;
    try {
      const params = { companyId: demo.companyId, connectionId: install.connectionId };
      const patched = await call(connectionRoute.PATCH, "PATCH", "/", {
        ...board(),
        params,
        body: { transportConfig: { url: other.url } },
      });
      expect(patched.status, JSON.stringify(patched.json)).toBe(200);
      // A transport change disables the connection until it is tested and enabled again.
      const refused = await viaNode({
        body: rpc("tools/call", { name: "echo__echo", arguments: { text: "x" } }),
      });
      expect(JSON.parse(refused.text).error.code).toBe(-32602);
      expect((await call(connectionTestRoute.POST, "POST", "/", { ...board(), params })).status).toBe(200);
      const enabled = await call(connectionEnableRoute.POST, "POST", "/", { ...board(), params });
      expect(enabled.status, JSON.stringify(enabled.json)).toBe(200);
      const before = first.state.ledger.totalCalls;
      const called = await viaNode({
        body: rpc("tools/call", { name: "echo__echo", arguments: { text: "to the new upstream" } }),
      });
      expect(JSON.parse(called.text).result.isError).toBeFalsy();
      expect(other.state.ledger.totalCalls).toBe(1);
      expect(first.state.ledger.totalCalls).toBe(before);
    } finally {
      await other.close();
    }
  });
});
