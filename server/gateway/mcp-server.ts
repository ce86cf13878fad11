import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { z } from "zod";
import { COMPLETION_METHODS } from "./mcp-completion";
import { GatewayRpcError, internalFailure } from "./mcp-errors";
import { isRawJson, type McpMethod, type McpMethodContext, type McpMethodTable } from "./mcp-methods";
import { PROMPT_METHODS } from "./mcp-prompts";
import { RESOURCE_METHODS } from "./mcp-resources";
import { TOOL_METHODS } from "./mcp-tools";
import { recordGatewayRefusal } from "./sessions";

/**
 * Every request method the gateway serves, one module per family. `mcp.ts` routes a request
 * here on both of its paths; a method whose family the session's capabilities do not include
 * is not served (-32601).
 */
export const GATEWAY_METHODS: McpMethodTable = {
  ...TOOL_METHODS,
  ...RESOURCE_METHODS,
  ...PROMPT_METHODS,
  ...COMPLETION_METHODS,
};

/** The method's handler if this session is offered its family. */
export function methodFor(method: string, caps: ServerCapabilities): McpMethod | null {
  const m = Object.hasOwn(GATEWAY_METHODS, method) ? GATEWAY_METHODS[method]! : null;
  return m && caps[m.family] ? m : null;
}

/** A request refused as malformed (-32602) is on the session's audit trail. */
export async function auditRpcRefusal(ctx: McpMethodContext, err: unknown): Promise<void> {
  if (err instanceof GatewayRpcError && err.malformed)
    await recordGatewayRefusal(ctx.db, ctx.gw, "request_malformed", "invalid_params");
}

export const GATEWAY_INSTRUCTIONS =
  "Tools, resources and prompts from Paperclip's governed gateway. Every call is checked against your profile and policies and recorded. A refused call returns isError with a `code` in structuredContent; an unknown tool is a -32602 error.";

// One validator for every request: the SDK would otherwise build a new Ajv per server.
const sharedValidator = new AjvJsonSchemaValidator();

/**
 * The SDK server for the requests the fast path does not take (initialize, ping,
 * notifications, batches): it registers the same handlers with a schema that accepts any
 * params, so validation — and its -32602 wording — is the handlers' own, never a zod dump.
 */
export function buildGatewayServer(ctx: McpMethodContext, caps: ServerCapabilities): Server {
  const server = new Server(
    { name: "paperclip-gateway", version: "1.0.0" },
    { capabilities: caps, jsonSchemaValidator: sharedValidator, instructions: GATEWAY_INSTRUCTIONS },
  );
  for (const [method, m] of Object.entries(GATEWAY_METHODS)) {
    if (!caps[m.family]) continue;
    const schema = z.looseObject({ method: z.literal(method), params: z.unknown().optional() });
    server.setRequestHandler(schema as never, async (req: { params?: unknown }) => {
      try {
        const out = await m.handle(ctx, req.params);
        return (isRawJson(out) ? JSON.parse(out.raw.toString()) : out) as never;
      } catch (err) {
        await auditRpcRefusal(ctx, err);
        throw internalFailure(err);
      }
    });
  }
  return server;
}
