import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { compileSnapshot } from "../access/compile";
import { getAccessSnapshot } from "../access/snapshot";
import { cleanMeta } from "../catalog/surface";
import { gatewayCallTool } from "./call-tool";
import { refusalError } from "./govern-request";
import { gatewayListToolsJson } from "./list-tools";
import { listCursor } from "./mcp-cursor";
import { invalidParams, unknownTool } from "./mcp-errors";
import { type McpMethodContext, type McpMethodTable, paramsObject, type RawJson } from "./mcp-methods";
import { mcpToolResult } from "./outcome-adapters";

/** The qualified catalog name a tool name of this endpoint means (`<slug>__<tool>`). */
export function qualifiedToolName(ctx: McpMethodContext, name: string): string {
  return ctx.scope.app === null ? name : `${ctx.scope.app}__${name}`;
}

/**
 * The request `_meta` forwarded to the upstream: at most 4 KiB, without the keys the gateway
 * owns (`idempotencyKey`, `approvedActionRequestId`, `io.paperclip/…`) or `progressToken`
 * (the gateway always asks the upstream for progress with its own token, and relays it under
 * the agent's when the agent gave one: docs/gateway.md, "During a call").
 */
export function forwardedMeta(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  const { idempotencyKey: _i, approvedActionRequestId: _a, progressToken: _p, ...rest } = meta;
  return cleanMeta(rest) ?? undefined;
}

async function listTools(ctx: McpMethodContext, params: unknown): Promise<RawJson> {
  const cursor = listCursor(params);
  return { raw: await gatewayListToolsJson(ctx.db, ctx.gw, new Date(), ctx.scope, cursor) };
}

async function callTool(ctx: McpMethodContext, params: unknown): Promise<CallToolResult> {
  const p = paramsObject(params);
  if (typeof p.name !== "string" || p.name.length === 0)
    throw invalidParams("tools/call needs `params.name`, the tool's name as tools/list gave it");
  if (p.name.length > 200) throw unknownTool();
  const args = p.arguments;
  if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
    throw invalidParams("`params.arguments` must be an object");
  const meta =
    p._meta !== undefined && p._meta !== null && typeof p._meta === "object"
      ? (p._meta as Record<string, unknown>)
      : {};
  const outcome = await gatewayCallTool(
    ctx.db,
    ctx.gw,
    {
      tool: qualifiedToolName(ctx, p.name),
      arguments: args ?? {},
      idempotencyKey: typeof meta.idempotencyKey === "string" ? meta.idempotencyKey.slice(0, 200) : undefined,
      approvedActionRequestId:
        typeof meta.approvedActionRequestId === "string" ? meta.approvedActionRequestId : undefined,
    },
    new Date(),
    forwardedMeta(meta),
    ctx.live,
  );
  // Unknown and hidden tools: one protocol error (the refusal is on the ledger and audit trail).
  if (!outcome.ok && outcome.code === "tool_denied") throw unknownTool();
  // The upstream's own JSON-RPC error: its code, scrubbed message and bounded data.
  if (!outcome.ok && outcome.rpcError) throw refusalError(outcome);
  return mcpToolResult(
    outcome,
    outcome.ok
      ? undefined
      : { declaresOutputSchema: await declaresOutputSchema(ctx, qualifiedToolName(ctx, p.name)) },
  );
}

/**
 * Whether the tool an agent named declares an `outputSchema`: the catalog entry the decision
 * resolves that name to (`compileSnapshot`, memoised per snapshot; the snapshot of the access
 * version the call was decided on, from the process cache). Only refusals ask.
 */
async function declaresOutputSchema(ctx: McpMethodContext, qualified: string): Promise<boolean> {
  const snapshot = await getAccessSnapshot(ctx.db, ctx.gw.companyId, ctx.gw.accessVersion);
  return !!compileSnapshot(snapshot).entriesByQualifiedName.get(qualified)?.[0]?.outputSchema;
}

export const TOOL_METHODS: McpMethodTable = {
  "tools/list": { family: "tools", handle: listTools },
  "tools/call": { family: "tools", handle: callTool },
};
