import type { Db } from "@/db/client";
import { invalidParams } from "./mcp-errors";
import type { GatewayScope } from "./path";
import type { LiveCall } from "./relay/live";
import type { GatewayContext } from "./sessions";

/** What every MCP method handler is given: the session, the endpoint, the database. */
export interface McpMethodContext {
  db: Db;
  gw: GatewayContext;
  scope: GatewayScope;
  /** A `tools/call` answered on an SSE stream: what may be relayed during it (`streams.ts`). */
  live?: LiveCall;
}

/** A result already encoded as JSON (a memoised listing), copied as bytes into the response. */
export interface RawJson {
  raw: Buffer | string;
}
export const isRawJson = (v: unknown): v is RawJson =>
  v !== null && typeof v === "object" && "raw" in v && Object.keys(v).length === 1;

/** A capability family: a method is served only when the session's capabilities include it. */
export type McpFamily = "tools" | "resources" | "prompts" | "completions";

/**
 * One MCP request method the gateway serves. `handle` validates its own params (a readable
 * -32602 on malformed input, `mcp-errors.ts`) and throws `GatewayRpcError` for protocol
 * errors; both the fast path and the SDK path (`mcp.ts`) call the same function.
 */
export interface McpMethod {
  family: McpFamily;
  handle(ctx: McpMethodContext, params: unknown): Promise<unknown | RawJson>;
}

export type McpMethodTable = Record<string, McpMethod>;

/** `params` as an object (absent → `{}`); -32602 when it is anything else. */
export function paramsObject(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== "object" || Array.isArray(params)) throw invalidParams("params must be an object");
  return params as Record<string, unknown>;
}
