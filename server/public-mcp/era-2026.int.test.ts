/**
 * MCP 2026-07-28 on `/mcp/paperclip` over real loopback HTTP, beside the legacy era on the
 * same endpoint (docs/public-mcp.md, "Protocol versions"): server/discover, the shared tool
 * surface, the header/body ladder, and the bearer gate in front of both.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "@/app/mcp/paperclip/route";
import { instanceSettings, users } from "@/db/schema";
import { connectAssistant } from "../testing/public-mcp";
import { serveRoutes } from "../testing/serve";
import { closeDemoWorld, demoWorld, type TestDatabase } from "../testing/world";
import { decodeHeaderValue, SUPPORTED_VERSIONS } from "./era-2026";
import { listTools } from "./tools";

const V = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientInfo": { name: "era-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

let database: TestDatabase;
let server: { origin: string; close: () => Promise<void> };
let token: string;
let ownerId: string;
let url: string;

beforeAll(async () => {
  const world = await demoWorld();
  database = world.database;
  server = await serveRoutes({
    "/mcp/paperclip": ((r: Request) => mcpRoute.POST(r)) as never,
  });
  url = `${server.origin}/mcp/paperclip`;
  // The grant's resource is this origin's endpoint (connectAssistant reads it now).
  process.env.PAPERCLIP_PUBLIC_URL = server.origin;
  await database.db
    .insert(instanceSettings)
    .values({ key: "enablePublicMcp", value: true })
    .onConflictDoUpdate({ target: instanceSettings.key, set: { value: true } });
  const [owner] = await database.db.select().from(users).where(eq(users.email, world.demo.ownerEmail));
  ownerId = owner!.id;
  ({ token } = await connectAssistant(database.db, { userId: ownerId, companyId: world.demo.companyId }));
});

afterAll(async () => {
  delete process.env.PAPERCLIP_PUBLIC_URL;
  await server?.close();
  await closeDemoWorld(database);
});

interface Rpc {
  status: number;
  body: {
    id?: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: Record<string, unknown> };
  } | null;
  headers: Headers;
}

/** One modern POST; `headers` override (or, as `null`, remove) the computed standard headers. */
async function post(
  message: Record<string, unknown>,
  headers: Record<string, string | null> = {},
  auth: string | null = `Bearer ${token}`,
): Promise<Rpc> {
  const params = message.params as { name?: unknown } | undefined;
  const all: Record<string, string | null> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": V,
    "mcp-method": typeof message.method === "string" ? message.method : null,
    "mcp-name": typeof params?.name === "string" ? params.name : null,
    authorization: auth,
    ...headers,
  };
  const h = new Headers();
  for (const [k, v] of Object.entries(all)) if (v !== null) h.set(k, v);
  const res = await fetch(url, { method: "POST", headers: h, body: JSON.stringify(message) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** A raw 2026 POST of `text` (headers fixed: `Mcp-Method: tools/list`). */
const postText = (text: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "mcp-protocol-version": V,
      "mcp-method": "tools/list",
    },
    body: text,
  });

const request = (method: string, params: Record<string, unknown> = {}, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: META },
});

describe("MCP 2026-07-28 on /mcp/paperclip", () => {
  it("server/discover names the versions of both eras, tools, and the server", async () => {
    const r = await post(request("server/discover"));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body?.id).toBe(1);
    const result = r.body!.result!;
    expect(result.resultType).toBe("complete");
    expect(result.supportedVersions).toEqual([...SUPPORTED_VERSIONS]);
    expect(result.supportedVersions).toEqual(expect.arrayContaining([V, "2025-11-25", "2025-06-18"]));
    expect(result.capabilities).toEqual({ tools: {}, events: {} });
    expect(result._meta).toEqual({
      "io.modelcontextprotocol/serverInfo": { name: "paperclip", version: "1.0.0" },
    });
    expect(result.instructions).toContain("paperclip_connection");
    expect(result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: "private" });
  });

  it("tools/list equals the legacy era's list (one registry)", async () => {
    const r = await post(request("tools/list"));
    expect(r.status).toBe(200);
    expect(r.body!.result!.resultType).toBe("complete");
    expect(r.body!.result!.cacheScope).toBe("private");
    const client = new Client({ name: "legacy", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const legacy = await client.listTools();
    await client.close();
    expect(r.body!.result!.tools).toEqual(legacy.tools);
    expect(r.body!.result!.tools).toEqual(JSON.parse(JSON.stringify(listTools())));
  });

  it("tools/call paperclip_connection answers as the grant's person", async () => {
    const r = await post(request("tools/call", { name: "paperclip_connection", arguments: {} }));
    expect(r.status).toBe(200);
    const result = r.body!.result as { resultType: string; structuredContent: { person: { id: string } } };
    expect(result.resultType).toBe("complete");
    expect(result.structuredContent.person.id).toBe(ownerId);
    // A base64-encoded Mcp-Name (the sentinel) is decoded before the comparison.
    const encoded = `=?base64?${Buffer.from("paperclip_connection").toString("base64")}?=`;
    const r2 = await post(request("tools/call", { name: "paperclip_connection" }), { "mcp-name": encoded });
    expect(r2.status).toBe(200);
    expect(r2.body!.result!.isError).toBeUndefined();
  });

  it("a header that disagrees with the body is 400 HeaderMismatch (-32020)", async () => {
    const call = request("tools/call", { name: "paperclip_connection", arguments: {} }, "m-1");
    const cases: Record<string, string>[] = [
      { "mcp-method": "tools/list" },
      { "mcp-name": "paperclip_search_api" },
      { "mcp-name": "=?base64?!!!?=" },
      { "mcp-protocol-version": "2025-11-25" },
    ];
    for (const headers of cases) {
      const r = await post(call, headers);
      expect(r.status, JSON.stringify(headers)).toBe(400);
      expect(r.body!.error!.code, JSON.stringify(headers)).toBe(-32020);
      expect(r.body!.id).toBe("m-1");
    }
  });

  it("a missing Mcp-Name (or Mcp-Method) is 400 HeaderMismatch", async () => {
    const call = request("tools/call", { name: "paperclip_connection", arguments: {} });
    const noName = await post(call, { "mcp-name": null });
    expect(noName.status).toBe(400);
    expect(noName.body!.error!.code).toBe(-32020);
    expect(noName.body!.error!.message).toContain("Mcp-Name");
    const noMethod = await post(request("tools/list"), { "mcp-method": null });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body!.error!.code).toBe(-32020);
    // The body alone claims the era: without the version header it is still refused.
    const noVersion = await post(request("tools/list"), { "mcp-protocol-version": null });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body!.error!.code).toBe(-32020);
  });

  it("an unknown method is 404 with -32601; ping and initialize are gone in this era", async () => {
    for (const method of ["resources/list", "ping", "initialize"]) {
      const r = await post(request(method));
      expect(r.status, method).toBe(404);
      expect(r.body!.error!.code, method).toBe(-32601);
    }
  });

  it("a legacy initialize with the 2026 header is refused with HeaderMismatch", async () => {
    const r = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    expect(r.status).toBe(400);
    expect(r.body!.error!.code).toBe(-32020);
  });

  it("a missing or malformed _meta envelope is 400 with -32602", async () => {
    const bare = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(bare.status).toBe(400);
    expect(bare.body!.error!.code).toBe(-32602);
    const noCaps = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": V } },
    });
    expect(noCaps.status).toBe(400);
    expect(noCaps.body!.error!.code).toBe(-32602);
  });

  it("an unsupported version is 400 UnsupportedProtocolVersion (-32022) listing the supported ones", async () => {
    const future = "2099-01-01";
    const r = await post(
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": future } },
      },
      { "mcp-protocol-version": future },
    );
    expect(r.status).toBe(400);
    expect(r.body!.error).toMatchObject({
      code: -32022,
      data: { supported: [...SUPPORTED_VERSIONS], requested: future },
    });
    // A version header neither era knows, on legacy-shaped traffic: the same modern error.
    const old = await post(
      { jsonrpc: "2.0", id: 8, method: "tools/list", params: {} },
      { "mcp-protocol-version": "1999-01-01" },
    );
    expect(old.status).toBe(400);
    expect(old.body!.error!.code).toBe(-32022);
  });

  it("notifications are 202 without a body; batches are refused", async () => {
    const n = await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    expect(n.status).toBe(202);
    expect(n.body).toBeNull();
    const res = await postText(JSON.stringify([request("tools/list"), request("tools/list", {}, 2)]));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("an unknown tool is -32602 in-band, a tool refusal an isError result", async () => {
    const r = await post(request("tools/call", { name: "no_such_tool", arguments: {} }));
    expect(r.status).toBe(200);
    expect(r.body!.error!.code).toBe(-32602);
    const refused = await post(request("tools/call", { name: "paperclip_connection", arguments: { x: 1 } }));
    expect(refused.status).toBe(200);
    expect(refused.body!.result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "arguments_invalid" } },
    });
  });

  it("the legacy SDK client (2025-11-25) still initializes and calls tools on the same endpoint", async () => {
    const client = new Client({ name: "legacy", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(client.getServerVersion()).toEqual({ name: "paperclip", version: "1.0.0" });
    const result = await client.callTool({ name: "paperclip_connection", arguments: {} });
    expect((result.structuredContent as { person: { id: string } }).person.id).toBe(ownerId);
    await client.ping();
    await client.close();
  });

  it("a 2026 request without a token is 401 with the WWW-Authenticate challenge", async () => {
    const r = await post(request("server/discover"), {}, null);
    expect(r.status).toBe(401);
    const challenge = r.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp/paperclip"`,
    );
    expect(challenge).toContain('scope="');
    const bad = await post(request("tools/list"), {}, "Bearer pcoa_not-a-token");
    expect(bad.status).toBe(401);
  });

  it("malformed 2026 requests are 4xx JSON-RPC errors, never a 5xx", async () => {
    const bodies: unknown[] = [
      "not json",
      null,
      42,
      [],
      { jsonrpc: "2.0" },
      { jsonrpc: "2.0", id: {}, method: "tools/list", params: { _meta: META } },
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1, method: 7, params: { _meta: META } },
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: "x" },
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: [] } },
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": 2026 } },
      },
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/clientInfo": "x" } },
      },
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: META, name: 5 } },
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { _meta: META, name: "paperclip_connection", arguments: [] },
      },
      { jsonrpc: "2.0", id: 1, method: "constructor", params: { _meta: META } },
      { jsonrpc: "2.0", id: 1, method: "__proto__", params: { _meta: META } },
    ];
    for (const body of bodies) {
      const res = await postText(typeof body === "string" ? body : JSON.stringify(body));
      const label = JSON.stringify(body);
      expect(res.status, label).toBeLessThan(500);
      const answer = (await res.json()) as { error?: { code: number }; result?: unknown };
      expect(answer.error?.code ?? "result", label).toEqual(expect.any(Number));
    }
  });

  it("the preflight allows the 2026 headers", async () => {
    const res = mcpRoute.OPTIONS();
    expect(res.headers.get("access-control-allow-headers")).toMatch(/mcp-method, mcp-name/);
  });
});

describe("decodeHeaderValue", () => {
  it("decodes the base64 sentinel and refuses a malformed one", () => {
    expect(decodeHeaderValue("plain")).toBe("plain");
    expect(decodeHeaderValue("=?base64?SGVsbG8sIOS4lueVjA==?=")).toBe("Hello, 世界");
    expect(decodeHeaderValue("=?base64?abc?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined(); // not UTF-8
  });
});
