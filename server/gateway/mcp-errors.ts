import { randomUUID } from "node:crypto";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { isServiceError } from "../errors";
import { logError } from "../log";

/**
 * A JSON-RPC error the gateway answers with. The SDK serialises any thrown error by its numeric
 * `code`, `message` and `data` (shared/protocol.js `_onrequest`), and the fast path writes the
 * same three fields, so both paths give one answer. Unlike the SDK's `McpError`, the message is
 * not prefixed with "MCP error <code>:".
 */
export class GatewayRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The request was malformed (audited as `request_malformed`); a refusal on the ledger is not. */
    readonly malformed = false,
  ) {
    super(message);
    this.name = "GatewayRpcError";
  }
}

/** A caller's name echoed in a message: bounded and JSON-quoted (never raw control characters). */
export function quoted(value: unknown, max = 200): string {
  return JSON.stringify(typeof value === "string" ? value.slice(0, max) : String(value).slice(0, max));
}

/** `-32602`: the params are malformed; the message says what is wrong. */
export const invalidParams = (message: string): GatewayRpcError =>
  new GatewayRpcError(ErrorCode.InvalidParams, message, undefined, true);

/**
 * The one answer for a tool that does not exist and one this session may not see: the same
 * code and wording, so a direct call learns nothing about tools outside the profile.
 */
export const unknownTool = (): GatewayRpcError =>
  new GatewayRpcError(
    ErrorCode.InvalidParams,
    "Unknown tool: no tool of this name is available to this session",
  );

/**
 * The same for resources (by URI; -32002 is the specification's "Resource not found",
 * server/resources "Error Handling") and prompts (by name).
 */
export const unknownResource = (): GatewayRpcError =>
  new GatewayRpcError(-32002, "Resource not found: no resource of this URI is available to this session");
export const unknownPrompt = (): GatewayRpcError =>
  new GatewayRpcError(
    ErrorCode.InvalidParams,
    "Unknown prompt: no prompt of this name is available to this session",
  );

/**
 * What an unexpected failure inside a handler tells the agent: a request id to quote, never
 * the error itself (it may hold SQL, hostnames or upstream text). Service errors keep their
 * message, which is written for callers; JSON-RPC errors pass unchanged.
 */
export function internalFailure(err: unknown): Error {
  if (err instanceof GatewayRpcError) return err;
  if (isServiceError(err))
    return new GatewayRpcError(ErrorCode.InternalError, err.message, { code: err.code });
  const requestId = randomUUID();
  logError("gateway.mcp_handler_failed", err, { requestId });
  return new GatewayRpcError(ErrorCode.InternalError, `internal error (request ${requestId})`);
}

/** The `error` member of a JSON-RPC response for a failure (as the SDK would write it). */
export function rpcErrorBody(err: unknown): { code: number; message: string; data?: unknown } {
  const e = internalFailure(err) as GatewayRpcError;
  return { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
}
