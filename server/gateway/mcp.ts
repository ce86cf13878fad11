import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  JSONRPCRequestSchema,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { jsonTextDepth, MAX_BODY_DEPTH } from "../contracts/json-shape";
import { BREAKER_HEADER, databaseBreaker, databaseUnavailableFor, probeOf } from "../database/breaker";
import { databaseFailureOf } from "../database/unavailable";
import { isServiceError, notFound, type ServiceError } from "../errors";
import { ERRORS } from "../errors/codes";
import { drainingError, isDraining } from "../lifecycle/drain";
import { logError } from "../log";
import { readBoundedText } from "../net/read-bounded";
import { artifactReadRequest, readArtifact } from "./artifacts";
import { authenticateGatewayRequest, currentGatewayDb, type GatewayRequestHead } from "./http";
import { openChangeStream } from "./list-changes";
import { rpcErrorBody } from "./mcp-errors";
import { isRawJson, type McpMethodContext } from "./mcp-methods";
import { auditRpcRefusal, buildGatewayServer, GATEWAY_METHODS, methodFor } from "./mcp-server";
import { sessionCapabilities } from "./mcp-visible";
import { type GatewayScope, gatewayMcpScope } from "./path";
import { handleInbound, type InboundAnswer, mayBeInbound } from "./relay/inbound";
import { recordGatewayRefusal, verifiedGatewayContext } from "./sessions";
import { changeStreamSlots } from "./stream-caps";
import { streamToolCall, wantsStream } from "./streams";

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
  /** Aborted when the client goes away (the Next.js adapter: a streamed answer is then cancelled). */
  signal?: AbortSignal;
}

export interface GatewayMcpResponse {
  status: number;
  headers: Record<string, string>;
  /** A stream: a call answered with SSE (`streams.ts`); the HTTP server pipes it and cancels it on disconnect. */
  body: string | Buffer | ReadableStream<Uint8Array> | null;
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

function jsonRpcError(id: string | number, err: unknown): GatewayMcpResponse {
  return {
    status: 200,
    headers: { ...BASE_HEADERS, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id, error: rpcErrorBody(err) }),
  };
}

/**
 * A JSON-RPC request for a method the gateway serves (`mcp-server.ts`), one per POST, answered
 * without building an SDK server and transport per request. Anything else, or anything the
 * SDK transport would refuse (headers, protocol version, malformed messages, batches,
 * notifications, a method this session is not offered), returns null and takes the SDK path,
 * so the protocol's edge cases have one implementation. Both paths call the same handlers.
 */
/**
 * Whether the body is one JSON-RPC `tools/call` or `tools/list` request (not a batch, not
 * anything else): the only requests that may be answered on a cached session, because their
 * first write verifies it (the call's ledger row, the listing's `discovery` event). Bodies that
 * do not even mention either method are not parsed.
 */
function mayUseCachedSession(body: string): boolean {
  if (!body.includes('"tools/call"') && !body.includes('"tools/list"')) return false;
  try {
    const message: unknown = JSON.parse(body);
    if (message === null || typeof message !== "object" || Array.isArray(message) || !("id" in message))
      return false;
    const method = (message as { method?: unknown }).method;
    return method === "tools/call" || method === "tools/list";
  } catch {
    return false;
  }
}

async function fastPath(
  req: GatewayMcpRequest,
  ctx: McpMethodContext,
  caps: ServerCapabilities,
): Promise<GatewayMcpResponse | null> {
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
  const name = (message as { method?: unknown }).method;
  if (typeof name !== "string" || !Object.hasOwn(GATEWAY_METHODS, name)) return null;
  // The transport's own message validation (strict: integer or string id, no unknown keys),
  // so the fast path accepts exactly what the SDK path would.
  const request = JSONRPCRequestSchema.safeParse(message);
  if (!request.success) return null;
  const id = request.data.id;
  const method = methodFor(name, caps);
  if (!method) return null;
  const meta = (request.data.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (name === "tools/call" && wantsStream(ctx.gw, meta)) {
    // A relayed (streamed) call registers itself under the session first: verified first.
    ctx.gw = await verifiedGatewayContext(ctx.gw);
    return streamToolCall(
      ctx.db,
      ctx.gw,
      id,
      meta,
      (live) => method.handle({ ...ctx, live }, request.data.params),
      async (err) => {
        await auditRpcRefusal(ctx, err);
        return rpcErrorBody(err);
      },
      BASE_HEADERS,
      req.signal,
    );
  }
  try {
    const out = await method.handle(ctx, request.data.params);
    return jsonRpcResponse(id, isRawJson(out) ? out.raw : JSON.stringify(out));
  } catch (err) {
    // The database's failure is the endpoint's answer (503), not a JSON-RPC error; so is a
    // cached session found dead by the call's ledger write (401, as authentication answers).
    // So is a call refused because this server drains (503 `server_draining`: retry elsewhere).
    if (
      databaseFailureOf(err) ||
      (isServiceError(err) && (err.code === "session_invalid" || err.code === "server_draining"))
    )
      throw err;
    await auditRpcRefusal(ctx, err);
    return jsonRpcError(id, err);
  }
}

async function sdkPath(
  req: GatewayMcpRequest,
  ctx: McpMethodContext,
  caps: ServerCapabilities,
): Promise<GatewayMcpResponse> {
  // The SDK path serves anything: never on an unverified (cached) session.
  ctx.gw = await verifiedGatewayContext(ctx.gw);
  const gw = ctx.gw;
  const server = buildGatewayServer(ctx, caps);
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
 * `/api/tool-gateway/mcp` (tools named `<slug>__<tool>`) and `/api/tool-gateway/mcp/apps/<slug>`
 * (one application, upstream names): MCP over Streamable HTTP in stateless mode (each POST carries its
 * own authentication and is answered for that session alone), so any replica can answer any
 * request and no MCP session state lives in process memory. Served by the Next.js route and
 * by the node listener in front of it (`server/gateway/node.ts`), which share this function.
 */
export async function serveGatewayMcp(req: GatewayMcpRequest): Promise<GatewayMcpResponse> {
  try {
    if (req.method === "DELETE") return { status: 204, headers: { ...BASE_HEADERS }, body: null };
    // Draining (SIGTERM): no new request, no new stream; only what in-flight calls may still
    // need passes (an answer to a relayed request, a cancellation). Decided before anything
    // is read or written; the governed call checks again (`trackCall`).
    if (
      isDraining() &&
      (req.method !== "POST" || !mayBeInbound(req.body) || req.body.includes('"initialize"'))
    )
      throw drainingError();
    if (req.method === "GET" && req.headers.get("accept")?.includes("text/event-stream")) {
      databaseBreaker().admit();
      // The session's change stream: list_changed notifications (list-changes.ts).
      const scope = endpointScope(req.url);
      const gw = await authenticateGatewayRequest(currentGatewayDb(), req);
      const ctx: McpMethodContext = { db: currentGatewayDb(), gw, scope };
      await endpointCapabilities(ctx); // a per-application path of an unknown application is 404
      // At most 2 per session and 1000 per process (stream-caps.ts); a refusal is audited.
      try {
        return await changeStreamSlots.within(gw.sessionId, () =>
          openChangeStream(ctx, BASE_HEADERS, req.signal),
        );
      } catch (err) {
        if (
          isServiceError(err) &&
          (err.code === "change_streams_limit" || err.code === "change_streams_full")
        )
          await recordGatewayRefusal(currentGatewayDb(), gw, err.code);
        throw err;
      }
    }
    if (req.method !== "POST") {
      return jsonError(
        405,
        "method_not_allowed",
        "this endpoint takes JSON-RPC over POST (GET: an event stream)",
        {
          allow: "GET, POST",
        },
      );
    }
    // While the database is down, answer at once without touching the pool.
    databaseBreaker().admit();
    const scope = endpointScope(req.url);
    // A single tools/call or tools/list may run on a cached session, verified by its first write.
    let gw = await authenticateGatewayRequest(currentGatewayDb(), req, {
      cachedSession: mayUseCachedSession(req.body),
    });
    const ctx: McpMethodContext = { db: currentGatewayDb(), gw, scope };
    // The endpoint is checked before anything else is served on it (relay answers, artifact
    // reads, logging/setLevel): a per-application path of an unknown application is 404.
    const caps = withListChanged(await endpointCapabilities(ctx));
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
    if (mayBeInbound(req.body)) {
      gw = ctx.gw = await verifiedGatewayContext(gw);
      const answer = await handleInbound(ctx.db, gw, req.body);
      if (answer) return inboundResponse(answer);
    }
    const artifact = artifactReadRequest(req.body);
    if (artifact) {
      try {
        return jsonRpcResponse(artifact.id, JSON.stringify(await readArtifact(ctx.db, gw, artifact.uri)));
      } catch (err) {
        if (databaseFailureOf(err)) throw err;
        return jsonRpcError(artifact.id, err);
      }
    }
    return (await fastPath(req, ctx, caps)) ?? (await sdkPath(req, ctx, caps));
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

/**
 * The endpoint a path names: the combined one or one application's. The Next.js route
 * `…/mcp/apps/[slug]` matches any segment, so a malformed slug is refused here (404, as the
 * node listener refuses the path) instead of being served as the combined endpoint.
 */
function endpointScope(url: string): GatewayScope {
  const scope = gatewayMcpScope(new URL(url, "http://localhost").pathname);
  if (!scope) throw notFound("endpoint");
  return scope;
}

/**
 * The session's capabilities on this endpoint; an unknown or archived application is 404,
 * audited. `logging`: the session's `logging/setLevel` is kept (relay/inbound.ts);
 * `listChanged`: a GET stream is told when the visible set changes (list-changes.ts).
 */
async function endpointCapabilities(ctx: McpMethodContext): Promise<ServerCapabilities> {
  try {
    return await sessionCapabilities(ctx);
  } catch (err) {
    if (isServiceError(err)) await recordGatewayRefusal(ctx.db, ctx.gw, err.code, "endpoint");
    throw err;
  }
}

/** `Retry-After` (and the breaker's state) on a `database_unavailable` or `server_draining` answer. */
function unavailableHeaders(err: ServiceError): Record<string, string> {
  if (err.code === "server_draining") return { "retry-after": "1", connection: "close" };
  if (err.code !== "database_unavailable") return {};
  const retry = Number(err.details?.retryAfterSeconds ?? 1);
  return { "retry-after": String(Math.max(1, Math.ceil(retry))), [BREAKER_HEADER]: databaseBreaker().state };
}

function withListChanged(caps: ServerCapabilities): ServerCapabilities {
  return {
    ...caps,
    tools: { ...caps.tools, listChanged: true },
    ...(caps.resources ? { resources: { ...caps.resources, subscribe: true, listChanged: true } } : {}),
    ...(caps.prompts ? { prompts: { ...caps.prompts, listChanged: true } } : {}),
    logging: {},
  };
}

function inboundResponse(answer: InboundAnswer): GatewayMcpResponse {
  if (answer.kind === "accepted") return { status: 202, headers: { ...BASE_HEADERS }, body: null };
  if (answer.kind === "gone")
    return jsonError(
      ERRORS.relay_call_gone.status,
      "relay_call_gone",
      "the call that sent this request is gone (its server stopped); the answer was not delivered — retry the tool call",
    );
  const body =
    answer.kind === "result"
      ? { jsonrpc: "2.0", id: answer.id, result: answer.result }
      : { jsonrpc: "2.0", id: answer.id, error: { code: answer.code, message: answer.message } };
  return {
    status: 200,
    headers: { ...BASE_HEADERS, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
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
          signal: request.signal,
        });
  const out =
    typeof res.body === "string" || res.body === null || res.body instanceof ReadableStream
      ? res.body
      : new Uint8Array(res.body);
  return new Response(out, { status: res.status, headers: res.headers });
}
