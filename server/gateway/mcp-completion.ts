import { CompleteResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AccessSnapshot, SnapshotCatalogEntry } from "../access/types";
import { upstreamRequest } from "../connectors/mcp-surface";
import { governedRequest } from "./govern-request";
import { visibleOfKind } from "./mcp-describe";
import { invalidParams, unknownPrompt, unknownResource } from "./mcp-errors";
import { type McpMethodContext, type McpMethodTable, paramsObject } from "./mcp-methods";
import { resolvePrompt } from "./mcp-prompts";
import { parseAgentUri, resolveResource } from "./mcp-resources";

/**
 * `completion/complete`, governed on the prompt or resource template it completes an argument
 * of (hidden ones answer as unknown, like a direct `prompts/get` or `resources/read`), with
 * the reference translated to the upstream's names and at most 100 string values returned.
 */
async function complete(ctx: McpMethodContext, params: unknown) {
  const p = paramsObject(params);
  const ref = p.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const argument = p.argument as { name?: unknown; value?: unknown } | undefined;
  if (!ref || typeof ref !== "object")
    throw invalidParams("`params.ref` must be a prompt or resource reference");
  if (!argument || typeof argument.name !== "string" || typeof argument.value !== "string")
    throw invalidParams("`params.argument` needs a string `name` and `value`");
  const { snapshot } = await visibleOfKind(ctx, "prompt");
  let entry: SnapshotCatalogEntry | undefined;
  let upstreamRef: Record<string, unknown>;
  let hidden = unknownPrompt;
  if (ref.type === "ref/prompt" && typeof ref.name === "string") {
    const r = resolvePrompt(ctx, snapshot, ref.name.slice(0, 300));
    entry = r.entry;
    upstreamRef = { type: "ref/prompt", name: r.upstream };
  } else if (ref.type === "ref/resource" && typeof ref.uri === "string") {
    const parsed = parseAgentUri(ctx.scope, ref.uri.slice(0, 4096));
    entry = parsed ? resolveTemplate(snapshot, parsed.slug, parsed.upstream) : undefined;
    upstreamRef = { type: "ref/resource", uri: parsed?.upstream ?? ref.uri };
    hidden = unknownResource;
  } else
    throw invalidParams(
      "`params.ref.type` must be `ref/prompt` (with `name`) or `ref/resource` (with `uri`)",
    );
  const context = p.context && typeof p.context === "object" ? { context: p.context } : {};
  const contextArgs = (p.context as { arguments?: unknown } | undefined)?.arguments;
  const contextNames =
    contextArgs && typeof contextArgs === "object" ? Object.keys(contextArgs).slice(0, 50) : [];
  return governedRequest(ctx, {
    catalogEntryId: entry?.id ?? "",
    label: `completion/complete:${entry?.name ?? "?"}`,
    // Completion is metadata about an argument, not a call: no argument schema applies. The
    // ledger records what was asked (guarded and redacted like any call's arguments); of the
    // context, only the names of the arguments already filled in.
    args: {
      ref: ref.type === "ref/prompt" ? { type: ref.type, name: ref.name } : { type: ref.type, uri: ref.uri },
      argument: { name: argument.name, value: argument.value },
      ...(contextNames.length ? { contextArguments: contextNames } : {}),
    },
    schemaless: true,
    run: async (t) => {
      const r = await upstreamRequest(
        t,
        {
          method: "completion/complete",
          params: { ref: upstreamRef, argument: { name: argument.name, value: argument.value }, ...context },
        },
        CompleteResultSchema,
      );
      return {
        result: { content: [], structuredContent: r.completion as Record<string, unknown> },
        fullJson: null,
      };
    },
    unwrap: (g) => {
      const c = (g.structuredContent ?? {}) as { values?: unknown; total?: unknown; hasMore?: unknown };
      const values = Array.isArray(c.values)
        ? c.values.filter((v) => typeof v === "string").slice(0, 100)
        : [];
      return {
        completion: {
          values,
          ...(typeof c.total === "number" ? { total: c.total } : {}),
          ...(typeof c.hasMore === "boolean" ? { hasMore: c.hasMore } : {}),
        },
      };
    },
    hidden,
  });
}

/** A resource template by the URI template an agent names (completion refers to templates). */
function resolveTemplate(snapshot: AccessSnapshot, slug: string, template: string) {
  const app = snapshot.applications.find((a) => a.slug === slug);
  if (!app) return undefined;
  const conns = new Set(snapshot.connections.filter((c) => c.applicationId === app.id).map((c) => c.id));
  return (
    snapshot.catalog.find(
      (e) => e.kind === "resource_template" && e.name === template && conns.has(e.connectionId),
    ) ?? resolveResource(snapshot, slug, template)
  );
}

export const COMPLETION_METHODS: McpMethodTable = {
  "completion/complete": { family: "completions", handle: complete },
};
