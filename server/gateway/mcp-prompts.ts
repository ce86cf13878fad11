import { type GetPromptResult, GetPromptResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AccessSnapshot, SnapshotCatalogEntry } from "../access/types";
import { upstreamRequest } from "../connectors/mcp-surface";
import { governedRequest } from "./govern-request";
import { agentText, commonMetadata, listPage, visibleOfKind } from "./mcp-describe";
import { invalidParams, unknownPrompt } from "./mcp-errors";
import { type McpMethodContext, type McpMethodTable, paramsObject } from "./mcp-methods";

/**
 * Prompts and completion through the gateway. Prompt names are namespaced like tools on the
 * combined endpoint (`<slug>__<prompt>`) and unchanged on a per-application endpoint; a
 * prompt's arguments are checked against the input schema built from its declared arguments
 * (`catalog/surface.ts`) by the one `decide`.
 */

export function resolvePrompt(
  ctx: McpMethodContext,
  snapshot: AccessSnapshot,
  name: string,
): { entry?: SnapshotCatalogEntry; slug: string; upstream: string } {
  const sep = ctx.scope.app === null ? name.indexOf("__") : -1;
  const slug = ctx.scope.app ?? (sep > 0 ? name.slice(0, sep) : "");
  const upstream = ctx.scope.app === null ? (sep > 0 ? name.slice(sep + 2) : "") : name;
  const app = snapshot.applications.find((a) => a.slug === slug);
  if (!app || !upstream) return { slug, upstream };
  const conns = new Set(snapshot.connections.filter((c) => c.applicationId === app.id).map((c) => c.id));
  const entry = snapshot.catalog
    .filter((e) => e.kind === "prompt" && e.name === upstream && conns.has(e.connectionId))
    .sort((a, b) => (a.status === "active" ? 0 : 1) - (b.status === "active" ? 0 : 1))[0];
  return { entry, slug, upstream };
}

const listPrompts = (ctx: McpMethodContext, params: unknown) =>
  listPage(ctx, params, { list: "prompts", kind: "prompt", key: "prompts" }, ({ entry: e, slug }) => {
    const description = agentText(e.description, 1000);
    const args = Array.isArray(e.annotations?.arguments)
      ? (e.annotations.arguments as Record<string, unknown>[])
      : [];
    return {
      name: ctx.scope.app === null ? `${slug}__${e.name}` : e.name,
      ...commonMetadata(e),
      ...(description ? { description } : {}),
      arguments: args.map((a) => ({
        name: String(a.name),
        ...(agentText(a.description, 1000) ? { description: agentText(a.description, 1000) } : {}),
        ...(a.required === true ? { required: true } : {}),
      })),
    };
  });

async function getPrompt(ctx: McpMethodContext, params: unknown): Promise<GetPromptResult> {
  const p = paramsObject(params);
  if (typeof p.name !== "string" || p.name.length === 0)
    throw invalidParams("`params.name` must be a non-empty string");
  const args = p.arguments ?? {};
  if (args === null || typeof args !== "object" || Array.isArray(args))
    throw invalidParams("`params.arguments` must be an object of strings");
  const { snapshot } = await visibleOfKind(ctx, "prompt");
  const { entry, slug, upstream } = resolvePrompt(ctx, snapshot, p.name.slice(0, 300));
  return governedRequest(ctx, {
    catalogEntryId: entry?.id ?? "",
    label: `prompts/get:${slug || "?"}__${upstream || p.name.slice(0, 200)}`,
    args: args as Record<string, unknown>,
    run: async (t) => {
      const r = await upstreamRequest(
        t,
        { method: "prompts/get", params: { name: upstream, arguments: args as Record<string, string> } },
        GetPromptResultSchema,
      );
      return {
        result: {
          content: r.messages as unknown[],
          ...(r.description ? { structuredContent: { description: r.description } } : {}),
        },
        fullJson: null,
      };
    },
    unwrap: (g) => {
      if (g.structuredContent?.truncated === true)
        return { messages: g.content.map((c) => ({ role: "user", content: c })) } as GetPromptResult;
      const description = g.structuredContent?.description;
      return {
        ...(typeof description === "string" ? { description } : {}),
        messages: g.content as GetPromptResult["messages"],
      };
    },
    hidden: unknownPrompt,
  });
}

export const PROMPT_METHODS: McpMethodTable = {
  "prompts/list": { family: "prompts", handle: listPrompts },
  "prompts/get": { family: "prompts", handle: getPrompt },
};
