/**
 * Params checking for the legacy era of `/mcp/paperclip` (the SDK's `Server`, ./endpoint.ts).
 *
 * SDK 1.32 parses a request's params with zod inside its handler wrapper. A failure (`arguments`
 * a string, `name: 5`, no `params`, `tools/list {"cursor":{}}`) leaves as `-32603 Internal error`
 * with zod's issue dump as the message. JSON-RPC 2.0 §5.1 and docs/public-mcp.md call that
 * `-32602 Invalid params`. The SDK has no hook for it, so `guardLegacyParams` wraps each handler
 * the server registered. The wrapper checks params against the same SDK schema first and answers
 * `-32602` with one readable line. Batches go through the same handlers, so they are covered too.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * A JSON-RPC error with its code and message as the client should see them. The SDK answers any
 * thrown error carrying a numeric `code` with `{code, message}`. Unlike `McpError`, whose message
 * already starts with "MCP error -32602:", this one is not prefixed. An SDK client adds that
 * prefix itself, so it would show twice.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The SDK request schema of each method the legacy server answers. */
const SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
} as const;

interface Issue {
  path: PropertyKey[];
  message: string;
}

/** `invalid params for \`tools/call\`: \`params.arguments\` expected object, received string` */
export function paramsMessage(method: string, issues: readonly Issue[]): string {
  const first = issues[0];
  if (!first) return `invalid params for \`${method}\``;
  const where = first.path.map(String).join(".") || "params";
  // zod's wording, without its prefix; "record" is zod's name for a JSON object.
  const what = first.message.replace(/^Invalid input:\s*/i, "").replace(/\brecord\b/g, "object");
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `invalid params for \`${method}\`: \`${where}\` ${what}${more}`.slice(0, 500);
}

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Wraps the handlers `server` registered (call after every `setRequestHandler`), so that
 * malformed params are `-32602` with a readable message, never `-32603`.
 */
export function guardLegacyParams(server: Server): void {
  // INVARIANT: SDK 1.32 keeps its handlers in this private map (shared/protocol.js). If a new
  // SDK renames it, this throws at the first request, and the tests of bad-input.int.test.ts
  // fail. It never silently goes unguarded.
  const handlers = (server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error("MCP SDK: request handlers not found (SDK changed?)");
  for (const [method, schema] of Object.entries(SCHEMAS)) {
    const handler = handlers.get(method);
    if (!handler) continue;
    handlers.set(method, (request, extra) => {
      const parsed = schema.safeParse(request);
      if (!parsed.success)
        return Promise.reject(
          new RpcError(ErrorCode.InvalidParams, paramsMessage(method, parsed.error.issues)),
        );
      return handler(request, extra);
    });
  }
}
