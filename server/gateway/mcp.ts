import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { jsonTextDepth, MAX_BODY_DEPTH } from "../contracts/json-shape";
import { BREAKER_HEADER, databaseBreaker, databaseUnavailableFor, probeOf } from "../database/breaker";
import { databaseFailureOf } from "../database/unavailable";
import { isServiceError, type ServiceError } from "../errors";
import { logError } from "../log";
import { readBoundedText } from "../net/read-bounded";
import { gatewayCallTool } from "./call-tool";
import { authenticateGatewayRequest, currentGatewayDb, type GatewayRequestHead } from "./http";
import { gatewayListTools, gatewayListToolsJson } from "./list-tools";
import { mcpToolResult } from "./outcome";
import { type GatewayContext, recordGatewayRefusal } from "./sessions";

/** The largest JSON-RPC body the endpoint reads (larger: 413, nothing is parsed). */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** The deepest JSON-RPC message read: the body bound plus the envelope around the arguments. */
export const MAX_MCP_DEPTH = MAX_BODY_DEPTH + 4;

/** A request to the MCP endpoint, independent of the HTTP server that received it. */
export interface GatewayMcpRequest extends GatewayRequestHead {
  method: string;
  /** The body as text, already bounded by `MAX_MCP_BODY_BYTES` by the caller. */
  body: string;
  /** The same request as a Web `Request`, for the SDK transport (built only when needed). */
  toRequest: () => Request;
}

export interface GatewayMcpResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | null;
}

const BASE_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

function jsonError(
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
): GatewayMcpResponse {
  return {
    status,
    headers: { ...BASE_HEADERS, "content-type": "application/json", ...extra },
    body: JSON.stringify({ error: { code, message } }),
  };
}

const sharedValidator = new AjvJsonSchemaValidator();

async function callTool(
  gw: GatewayContext,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
): Promise<CallToolResult> {
  const meta = params._meta ?? {};
  const outcome = await gatewayCallTool(currentGatewayDb(), gw, {
    tool: params.name,
    arguments: params.arguments ?? {},
    idempotencyKey: typeof meta.idempotencyKey === "string" ? meta.idempotencyKey.slice(0, 200) : undefined,
    approvedActionRequestId:
      typeof meta.approvedActionRequestId === "string" ? meta.approvedActionRequestId : undefined,
  });
  return mcpToolResult(outcome);
}

/**
 * What an unexpected failure inside a handler tells the agent: a request id to quote, never
 * the error itself (it may hold SQL, hostnames or upstream text). Service errors keep their
 * message, which is written for callers.
 */
function internalFailure(err: unknown): Error {
  if (isServiceError(err)) return err;
  const requestId = randomUUID();
  logError("gateway.mcp_handler_failed", err, { requestId });
  return new Error(`internal error (request ${requestId})`);
}

function buildServer(gw: GatewayContext): Server {
  const server = new Server(
    { name: "paperclip-gateway", version: "1.0.0" },
    {
      capabilities: { tools: {} },
      // One validator for every request: the SDK would otherwise build a new Ajv per server.
      jsonSchemaValidator: sharedValidator,
      instructions:
        "Tools from Paperclip's governed gateway. Every call is checked against your profile and policies and recorded. A refused call returns isError with a `code` in structuredContent.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      return { tools: await gatewayListTools(currentGatewayDb(), gw) };
    } catch (err) {
      throw internalFailure(err);
    }
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      return await callTool(gw, req.params as Parameters<typeof callTool>[1]);
    } catch (err) {
      throw internalFailure(err);
    }
  });
  return server;
}

/** `application/json`, parameters ignored (the SDK transport's rule). */
function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === "application/json";
}

function jsonRpcResponse(id: string | number, resultJson: string | Buffer): GatewayMcpResponse {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  return {
    status: 200,
    headers: { ...BASE_HEADERS, "content-type": "application/json" },
    // A memoised result (a large tools/list) is copied as bytes, not re-encoded.
    body:
      typeof resultJson === "string"
        ? `${head}${resultJson}}`
        : Buffer.concat([Buffer.from(head), resultJson, Buffer.from("}")]),
  };
}

function jsonRpcError(id: string | number, err: Error): GatewayMcpResponse {
  return {
    status: 200,
    headers: { ...BASE_HEADERS, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: err.message } }),
  };
}

/**
 * The two requests agents send all the time — `tools/call` and `tools/list`, one JSON-RPC
 * request per POST — answered without building an SDK server and transport per request.
 * Anything else, or anything the SDK transport would refuse (headers, protocol version,
 * malformed messages, batches, notifications), returns null and takes the SDK path, so the
 * protocol's edge cases have one implementation. The answers are the ones the SDK path gives.
 */
async function fastPath(req: GatewayMcpRequest, gw: GatewayContext): Promise<GatewayMcpResponse | null> {
  const accept = req.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return null;
  if (!isJsonContentType(req.headers.get("content-type"))) return null;
  const version = req.headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  let message: unknown;
  try {
    message = JSON.parse(req.body);
  } catch {
    return null;
  }
  if (!message || typeof message !== "object" || Array.isArray(message)) return null;
  const m = message as { method?: unknown };
  if (m.method !== "tools/list" && m.method !== "tools/call") return null;
  // The transport's own message validation (strict: integer or string id, no unknown keys),
  // so the fast path accepts exactly what the SDK path would.
  const request = JSONRPCRequestSchema.safeParse(message);
  if (!request.success) return null;
  const id = request.data.id;
  if (m.method === "tools/list") {
    if (!ListToolsRequestSchema.safeParse(message).success) return invalidParams(gw);
    try {
      return jsonRpcResponse(id, await gatewayListToolsJson(currentGatewayDb(), gw));
    } catch (err) {
      // The database's failure is the endpoint's answer (503), not a JSON-RPC error.
      if (databaseFailureOf(err)) throw err;
      return jsonRpcError(id, internalFailure(err));
    }
  }
  if (m.method === "tools/call") {
    const parsed = CallToolRequestSchema.safeParse(message);
    if (!parsed.success) return invalidParams(gw);
    try {
      const result = await callTool(gw, parsed.data.params as Parameters<typeof callTool>[1]);
      return jsonRpcResponse(id, JSON.stringify(result));
    } catch (err) {
      if (databaseFailureOf(err)) throw err;
      return jsonRpcError(id, internalFailure(err));
    }
  }
  return null;
}

/**
 * A well-formed JSON-RPC request whose params the schema refuses: audited, then answered by
 * the SDK path (which words the JSON-RPC error), so both paths still give the same answer.
 */
async function invalidParams(gw: GatewayContext): Promise<null> {
  await recordGatewayRefusal(currentGatewayDb(), gw, "request_malformed", "invalid_params");
  return null;
}

async function sdkPath(req: GatewayMcpRequest, gw: GatewayContext): Promise<GatewayMcpResponse> {
  const server = buildServer(gw);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
  });
  await server.connect(transport);
  const response = await transport.handleRequest(req.toRequest());
  // The transport refused the request itself (unparseable JSON, headers, protocol version…).
  if (response.status >= 400)
    await recordGatewayRefusal(currentGatewayDb(), gw, "request_malformed", `http_${response.status}`);
  void server.close().catch(() => {});
  const headers: Record<string, string> = { ...BASE_HEADERS };
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { status: response.status, headers, body: response.status === 202 ? null : await response.text() };
}

/**
 * `/api/tool-gateway/mcp`: MCP over Streamable HTTP in stateless mode (each POST carries its
 * own authentication and is answered for that session alone), so any replica can answer any
 * request and no MCP session state lives in process memory. Served by the Next.js route and
 * by the node listener in front of it (`server/gateway/node.ts`), which share this function.
 */
export async function serveGatewayMcp(req: GatewayMcpRequest): Promise<GatewayMcpResponse> {
  try {
    if (req.method === "DELETE") return { status: 204, headers: { ...BASE_HEADERS }, body: null };
    if (req.method !== "POST") {
      // No server-initiated stream in stateless mode.
      return jsonError(405, "method_not_allowed", "this endpoint takes JSON-RPC over POST", {
        allow: "POST",
      });
    }
    // While the database is down, answer at once without touching the pool.
    databaseBreaker().admit();
    const gw = await authenticateGatewayRequest(currentGatewayDb(), req);
    if (jsonTextDepth(req.body, MAX_MCP_DEPTH) > MAX_MCP_DEPTH) {
      // Bounded before anything parses or walks it (arguments sit 3 levels down).
      await recordGatewayRefusal(currentGatewayDb(), gw, "request_malformed", "too_deep");
      return {
        status: 400,
        headers: { ...BASE_HEADERS, "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: `the request nests deeper than ${MAX_MCP_DEPTH} levels` },
        }),
      };
    }
    return (await fastPath(req, gw)) ?? (await sdkPath(req, gw));
  } catch (caught) {
    const err = isServiceError(caught)
      ? caught
      : (databaseUnavailableFor(caught, probeOf(currentGatewayDb())) ?? caught);
    if (isServiceError(err)) {
      return jsonError(err.status, err.code, err.message, {
        ...(err.status === 401 ? { "www-authenticate": 'Bearer realm="paperclip-gateway"' } : {}),
        ...unavailableHeaders(err),
      });
    }
    const requestId = randomUUID();
    logError("gateway.mcp_unhandled", caught, { requestId });
    return jsonError(500, "internal_error", `internal error (request ${requestId})`);
  }
}

/** `Retry-After` and the breaker's state on a `database_unavailable` answer. */
function unavailableHeaders(err: ServiceError): Record<string, string> {
  if (err.code !== "database_unavailable") return {};
  const retry = Number(err.details?.retryAfterSeconds ?? 1);
  return { "retry-after": String(Math.max(1, Math.ceil(retry))), [BREAKER_HEADER]: databaseBreaker().state };
}

/** The Next.js route handler's adapter (plain `next start` replicas serve the endpoint this way). */
export async function handleGatewayMcp(request: Request): Promise<Response> {
  const body = request.method === "POST" ? await readBoundedText(request, MAX_MCP_BODY_BYTES) : "";
  const res =
    body === null
      ? jsonError(413, "payload_too_large", `request body exceeds ${MAX_MCP_BODY_BYTES} bytes`)
      : await serveGatewayMcp({
          method: request.method,
          url: request.url,
          headers: request.headers,
          body,
          toRequest: () =>
            new Request(request.url, { method: request.method, headers: request.headers, body }),
        });
  const out = typeof res.body === "string" || res.body === null ? res.body : new Uint8Array(res.body);
  return new Response(out, { status: res.status, headers: res.headers });
}
