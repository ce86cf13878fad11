/**
 * The lean upstream `tools/call` (mcp-http-lean.ts) against real MCP servers on 127.0.0.1: the
 * SDK's McpServer over its Streamable HTTP transport, answering with SSE (the default) or JSON.
 * Each case checks the lean path was the one taken (`leanCallStats`), so a regression to the
 * SDK path, or a lean path that behaves differently from it, fails here.
 */

import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, isInitializeRequest, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { serviceRejection as rejection } from "@/server/testing/rejection";
import { McpHttpPool } from "./mcp-http";
import { leanCallStats } from "./mcp-http-lean";
import type { McpHttpTarget } from "./types";

const CANARY = "canary-lean-3b7e1f90c2d4";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Upstream {
  url: string;
  seen: { posts: { method?: string; id?: unknown; headers: http.IncomingHttpHeaders }[] };
  executions: Record<string, number>;
  cancelled: string[];
  forgetSessions(): void;
  close(): Promise<void>;
}

function mcpServer(up: Pick<Upstream, "executions" | "cancelled">): McpServer {
  const server = new McpServer(
    { name: "lean-upstream", version: "1.0.0" },
    { capabilities: { logging: {} } },
  );
  const count = (n: string) => {
    up.executions[n] = (up.executions[n] ?? 0) + 1;
  };
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => {
    count("echo");
    return { content: [{ type: "text", text }] };
  });
  server.registerTool("fails", {}, async () => {
    count("fails");
    throw new Error("tool failed on purpose");
  });
  // McpServer turns a thrown error into an isError result, except this code: a JSON-RPC error.
  server.registerTool("rpc_error", {}, async () => {
    count("rpc_error");
    throw new McpError(ErrorCode.UrlElicitationRequired, "a JSON-RPC error on purpose", { elicitations: [] });
  });
  server.registerTool("chatty", {}, async (extra) => {
    count("chatty");
    // A notification on the call's own stream before the response: the lean path hands it to
    // the SDK client, whose list_changed handler must still fire.
    await server.server.notification(
      { method: "notifications/tools/list_changed" },
      { relatedRequestId: extra.requestId },
    );
    return { content: [{ type: "text", text: "after a notification" }] };
  });
  server.registerTool("slow", {}, async (extra) => {
    count("slow");
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 3_000);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(t);
        up.cancelled.push(String(extra.requestId));
        resolve();
      });
    });
    return { content: [{ type: "text", text: "late" }] };
  });
  server.registerTool("big", { inputSchema: { bytes: z.number() } }, async ({ bytes }) => {
    count("big");
    return { content: [{ type: "text", text: "x".repeat(bytes) }] };
  });
  server.registerTool("meta", {}, async (extra) => {
    count("meta");
    return { content: [{ type: "text", text: JSON.stringify(extra._meta ?? null) }] };
  });
  return server;
}

async function startUpstream(
  opts: {
    json?: boolean;
    redirectCalls?: boolean;
    gzipCalls?: boolean;
    /** Answer tools/call with plain text, or with an SSE stream that ends without a response. */
    oddCalls?: "text" | "empty-sse";
  } = {},
): Promise<Upstream> {
  const up: Upstream = {
    url: "",
    seen: { posts: [] },
    executions: {},
    cancelled: [],
    forgetSessions: () => {},
    close: async () => {},
  };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    let body: unknown;
    if (req.method === "POST") {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const m = body as { method?: string; id?: unknown };
      up.seen.posts.push({ method: m.method, id: m.id, headers: req.headers });
      if (opts.gzipCalls && m.method === "tools/call") {
        // Compressed though the request accepted only identity.
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [] } })));
        return;
      }
      if (opts.oddCalls && m.method === "tools/call") {
        if (opts.oddCalls === "text") res.writeHead(200, { "content-type": "text/plain" }).end("hello");
        else
          res
            .writeHead(200, { "content-type": "text/event-stream" })
            .end(
              'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n',
            );
        return;
      }
      if (opts.redirectCalls && path === "/mcp" && m.method === "tools/call") {
        res.writeHead(307, { location: "/mcp2" }).end();
        return;
      }
    }
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const t = sessions.get(sid);
      if (!t) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }),
        );
        return;
      }
      await t.handleRequest(req, res, body);
      return;
    }
    if (req.method === "POST" && isInitializeRequest(body)) {
      const server = mcpServer(up);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: opts.json ?? false,
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    res.writeHead(400).end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  up.url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  up.forgetSessions = () => sessions.clear();
  up.close = async () => {
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  };
  return up;
}

const target = (up: Upstream, overrides: Partial<McpHttpTarget> = {}): McpHttpTarget => ({
  connectionId: `conn-${randomUUID()}`,
  url: up.url,
  headers: { Authorization: `Bearer ${CANARY}` },
  credentialScope: "shared",
  privateUpstreams: [{ origin: new URL(up.url).origin }],
  timeoutMs: 5_000,
  ...overrides,
});

let pool: McpHttpPool;
const upstreams: Upstream[] = [];
const logged: string[] = [];
const start = async (opts?: Parameters<typeof startUpstream>[0]) => {
  const up = await startUpstream(opts);
  upstreams.push(up);
  return up;
};

beforeEach(() => {
  pool = new McpHttpPool();
  leanCallStats.calls = 0;
  leanCallStats.handedBack = 0;
  logged.length = 0;
  for (const level of ["log", "info", "warn", "error"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    });
  }
});

afterEach(async () => {
  await pool.closeAll();
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
  delete process.env.PAPERCLIP_LEAN_UPSTREAM_CALL;
  expect(logged.join("\n")).not.toContain(CANARY);
  vi.restoreAllMocks();
});

const toolCalls = (up: Upstream) => up.seen.posts.filter((p) => p.method === "tools/call");

describe("the lean upstream tools/call", () => {
  for (const json of [false, true]) {
    it(`answers plain calls with the session's headers (${json ? "JSON" : "SSE"} replies)`, async () => {
      const up = await start({ json });
      const t = target(up);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => pool.callTool(t, "echo", { text: `n${i}` })),
      );
      expect(results.map((r) => (r.result.content as { text: string }[])[0]!.text)).toEqual(
        Array.from({ length: 10 }, (_, i) => `n${i}`),
      );
      expect(leanCallStats.calls).toBe(10);
      const calls = toolCalls(up);
      expect(calls).toHaveLength(10);
      const init = up.seen.posts.find((p) => p.method === "initialize")!;
      for (const c of calls) {
        expect(c.id).toMatch(/^paperclip-\d+$/);
        expect(c.headers.authorization).toBe(`Bearer ${CANARY}`);
        expect(c.headers["mcp-session-id"]).toBeTruthy();
        expect(c.headers["mcp-protocol-version"]).toBeTruthy();
        expect(c.headers.accept).toBe("application/json, text/event-stream");
        expect(init.headers.authorization).toBe(c.headers.authorization);
      }
      expect(up.executions.echo).toBe(10);
    });
  }

  it("forwards _meta and passes the upstream's JSON-RPC and tool errors as the SDK path does", async () => {
    const up = await start();
    const t = target(up);
    const meta = await pool.callTool(t, "meta", {}, { meta: { trace: "t-1" } });
    // The agent's `_meta`, plus the progress token the gateway always sends (issue 35, item 6).
    expect(JSON.parse((meta.result.content as { text: string }[])[0]!.text)).toEqual({
      trace: "t-1",
      progressToken: expect.stringMatching(/^paperclip-\d+$/),
    });
    const failed = await pool.callTool(t, "fails", {});
    expect(failed.result.isError).toBe(true);
    const leanUnknown = await pool.callTool(t, "no_such_tool", {});
    const lean = await rejection(pool.callTool(t, "rpc_error", {}));
    process.env.PAPERCLIP_LEAN_UPSTREAM_CALL = "off";
    const sdkUnknown = await pool.callTool(t, "no_such_tool", {});
    const sdk = await rejection(pool.callTool(t, "rpc_error", {}));
    expect(leanUnknown).toEqual(sdkUnknown);
    expect(lean.code).toBe("upstream_error");
    expect(lean.details?.mcpCode).toBe(ErrorCode.UrlElicitationRequired);
    expect({ ...lean.details, connectionId: null }).toEqual({ ...sdk.details, connectionId: null });
    expect(lean.message).toBe(sdk.message);
    expect(leanCallStats.calls).toBe(4);
  });

  it("hands a notification on the call's stream to the SDK client (list_changed listeners fire)", async () => {
    const up = await start();
    const t = target(up);
    const changed: string[] = [];
    pool.onToolsListChanged(t.connectionId, (id) => changed.push(id));
    const out = await pool.callTool(t, "chatty", {});
    expect((out.result.content as { text: string }[])[0]!.text).toBe("after a notification");
    await sleep(50);
    expect(changed).toEqual([t.connectionId]);
    expect(leanCallStats.calls).toBe(1);
  });

  it("times out with upstream_timeout and tells the upstream to cancel", async () => {
    const up = await start();
    const t = target(up);
    await pool.callTool(t, "echo", { text: "warm" });
    const err = await rejection(pool.callTool(t, "slow", {}, { timeoutMs: 300 }));
    expect(err.code).toBe("upstream_timeout");
    for (let i = 0; i < 40 && up.cancelled.length === 0; i++) await sleep(25);
    expect(up.cancelled).toHaveLength(1);
    expect(up.seen.posts.some((p) => p.method === "notifications/cancelled")).toBe(true);
    expect(up.executions.slow).toBe(1); // not retried
  });

  it("re-initializes once when the upstream forgot the session; the tool runs once", async () => {
    const up = await start();
    const t = target(up);
    await pool.callTool(t, "echo", { text: "warm" });
    up.forgetSessions();
    const out = await pool.callTool(t, "echo", { text: "again" });
    expect((out.result.content as { text: string }[])[0]!.text).toBe("again");
    expect(up.seen.posts.filter((p) => p.method === "initialize")).toHaveLength(2);
    expect(up.executions.echo).toBe(2);
    expect(logged.join("\n")).toContain('"reason":"session_expired"');
  });

  it("refuses a reply larger than the pool's response limit", async () => {
    const up = await start();
    const small = new McpHttpPool({ maxResponseBytes: 64 * 1024 });
    try {
      const t = target(up);
      const ok = await small.callTool(t, "big", { bytes: 1_000 });
      expect(ok.truncated).toBe(false);
      const err = await rejection(small.callTool(t, "big", { bytes: 200 * 1024 }));
      expect(err.code).toBe("upstream_too_large");
      // The pool still works afterwards.
      const again = await small.callTool(t, "echo", { text: "still fine" });
      expect((again.result.content as { text: string }[])[0]!.text).toBe("still fine");
    } finally {
      await small.closeAll();
    }
  });

  it("leaves a redirect to the SDK path, which follows it re-validated; the tool runs once", async () => {
    const up = await start({ redirectCalls: true });
    const t = target(up);
    const out = await pool.callTool(t, "echo", { text: "redirected" });
    expect((out.result.content as { text: string }[])[0]!.text).toBe("redirected");
    expect(leanCallStats.handedBack).toBe(1);
    expect(leanCallStats.calls).toBe(0);
    expect(up.executions.echo).toBe(1);
  });

  it("accepts only identity encoding and refuses a compressed reply instead of misreading it", async () => {
    const up = await start({ gzipCalls: true });
    const err = await rejection(pool.callTool(target(up), "echo", { text: "x" }));
    expect(err.code).toBe("upstream_error");
    expect(err.message).toContain("content encoding");
    expect(toolCalls(up)[0]!.headers["accept-encoding"]).toBe("identity");
  });

  it("refuses a reply of another media type, and an SSE reply that ends without the response", async () => {
    const text = await start({ oddCalls: "text" });
    const wrongType = await rejection(pool.callTool(target(text), "echo", { text: "x" }));
    expect(wrongType.code).toBe("upstream_error");
    expect(wrongType.message).toContain("Unexpected content type");
    const empty = await start({ oddCalls: "empty-sse" });
    const ended = await rejection(pool.callTool(target(empty), "echo", { text: "x" }));
    expect(ended.code).toBe("upstream_unreachable");
    // Neither was retried: the call may have run upstream.
    expect(toolCalls(text)).toHaveLength(1);
    expect(toolCalls(empty)).toHaveLength(1);
  });

  it("is not used with PAPERCLIP_LEAN_UPSTREAM_CALL=off or for a call with hooks", async () => {
    const up = await start();
    const t = target(up);
    process.env.PAPERCLIP_LEAN_UPSTREAM_CALL = "off";
    await pool.callTool(t, "echo", { text: "sdk" });
    delete process.env.PAPERCLIP_LEAN_UPSTREAM_CALL;
    await pool.callTool(t, "echo", { text: "hooked" }, { hooks: { onProgress: () => {} } });
    expect(leanCallStats.calls).toBe(0);
    expect(toolCalls(up).every((c) => typeof c.id === "number")).toBe(true);
    await pool.callTool(t, "echo", { text: "lean" });
    expect(leanCallStats.calls).toBe(1);
  });
});
