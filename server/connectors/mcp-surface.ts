import type { Prompt, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";
import { ServiceError } from "../errors";
import { stdioListSurface, stdioRequest } from "../runtime";
import { mcpHttpPool, mcpTarget, type UpstreamTarget } from ".";

/** What an upstream offers beside tools (issue 17): resources, resource templates, prompts. */
export interface UpstreamSurface {
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
}

const NONE: UpstreamSurface = { resources: [], templates: [], prompts: [] };

/**
 * The upstream's resources, resource templates and prompts (each `[]` when the server lacks
 * the capability). Remote (HTTP) and local (stdio) MCP; other connection types offer none.
 */
export async function listUpstreamSurface(t: UpstreamTarget): Promise<UpstreamSurface> {
  if (t.type === "mcp_stdio" && t.stdio)
    return stdioListSurface(t.stdio.db, t.stdio.target, { timeoutMs: t.timeoutMs });
  if (t.type !== "mcp_http" || !t.url) return NONE;
  const pool = mcpHttpPool();
  const target = mcpTarget(t);
  const [resources, templates, prompts] = await Promise.all([
    pool.listResources(target),
    pool.listResourceTemplates(target),
    pool.listPrompts(target),
  ]);
  return { resources, templates, prompts };
}

/** One request to the upstream (`resources/read`, `prompts/get`, `completion/complete`, …). */
export async function upstreamRequest<T>(
  t: UpstreamTarget,
  request: { method: string; params?: Record<string, unknown> },
  schema: ZodType<T>,
): Promise<T> {
  if (t.type === "mcp_stdio" && t.stdio)
    return stdioRequest(t.stdio.db, t.stdio.target, request, schema, { timeoutMs: t.timeoutMs });
  if (t.type !== "mcp_http" || !t.url)
    throw new ServiceError("runtime_unavailable", `\`${request.method}\` is served for MCP connections only`);
  return mcpHttpPool().request(mcpTarget(t), request, schema, { timeoutMs: t.timeoutMs });
}
