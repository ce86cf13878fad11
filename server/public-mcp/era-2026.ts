/**
 * The stateless MCP 2026-07-28 ("modern") era of `POST /mcp/paperclip`, beside the SDK's
 * initialize-based transport for 2025-11-25 and earlier (./endpoint.ts). No handshake: every
 * request carries its protocol version and client capabilities in `params._meta`, and the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers mirror the body. The same tool
 * surface as the legacy era (`listTools`/`callTool` from ./tools.ts).
 *
 * Followed (docs/public-mcp.md, "Protocol versions"): the specification's 2026-07-28 pages
 * (basic/index.mdx `_meta` and error codes, basic/versioning.mdx, basic/transports/
 * streamable-http.mdx "Request Metadata", server/discover.mdx, schema.ts) and the TypeScript
 * SDK's validation ladder (core-internal/src/shared/inboundClassification.ts), in its order:
 * JSON-RPC shape → era → envelope → header/body cross-checks → supported version → required
 * headers → method.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { EventsError, handleEventsMethod } from "../events/protocol";
import { logError } from "../log";
import { SERVER_INFO } from "./identity";
import type { McpSession } from "./registry";
import { callTool, listTools, UnknownTool } from "./tools";

/** The modern revisions served here; a version at or after the first one is "modern". */
export const MODERN_VERSIONS = ["2026-07-28"] as const;
const FIRST_MODERN = MODERN_VERSIONS[0];
/** Served by the SDK transport (initialize handshake). */
export const LEGACY_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
/** What `server/discover` and UnsupportedProtocolVersion list: both eras, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

/** JSON-RPC codes of the 2026-07-28 schema (basic/index.mdx, "Error Codes"), and the standard ones. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  headerMismatch: -32020,
  unsupportedProtocolVersion: -32022,
} as const;

/** How long a client may reuse a `tools/list` or `server/discover` result (CacheableResult). */
const TTL_MS = 5 * 60 * 1000;

type Id = string | number | null;
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);
const isModern = (version: string) => version >= FIRST_MODERN;

function rpcError(status: number, id: Id, code: number, message: string, data?: unknown): Response {
  return Response.json(
    { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } },
    { status, headers: { "cache-control": "no-store" } },
  );
}

const mismatch = (id: Id, message: string) =>
  rpcError(400, id, RPC.headerMismatch, `header mismatch: ${message}`);

const unsupported = (id: Id, requested: string) =>
  rpcError(
    400,
    id,
    RPC.unsupportedProtocolVersion,
    `unsupported protocol version \`${requested}\` (supported versions: ${SUPPORTED_VERSIONS.join(", ")})`,
    { supported: [...SUPPORTED_VERSIONS], requested },
  );

/** The request's `_meta`, when it claims the per-request envelope (carries the version key). */
function envelopeOf(message: Json): Json | null {
  const meta = isObject(message.params) ? message.params._meta : undefined;
  return isObject(meta) && VERSION_KEY in meta ? meta : null;
}

/** The first problem of a claimed envelope: the version and capabilities are required. */
function envelopeProblem(meta: Json): string | null {
  if (typeof meta[VERSION_KEY] !== "string") return `\`${VERSION_KEY}\` must be a string`;
  if (!isObject(meta[CAPABILITIES_KEY])) return `\`${CAPABILITIES_KEY}\` is required (an object)`;
  const info = meta[CLIENT_INFO_KEY];
  if (
    info !== undefined &&
    !(isObject(info) && typeof info.name === "string" && typeof info.version === "string")
  )
    return `\`${CLIENT_INFO_KEY}\` must have a string name and version`;
  return null;
}

/**
 * An `Mcp-Name` value: plain, or the `=?base64?…?=` sentinel for values that are not plain
 * ASCII (streamable-http.mdx, "Value Encoding"). `undefined` for a malformed sentinel.
 */
export function decodeHeaderValue(value: string): string | undefined {
  const m = /^=\?base64\?(.*)\?=$/s.exec(value);
  if (!m) return value;
  const b64 = m[1]!;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(b64, "base64"));
  } catch {
    return undefined;
  }
}

/** A modern result: `resultType` and the server's identity in `_meta` (both required/SHOULD). */
function complete(id: Id, result: Json): Response {
  const meta = isObject(result._meta) ? result._meta : {};
  return Response.json(
    {
      jsonrpc: "2.0",
      id,
      result: { ...result, resultType: "complete", _meta: { ...meta, [SERVER_INFO_KEY]: SERVER_INFO } },
    },
    { headers: { "cache-control": "no-store" } },
  );
}

/** Modern-era dispatch of one request that passed the ladder. */
async function dispatch(id: Id, method: string, params: Json, session: () => Modern): Promise<Response> {
  switch (method) {
    case "server/discover": {
      const { instructions } = session();
      return complete(id, {
        supportedVersions: [...SUPPORTED_VERSIONS],
        // MCP Events: three task events with webhook delivery (server/events, docs "Events").
        capabilities: { tools: {}, events: {} },
        instructions,
        // Private: the instructions name the connection's person and company.
        ttlMs: TTL_MS,
        cacheScope: "private",
      });
    }
    case "tools/list":
      return complete(id, { tools: listTools(), ttlMs: TTL_MS, cacheScope: "private" });
    case "tools/call": {
      if (typeof params.name !== "string" || (params.arguments !== undefined && !isObject(params.arguments)))
        return rpcError(
          200,
          id,
          RPC.invalidParams,
          "tools/call needs a string `name` and object `arguments`",
        );
      try {
        const result = await callTool(session().session, params.name, params.arguments ?? {});
        return complete(id, result as Json);
      } catch (err) {
        // As in the legacy era (and on the agent gateway): an unknown tool is -32602, in-band.
        if (err instanceof UnknownTool)
          return rpcError(
            200,
            id,
            RPC.invalidParams,
            "Unknown tool: no tool of this name is available to this connection",
          );
        throw err;
      }
    }
    case "events/list":
    case "events/subscribe":
    case "events/unsubscribe":
      try {
        return complete(id, await handleEventsMethod(method, params, () => session().session));
      } catch (err) {
        if (err instanceof EventsError)
          return rpcError(200, id, err.rpcCode, err.message, { code: err.code, ...err.data });
        throw err;
      }
    default:
      // streamable-http.mdx: a method the server does not implement is 404 with -32601
      // (`initialize` and `ping` included: 2026-07-28 removed both).
      return rpcError(404, id, RPC.methodNotFound, `method \`${method.slice(0, 100)}\` is not available`);
  }
}

/** What the dispatcher needs from the endpoint, built only once a request passed the ladder. */
export interface Modern {
  session: McpSession;
  instructions: string;
}

/**
 * Serves `text` (the bounded, depth-checked body) if it is modern-era traffic: its
 * `MCP-Protocol-Version` header names 2026-07-28 or later, or its `params._meta` claims the
 * per-request envelope. `null` hands legacy traffic to the SDK transport unchanged.
 */
export async function serveModernEra(
  request: Request,
  text: string,
  modern: () => Modern,
): Promise<Response | null> {
  const header = request.headers.get("mcp-protocol-version");
  const headerModern = header !== null && isModern(header);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return headerModern ? rpcError(400, null, RPC.parseError, "the body is not JSON") : null;
  }
  // Batches: every 2026-07-28 message is its own POST; a batch with a modern element is refused.
  if (Array.isArray(body)) {
    const modernElement = body.some((m) => isObject(m) && envelopeOf(m));
    return headerModern || modernElement
      ? rpcError(400, null, RPC.invalidRequest, "JSON-RPC batches are not part of protocol 2026-07-28")
      : null;
  }
  if (!isObject(body))
    return headerModern ? rpcError(400, null, RPC.invalidRequest, "not a JSON-RPC message") : null;
  const envelope = envelopeOf(body);
  const id: Id = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
  const method = typeof body.method === "string" ? body.method : null;
  const isRequest = method !== null && "id" in body;

  // `initialize` is the legacy handshake unless it carries a valid modern envelope (then the
  // modern era answers it as an unknown method); with a modern header it is contradictory.
  const modernClaim =
    envelope !== null && !envelopeProblem(envelope) && isModern(envelope[VERSION_KEY] as string);
  if (method === "initialize" && !modernClaim)
    return headerModern
      ? mismatch(
          id,
          `an initialize request (the legacy handshake) was sent with MCP-Protocol-Version \`${header}\`; send initialize with a legacy version (${LEGACY_VERSIONS.join(", ")}) or omit it for 2026-07-28`,
        )
      : null;
  if (envelope === null && !headerModern) {
    // Legacy traffic; a version header neither era serves is refused in the modern shape, so
    // a dual-era client learns the supported versions (versioning.mdx).
    if (header !== null && !LEGACY_VERSIONS.includes(header)) return unsupported(id, header);
    return null;
  }

  // MCP request ids are strings or numbers (a null or object id is not a request).
  if (method === null || (isRequest && id === null))
    return rpcError(400, id, RPC.invalidRequest, "not a JSON-RPC request or notification");
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
    return rpcError(415, id, RPC.invalidRequest, "Content-Type must be application/json");

  // The envelope (basic/index.mdx: a request missing a required field is -32602 on HTTP 400).
  if (envelope === null) {
    if (isRequest)
      return rpcError(
        400,
        id,
        RPC.invalidParams,
        `MCP-Protocol-Version \`${header}\` needs \`params._meta\` with \`${VERSION_KEY}\` and \`${CAPABILITIES_KEY}\``,
        { envelope: { missing: [VERSION_KEY, CAPABILITIES_KEY] } },
      );
  } else {
    const problem = envelopeProblem(envelope);
    if (problem && (isRequest || typeof envelope[VERSION_KEY] !== "string"))
      return rpcError(400, id, RPC.invalidParams, `invalid \`params._meta\`: ${problem}`);
  }
  const version = envelope ? (envelope[VERSION_KEY] as string) : header!;
  // Header/body cross-checks (streamable-http.mdx, "Server Validation").
  if (header !== null && header !== version)
    return mismatch(id, `MCP-Protocol-Version \`${header}\` does not match the body's \`${version}\``);
  const methodHeader = request.headers.get("mcp-method");
  if (methodHeader !== null && methodHeader !== method)
    return mismatch(id, `Mcp-Method \`${methodHeader}\` does not match the body's \`${method}\``);
  if (!(MODERN_VERSIONS as readonly string[]).includes(version)) return unsupported(id, version);

  // A notification is accepted and dropped: 2026-07-28 defines none over Streamable HTTP.
  if (!isRequest) return new Response(null, { status: 202 });

  // The required headers (the spec names MCP-Protocol-Version, Mcp-Method, Mcp-Name in order).
  if (header === null) return mismatch(id, "the MCP-Protocol-Version header is required");
  if (methodHeader === null) return mismatch(id, "the Mcp-Method header is required");
  const params = isObject(body.params) ? body.params : {};
  if (method === "tools/call" && typeof params.name === "string") {
    const nameHeader = request.headers.get("mcp-name");
    if (nameHeader === null) return mismatch(id, "the Mcp-Name header is required for tools/call");
    const name = decodeHeaderValue(nameHeader);
    if (name === undefined) return mismatch(id, "the Mcp-Name header holds a malformed base64 value");
    if (name !== params.name)
      return mismatch(id, `Mcp-Name \`${nameHeader.slice(0, 100)}\` does not match the body's tool name`);
  }

  try {
    return await dispatch(id, method, params, modern);
  } catch (err) {
    // Only the method: never the body, headers or token.
    logError("public_mcp.modern_unhandled", err, { method });
    return rpcError(500, id, RPC.internalError, "internal error");
  }
}
