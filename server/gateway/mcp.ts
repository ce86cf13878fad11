import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { isServiceError } from "../errors";
import { logError } from "../log";
import { gatewayCallTool } from "./call-tool";
import { authenticateGatewayRequest, currentGatewayDb } from "./http";
import { gatewayListTools } from "./list-tools";
import type { GatewayContext } from "./sessions";

function jsonError(
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
): Response {
  return Response.json(
    { error: { code, message } },
    { status, headers: { "cache-control": "no-store", ...extra } },
  );
}

const sharedValidator = new AjvJsonSchemaValidator();

function buildServer(gw: GatewayContext): Server {
  const db = currentGatewayDb();
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
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await gatewayListTools(db, gw) }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const meta = (req.params._meta ?? {}) as Record<string, unknown>;
    const outcome = await gatewayCallTool(db, gw, {
      tool: req.params.name,
      arguments: req.params.arguments ?? {},
      idempotencyKey: typeof meta.idempotencyKey === "string" ? meta.idempotencyKey.slice(0, 200) : undefined,
      approvedActionRequestId:
        typeof meta.approvedActionRequestId === "string" ? meta.approvedActionRequestId : undefined,
    });
    if (outcome.ok) {
      return {
        content: outcome.result.content as CallToolResult["content"],
        ...(outcome.result.structuredContent ? { structuredContent: outcome.result.structuredContent } : {}),
        ...(outcome.result.isError ? { isError: true } : {}),
        _meta: {
          invocationId: outcome.invocationId,
          replayed: outcome.replayed,
          ...(outcome.artifactId ? { artifactId: outcome.artifactId } : {}),
        },
      };
    }
    // A governed refusal is a tool result, not a protocol error: the model can read and react.
    const structured: Record<string, unknown> = { code: outcome.code, message: outcome.message };
    if (outcome.actionRequestId !== undefined) structured.actionRequestId = outcome.actionRequestId;
    if (outcome.retryAfterMs != null) structured.retryAfterMs = outcome.retryAfterMs;
    if (outcome.invocationId) structured.invocationId = outcome.invocationId;
    return {
      isError: true,
      content: [{ type: "text", text: `${outcome.code}: ${outcome.message}` }],
      structuredContent: structured,
    };
  });
  return server;
}

/**
 * `/api/tool-gateway/mcp`: MCP over Streamable HTTP in stateless mode (each POST carries its
 * own authentication and is served by a fresh server bound to that session), so any replica
 * can answer any request and no MCP session state lives in process memory.
 */
export async function handleGatewayMcp(request: Request): Promise<Response> {
  try {
    if (request.method === "GET") {
      // No server-initiated stream in stateless mode.
      return jsonError(405, "method_not_allowed", "this endpoint takes JSON-RPC over POST", {
        allow: "POST",
      });
    }
    if (request.method === "DELETE") return new Response(null, { status: 204 });
    const gw = await authenticateGatewayRequest(currentGatewayDb(), request);
    const server = buildServer(gw);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: 1024 * 1024,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    void server.close().catch(() => {});
    return response;
  } catch (err) {
    if (isServiceError(err)) {
      return jsonError(
        err.status,
        err.code,
        err.message,
        err.status === 401 ? { "www-authenticate": 'Bearer realm="paperclip-gateway"' } : {},
      );
    }
    const requestId = randomUUID();
    logError("gateway.mcp_unhandled", err, { requestId });
    return jsonError(500, "internal_error", `internal error (request ${requestId})`);
  }
}
