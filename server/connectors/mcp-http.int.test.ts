// long-file: one suite over one pair of real MCP servers (Streamable HTTP + SSE) started once for all cases
/**
 * The MCP client pool against a real MCP server (the SDK's McpServer over Streamable HTTP, and a
 * legacy HTTP+SSE one) on 127.0.0.1, written here. Nothing leaves the machine.
 */

import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  isInitializeRequest,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { serviceRejection as rejection } from "@/server/testing/rejection";
import { listenLoopback } from "@/server/testing/serve";
import { McpHttpPool } from "./mcp-http";
import type { McpHttpTarget } from "./types";

const CANARY = "canary-9f2c41d7e8b34a6f";
const CANARY_KEY = "ck-51a0e6b2d9f7c3e4";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface UpstreamState {
  initializations: number;
  posts: number;
  deletes: number;
  getStreams: number;
  executions: Record<string, number>;
  authorizations: string[];
  /** Answer the next POST with a 500 whose body echoes the credentials it received. */
  failNextPostEchoingHeaders: boolean;
  servers: Set<McpServer>;
}

interface Upstream {
  url: string;
  port: number;
  state: UpstreamState;
  /** Drops every session (the next request with an old session id gets 404). */
  forgetSessions(): Promise<void>;
  close(): Promise<void>;
}

function createMcpServer(state: UpstreamState): McpServer {
  const server = new McpServer(
    { name: "test-upstream", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  const count = (name: string) => {
    state.executions[name] = (state.executions[name] ?? 0) + 1;
  };
  server.registerTool(
    "echo",
    { description: "echo", inputSchema: { text: z.string() } },
    async ({ text }) => {
      count("echo");
      return { content: [{ type: "text", text }] };
    },
  );
  server.registerTool("side_effect", { description: "counts executions" }, async () => {
    count("side_effect");
    return { content: [{ type: "text", text: `executed ${state.executions.side_effect}` }] };
  });
  server.registerTool("slow_side_effect", { description: "executes, then hangs" }, async () => {
    count("slow_side_effect");
    await sleep(3_000);
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool(
    "big",
    { description: "big output", inputSchema: { bytes: z.number() } },
    async ({ bytes }) => {
      count("big");
      return { content: [{ type: "text", text: "x".repeat(bytes) }] };
    },
  );
  return server;
}

/** A server with 2,500 tools and 3 resources, served in pages (tools: 100 per page, resources: 1). */
function createPagedServer(): McpServer {
  const mcp = new McpServer({ name: "paged-upstream", version: "1.0.0" });
  mcp.server.registerCapabilities({ tools: {}, resources: {} });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const start = Number(req.params?.cursor ?? 0);
    const tools = Array.from({ length: 100 }, (_, i) => ({
      name: `tool_${start + i}`,
      inputSchema: { type: "object" as const },
    }));
    return { tools, nextCursor: start + 100 < 2_500 ? String(start + 100) : undefined };
  });
  mcp.server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
    const n = Number(req.params?.cursor ?? 0);
    return {
      resources: [{ uri: `mem://r${n}`, name: `r${n}` }],
      nextCursor: n < 2 ? String(n + 1) : undefined,
    };
  });
  return mcp;
}

const freshUpstreamState = (): UpstreamState => ({
  initializations: 0,
  posts: 0,
  deletes: 0,
  getStreams: 0,
  executions: {},
  authorizations: [],
  failNextPostEchoingHeaders: false,
  servers: new Set(),
});

async function startUpstream(
  port = 0,
  factory: (state: UpstreamState) => McpServer = createMcpServer,
): Promise<Upstream> {
  const state = freshUpstreamState();
  const sessions = new Map<string, { server: McpServer; transport: StreamableHTTPServerTransport }>();

  const httpServer = http.createServer(async (req, res) => {
    const auth = req.headers.authorization;
    if (typeof auth === "string") state.authorizations.push(auth);
    let body: unknown;
    if (req.method === "POST") {
      state.posts++;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (state.failNextPostEchoingHeaders) {
        state.failNextPostEchoingHeaders = false;
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`internal error; got authorization=${auth} x-api-key=${req.headers["x-api-key"]}`);
        return;
      }
    }
    if (req.method === "DELETE") state.deletes++;
    if (req.method === "GET") state.getStreams++;
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const s = sessions.get(sid);
      if (!s) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }),
        );
        return;
      }
      await s.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method === "POST" && isInitializeRequest(body)) {
      state.initializations++;
      const server = factory(state);
      state.servers.add(server);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { server, transport });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      transport.onclose = () => {
        state.servers.delete(server);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request" }, id: null }));
  });
  await new Promise<void>((resolve) => httpServer.listen(port, "127.0.0.1", resolve));
  const bound = (httpServer.address() as AddressInfo).port;

  const forgetSessions = async () => {
    const all = [...sessions.values()];
    sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => {})));
  };
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    port: bound,
    state,
    forgetSessions,
    close: async () => {
      await forgetSessions();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** A legacy HTTP+SSE server: GET /mcp opens the stream, POST /messages carries requests. POST /mcp is 405. */
async function startLegacySseUpstream(): Promise<{
  url: string;
  state: { initializations: number };
  close(): Promise<void>;
}> {
  const state = { initializations: 0 };
  const transports = new Map<string, SSEServerTransport>();
  const servers = new Set<McpServer>();
  const httpServer = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/mcp" && req.method === "GET") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      const server = createMcpServer(freshUpstreamState());
      servers.add(server);
      res.on("close", () => transports.delete(transport.sessionId));
      await server.connect(transport);
      return;
    }
    if (url.pathname === "/messages" && req.method === "POST") {
      const transport = transports.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (isInitializeRequest(body)) state.initializations++;
      await transport.handlePostMessage(req, res, body);
      return;
    }
    res.writeHead(405, { allow: "GET" }).end();
  });
  const port = await listenLoopback(httpServer);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    state,
    close: async () => {
      await Promise.all([...servers].map((s) => s.close().catch(() => {})));
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

let upstream: Upstream;
let pool: McpHttpPool;
const logged: string[] = [];

function target(overrides: Partial<McpHttpTarget> = {}): McpHttpTarget {
  return {
    connectionId: "conn-1",
    url: upstream.url,
    headers: { Authorization: `Bearer ${CANARY}`, "X-Api-Key": CANARY_KEY },
    credentialScope: "shared",
    privateUpstreams: [{ origin: new URL(upstream.url).origin }],
    timeoutMs: 5_000,
    ...overrides,
  };
}

/** `target()` for another upstream at `url` (its origin the private upstream granted). */
const targetAt = (connectionId: string, url: string) =>
  target({ connectionId, url, privateUpstreams: [{ origin: new URL(url).origin }] });

beforeAll(async () => {
  upstream = await startUpstream();
});

beforeEach(() => {
  pool = new McpHttpPool();
  logged.length = 0;
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    });
  }
});

afterEach(async () => {
  await pool.closeAll();
  // Every test: no secret in any console output.
  const all = logged.join("\n");
  expect(all).not.toContain(CANARY);
  expect(all).not.toContain(CANARY_KEY);
  vi.restoreAllMocks();
});

afterAll(async () => {
  await upstream.close();
});

describe("one initialize per client", () => {
  it("shares one initialize across 20 concurrent and 20 sequential calls", async () => {
    const before = upstream.state.initializations;
    const concurrent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pool.callTool(target(), "echo", { text: `c${i}` })),
    );
    expect(concurrent.map((o) => (o.result.content[0] as { text: string }).text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `c${i}`),
    );
    for (let i = 0; i < 20; i++) {
      const out = await pool.callTool(target(), "echo", { text: `s${i}` });
      expect(out.truncated).toBe(false);
      expect(out.fullJson).toBeNull();
    }
    expect(upstream.state.initializations - before).toBe(1);
    expect(pool.size).toBe(1);
  });

  it("keeps separate clients per credential scope and per header set", async () => {
    const before = upstream.state.initializations;
    await pool.listTools(target());
    await pool.listTools(target({ credentialScope: "user:1" }));
    await pool.listTools(target({ headers: { Authorization: `Bearer ${CANARY}-other` } }));
    await pool.listTools(target());
    expect(upstream.state.initializations - before).toBe(3);
    expect(pool.size).toBe(3);
  });

  it("invalidate(connectionId) closes the connection's clients", async () => {
    await pool.listTools(target());
    await pool.listTools(target({ connectionId: "conn-2" }));
    const deletes = upstream.state.deletes;
    await pool.invalidate("conn-1");
    expect(pool.size).toBe(1);
    expect(upstream.state.deletes - deletes).toBe(1); // session terminated politely
    const before = upstream.state.initializations;
    await pool.listTools(target());
    expect(upstream.state.initializations - before).toBe(1);
  });
});

describe("secrets", () => {
  it("sends the header upstream but never puts it in errors or logs", async () => {
    await pool.callTool(target(), "echo", { text: "hi" });
    expect(upstream.state.authorizations).toContain(`Bearer ${CANARY}`);

    upstream.state.failNextPostEchoingHeaders = true;
    const err = await rejection(pool.callTool(target(), "echo", { text: "boom" }));
    expect(err.code).toBe("upstream_error");
    expect(err.message).toContain("internal error");
    expect(err.message).toContain("[redacted]");
    const serialized = `${err.message} ${err.stack} ${JSON.stringify(err.details)}`;
    expect(serialized).not.toContain(CANARY);
    expect(serialized).not.toContain(CANARY_KEY);
    // afterEach asserts the console output.
  });
});

describe("limits", () => {
  it("times out a slow call with upstream_timeout", async () => {
    const started = Date.now();
    const err = await rejection(pool.callTool(target({ timeoutMs: 300 }), "slow_side_effect", {}));
    expect(err.code).toBe("upstream_timeout");
    expect(err.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("does not retry a call that may have executed", async () => {
    const before = upstream.state.executions.slow_side_effect ?? 0;
    await rejection(pool.callTool(target({ timeoutMs: 300 }), "slow_side_effect", {}));
    await sleep(300);
    expect((upstream.state.executions.slow_side_effect ?? 0) - before).toBe(1);
  });

  it("truncates an oversized result and hands back the full JSON", async () => {
    const bytes = 2 * 1024 * 1024;
    const out = await pool.callTool(target(), "big", { bytes });
    expect(out.truncated).toBe(true);
    if (!out.truncated) throw new Error("unreachable");
    expect(out.result.isError).toBe(false);
    expect(out.result._meta).toEqual({ truncated: true, originalBytes: out.originalBytes });
    expect(out.originalBytes).toBeGreaterThan(bytes);
    expect(Buffer.byteLength(JSON.stringify(out.result))).toBeLessThanOrEqual(1024 * 1024);
    const first = out.result.content[0] as { type: string; text: string };
    expect(first.type).toBe("text");
    expect(first.text).toMatch(/truncated/i);
    const full = JSON.parse(out.fullJson) as { content: Array<{ text: string }> };
    expect(full.content[0]!.text.length).toBe(bytes);
    expect(Buffer.byteLength(out.fullJson)).toBe(out.originalBytes);
  });

  it("honours a per-call maxResultBytes", async () => {
    const out = await pool.callTool(target(), "big", { bytes: 5_000 }, { maxResultBytes: 4_096 });
    expect(out.truncated).toBe(true);
  });
});

describe("session expiry", () => {
  it("listTools survives the upstream forgetting the session", async () => {
    const tools = await pool.listTools(target());
    expect(tools.map((t) => t.name).sort()).toEqual(["big", "echo", "side_effect", "slow_side_effect"]);
    const before = upstream.state.initializations;
    await upstream.forgetSessions();
    const again = await pool.listTools(target());
    expect(again).toHaveLength(4);
    expect(upstream.state.initializations - before).toBe(1);
    expect(logged.join("\n")).toContain('"reason":"session_expired"');
  });

  it("listTools survives an upstream restart on the same port", async () => {
    await pool.listTools(target());
    const port = upstream.port;
    await upstream.close();
    upstream = await startUpstream(port);
    const tools = await pool.listTools(target());
    expect(tools).toHaveLength(4);
    expect(upstream.state.initializations).toBe(1);
  });

  it("callTool re-initializes after a 404 and the tool runs exactly once", async () => {
    await pool.callTool(target(), "echo", { text: "warm" });
    await upstream.forgetSessions();
    const before = upstream.state.executions.side_effect ?? 0;
    const out = await pool.callTool(target(), "side_effect", {});
    expect(out.result.isError).toBeFalsy();
    expect((upstream.state.executions.side_effect ?? 0) - before).toBe(1);
    expect(logged.join("\n")).toContain('"reason":"session_expired"');
  });
});

describe("network guard", () => {
  it("refuses 127.0.0.1 unless the operator granted its origin, without contacting it", async () => {
    const posts = upstream.state.posts;
    const err = await rejection(pool.listTools(target({ privateUpstreams: [] })));
    expect(err.code).toBe("upstream_requires_operator");
    expect(err.message).toContain("127.0.0.1 is a loopback address");
    const err2 = await rejection(pool.callTool(target({ privateUpstreams: [] }), "echo", { text: "x" }));
    expect(err2.code).toBe("upstream_requires_operator");
    expect(upstream.state.posts).toBe(posts);
    expect(pool.size).toBe(0);
  });

  it("refuses a host name resolving to loopback when its origin is not granted", async () => {
    const guardedPool = new McpHttpPool({ resolver: async () => [{ address: "127.0.0.1", family: 4 }] });
    try {
      const err = await rejection(
        guardedPool.listTools(
          target({ url: `http://upstream.test:${upstream.port}/mcp`, privateUpstreams: [] }),
        ),
      );
      expect(err.code).toBe("upstream_requires_operator");
    } finally {
      await guardedPool.closeAll();
    }
  });

  it("connects through a pinned host name when the operator granted that origin", async () => {
    const pinnedPool = new McpHttpPool({ resolver: async () => [{ address: "127.0.0.1", family: 4 }] });
    try {
      const origin = `http://upstream.test:${upstream.port}`;
      const tools = await pinnedPool.listTools(
        target({ url: `${origin}/mcp`, privateUpstreams: [{ origin }] }),
      );
      expect(tools.length).toBe(4);
    } finally {
      await pinnedPool.closeAll();
    }
  });
});

describe("lifecycle", () => {
  it("closes idle clients and reconnects on the next call", async () => {
    const idlePool = new McpHttpPool({ idleMs: 150 });
    try {
      const before = upstream.state.initializations;
      await idlePool.listTools(target());
      expect(idlePool.size).toBe(1);
      await sleep(500);
      expect(idlePool.size).toBe(0);
      await idlePool.listTools(target());
      expect(upstream.state.initializations - before).toBe(2);
    } finally {
      await idlePool.closeAll();
    }
  });

  it("delivers notifications/tools/list_changed to subscribers", async () => {
    const changed = new Promise<string>((resolve) => {
      pool.onToolsListChanged("conn-1", resolve);
    });
    const streamsBefore = upstream.state.getStreams;
    await pool.listTools(target());
    // Wait for the client's standalone SSE stream, which carries server notifications.
    for (let i = 0; i < 50 && upstream.state.getStreams === streamsBefore; i++) await sleep(20);
    for (const server of upstream.state.servers) {
      if (server.isConnected())
        server.registerTool("late_tool", { description: "added later" }, async () => ({ content: [] }));
    }
    await expect(Promise.race([changed, sleep(3_000).then(() => "timeout")])).resolves.toBe("conn-1");
    const tools = await pool.listTools(target());
    expect(tools.map((t) => t.name)).toContain("late_tool");
  });

  it("follows pagination cursors and caps lists at 1,000 items", async () => {
    const paged = await startUpstream(0, createPagedServer);
    try {
      const t = targetAt("paged", paged.url);
      const tools = await pool.listTools(t);
      expect(tools).toHaveLength(1_000);
      expect(tools[999]!.name).toBe("tool_999");
      expect(logged.join("\n")).toContain("mcp_http.list_capped");
      const resources = await pool.listResources(t);
      expect(resources.map((r) => r.uri)).toEqual(["mem://r0", "mem://r1", "mem://r2"]);
      expect(await pool.listPrompts(t)).toEqual([]); // no prompts capability
      expect(paged.state.initializations).toBe(1);
    } finally {
      await pool.closeAll();
      await paged.close();
    }
  });

  it("tolerates servers without resources or prompts", async () => {
    expect(await pool.listResources(target())).toEqual([]);
    expect(await pool.listPrompts(target())).toEqual([]);
  });

  it("falls back to the legacy HTTP+SSE transport", async () => {
    const legacy = await startLegacySseUpstream();
    try {
      const t = targetAt("legacy", legacy.url);
      const tools = await pool.listTools(t);
      expect(tools.map((x) => x.name)).toContain("echo");
      for (let i = 0; i < 5; i++) {
        const out = await pool.callTool(t, "echo", { text: `sse${i}` });
        expect((out.result.content[0] as { text: string }).text).toBe(`sse${i}`);
      }
      await pool.listTools(t);
      // One for the discovery client (lists), one for the call client: neither re-probes.
      expect(legacy.state.initializations).toBe(2);
    } finally {
      await pool.closeAll();
      await legacy.close();
    }
  });
});
