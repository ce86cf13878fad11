/**
 * `POST /mcp/paperclip`: the public MCP endpoint, stateless Streamable HTTP with JSON
 * responses (no sessions, no SSE: GET → 405), in both protocol eras: MCP 2026-07-28 requests
 * (per-request `_meta`, ./era-2026.ts) and initialize-based ones up to 2025-11-25 (the SDK
 * transport). Behind the bearer gate; its first tool,
 * `paperclip_connection`, says who and where the connection acts; the rest of the surface is
 * the operation registry (./registry.ts, ./tools.ts).
 */

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import { jsonTextDepth, MAX_BODY_DEPTH } from "../contracts/json-shape";
import { drainingError, isDraining } from "../lifecycle/drain";
import { readBoundedText } from "../net/read-bounded";
import { publicMcpEnabled } from "../oauth/config";
import { authenticateBearer, MCP_CORS_HEADERS } from "./bearer";
import { serveModernEra } from "./era-2026";
import { instructionsFor, SERVER_INFO } from "./identity";
import { guardLegacyParams, RpcError } from "./legacy-params";
import type { McpSession } from "./registry";
import { sessionFor } from "./session";
import { callTool, listTools, UnknownTool } from "./tools";

export { sessionFor };

/** The deepest JSON-RPC message read: the body bound plus the envelope around the arguments. */
const MAX_DEPTH = MAX_BODY_DEPTH + 4;
const MAX_BODY = 1024 * 1024;

function buildServer(session: McpSession): Server {
  const { live } = session;
  const server = new Server(
    { ...SERVER_INFO },
    { capabilities: { tools: {} }, instructions: instructionsFor(live) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      return await callTool(session, req.params.name, req.params.arguments ?? {});
    } catch (err) {
      // As on the agent gateway (docs/gateway.md, JSON-RPC errors): an unknown tool is -32602.
      // Not McpError: its message starts with "MCP error -32602:", which clients add again.
      if (err instanceof UnknownTool)
        throw new RpcError(
          ErrorCode.InvalidParams,
          "Unknown tool: no tool of this name is available to this connection",
        );
      throw err;
    }
  });
  // Malformed params are -32602 with a readable message, never the SDK's -32603 (./legacy-params.ts).
  guardLegacyParams(server);
  return server;
}

const withCors = (response: Response): Response => {
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries(MCP_CORS_HEADERS)) headers.set(k, v);
  return new Response(response.body, { status: response.status, headers });
};

export function mcpPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...MCP_CORS_HEADERS,
      "access-control-allow-methods": "POST, GET, DELETE, OPTIONS",
      "access-control-allow-headers":
        "authorization, content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, last-event-id",
      "access-control-max-age": "600",
    },
  });
}

export async function handlePublicMcp(db: Db, request: Request, now: Date): Promise<Response> {
  // A draining server (SIGTERM) takes no new request: retry, another replica answers.
  if (isDraining())
    return withCors(
      Response.json(
        { error: { code: "server_draining", message: drainingError().message } },
        { status: 503, headers: { "cache-control": "no-store", "retry-after": "1" } },
      ),
    );
  if (!(await publicMcpEnabled(db)))
    return withCors(
      Response.json(
        {
          error: {
            code: "public_mcp_disabled",
            message:
              "assistant connections (MCP) are turned off on this instance; an instance administrator can enable them in Settings › Experimental",
          },
        },
        { status: 503, headers: { "cache-control": "no-store" } },
      ),
    );
  if (request.method !== "POST")
    return withCors(
      Response.json(
        {
          jsonrpc: "2.0",
          error: { code: -32000, message: "this endpoint is stateless: POST JSON-RPC only" },
          id: null,
        },
        { status: 405, headers: { allow: "POST" } },
      ),
    );
  const gate = await authenticateBearer(db, request, now);
  if (!gate.ok) return gate.response;
  // Read with the bound (a chunked body has no content-length) and its depth bounded before
  // anything parses or walks it, as on the agent gateway (server/gateway/mcp.ts).
  const text = await readBoundedText(request, MAX_BODY);
  if (text === null)
    return withCors(
      Response.json(
        { jsonrpc: "2.0", error: { code: -32600, message: "body too large" }, id: null },
        { status: 413 },
      ),
    );
  if (jsonTextDepth(text, MAX_DEPTH) > MAX_DEPTH)
    return withCors(
      Response.json(
        {
          jsonrpc: "2.0",
          error: { code: -32600, message: `the request nests deeper than ${MAX_DEPTH} levels` },
          id: null,
        },
        { status: 400 },
      ),
    );
  const session = () => sessionFor(db, gate.live, gate.actor.scopes, now);
  // MCP 2026-07-28 (stateless, per-request `_meta`) is served by ./era-2026.ts; legacy
  // initialize-based traffic (2025-11-25 and earlier) by the SDK transport below.
  const modern = await serveModernEra(request, text, () => ({
    session: session(),
    instructions: instructionsFor(gate.live),
  }));
  if (modern) return withCors(modern);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = buildServer(session());
  await server.connect(transport);
  try {
    // The body was consumed above: the transport gets the same request with the text read.
    return withCors(
      await transport.handleRequest(
        new Request(request.url, { method: "POST", headers: request.headers, body: text }),
      ),
    );
  } finally {
    void server.close();
  }
}
