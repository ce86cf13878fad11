import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import {
  EmptyResultSchema,
  type ReadResourceResult,
  ReadResourceResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { AccessSnapshot, SnapshotCatalogEntry } from "../access/types";
import { upstreamRequest } from "../connectors/mcp-surface";
import { isArtifactUri } from "./artifact-link";
import { readArtifact } from "./artifacts";
import { governedRequest } from "./govern-request";
import { agentText, commonMetadata, listPage, visibleOfKind } from "./mcp-describe";
import { invalidParams, unknownResource } from "./mcp-errors";
import { type McpMethodContext, type McpMethodTable, paramsObject } from "./mcp-methods";
import type { VisibleEntry } from "./mcp-visible";
import type { GatewayScope } from "./path";
import { dropSubscription, recordSubscription } from "./resource-updates";

/**
 * Resources through the gateway (docs/gateway.md, "Resources and prompts"). On the combined
 * endpoint every upstream URI is namespaced by its application, so two upstreams cannot
 * collide: `paperclip://apps/<slug>/<upstream URI, verbatim>` (a slug holds no `/`, so the
 * first `/` after it ends it; templates are namespaced the same way and stay templates). A
 * per-application endpoint serves the upstream's URIs unchanged.
 */
export const APP_URI_PREFIX = "paperclip://apps/";

export function agentUri(scope: GatewayScope, slug: string, upstream: string): string {
  return scope.app === null ? `${APP_URI_PREFIX}${slug}/${upstream}` : upstream;
}

/** The application and upstream URI an agent's URI names on this endpoint; null when none. */
export function parseAgentUri(scope: GatewayScope, uri: string): { slug: string; upstream: string } | null {
  if (scope.app !== null) return { slug: scope.app, upstream: uri };
  if (!uri.startsWith(APP_URI_PREFIX)) return null;
  const rest = uri.slice(APP_URI_PREFIX.length);
  const slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return null;
  return { slug: rest.slice(0, slash), upstream: rest.slice(slash + 1) };
}

/** What a resource and a template share in a listing (the key differs: `uri`, `uriTemplate`). */
function resourceFields({ entry: e }: VisibleEntry) {
  const a = e.annotations ?? {};
  const description = agentText(e.description, 1000);
  return {
    name: agentText(a.resourceName, 200) ?? e.name,
    ...commonMetadata(e),
    ...(description ? { description } : {}),
    ...(typeof a.mimeType === "string" ? { mimeType: a.mimeType } : {}),
    ...(typeof a.size === "number" ? { size: a.size } : {}),
    ...(a.annotations && typeof a.annotations === "object" ? { annotations: a.annotations } : {}),
  };
}

const listResources = (ctx: McpMethodContext, params: unknown) =>
  listPage(ctx, params, { list: "resources", kind: "resource", key: "resources" }, (v) => ({
    uri: agentUri(ctx.scope, v.slug, v.entry.name),
    ...resourceFields(v),
  }));

const listTemplates = (ctx: McpMethodContext, params: unknown) =>
  listPage(
    ctx,
    params,
    { list: "resource_templates", kind: "resource_template", key: "resourceTemplates" },
    (v) => ({ uriTemplate: agentUri(ctx.scope, v.slug, v.entry.name), ...resourceFields(v) }),
  );

const templates = new Map<string, UriTemplate | null>();
function templateMatches(template: string, uri: string): boolean {
  let t = templates.get(template);
  if (t === undefined) {
    try {
      t = new UriTemplate(template);
    } catch {
      t = null;
    }
    if (templates.size > 4096) templates.clear();
    templates.set(template, t);
  }
  try {
    return t?.match(uri) != null;
  } catch {
    return false;
  }
}

/**
 * The catalog entry a URI reads: the resource of that URI in the named application, else the
 * first of its templates that matches. Both are then decided like any entry (hidden ones are
 * answered as unknown by the governed request).
 */
export function resolveResource(
  snapshot: AccessSnapshot,
  slug: string,
  upstream: string,
): SnapshotCatalogEntry | undefined {
  const app = snapshot.applications.find((a) => a.slug === slug);
  if (!app) return undefined;
  const conns = new Set(snapshot.connections.filter((c) => c.applicationId === app.id).map((c) => c.id));
  const mine = snapshot.catalog.filter((e) => conns.has(e.connectionId));
  const active = (e: SnapshotCatalogEntry) => (e.status === "active" ? 0 : 1);
  const exact = mine
    .filter((e) => e.kind === "resource" && e.name === upstream)
    .sort((a, b) => active(a) - active(b));
  if (exact[0]) return exact[0];
  return mine
    .filter((e) => e.kind === "resource_template" && templateMatches(e.name, upstream))
    .sort((a, b) => active(a) - active(b))[0];
}

function uriParam(params: unknown): string {
  const p = paramsObject(params);
  if (typeof p.uri !== "string" || p.uri.length === 0)
    throw invalidParams("`params.uri` must be a non-empty string");
  if (p.uri.length > 4096) throw unknownResource();
  return p.uri;
}

/** One governed request about a resource URI (read, subscribe, unsubscribe). */
async function onResource<T>(
  ctx: McpMethodContext,
  method: string,
  uri: string,
  run: (
    upstream: Parameters<Parameters<typeof governedRequest<T>>[1]["run"]>[0],
    entry: SnapshotCatalogEntry | undefined,
  ) => ReturnType<Parameters<typeof governedRequest<T>>[1]["run"]>,
  unwrap: Parameters<typeof governedRequest<T>>[1]["unwrap"],
): Promise<T> {
  const { snapshot } = await visibleOfKind(ctx, "resource");
  const parsed = parseAgentUri(ctx.scope, uri);
  const entry = parsed ? resolveResource(snapshot, parsed.slug, parsed.upstream) : undefined;
  return governedRequest(ctx, {
    // Unresolved: a label no tool can have (the ledger records the refused attempt).
    catalogEntryId: entry?.id ?? "",
    label: `${method}:${parsed?.slug ?? "?"}__${(parsed?.upstream ?? uri).slice(0, 500)}`,
    args: { uri },
    run: (t) => run(t, entry),
    unwrap,
    hidden: unknownResource,
  });
}

async function readResource(ctx: McpMethodContext, params: unknown): Promise<ReadResourceResult> {
  const uri = uriParam(params);
  // The gateway's own resources: stored result artifacts (artifacts.ts).
  if (isArtifactUri(uri)) return (await readArtifact(ctx.db, ctx.gw, uri)) as ReadResourceResult;
  const upstream = parseAgentUri(ctx.scope, uri)?.upstream ?? uri;
  const toAgent = (u: unknown) => {
    if (typeof u !== "string") return uri;
    const parsed = parseAgentUri(ctx.scope, uri);
    return parsed ? agentUri(ctx.scope, parsed.slug, u) : uri;
  };
  return onResource(
    ctx,
    "resources/read",
    uri,
    async (t) => {
      const r = await upstreamRequest(
        t,
        { method: "resources/read", params: { uri: upstream } },
        ReadResourceResultSchema,
      );
      return { result: { content: r.contents as unknown[] }, fullJson: null };
    },
    (guarded) => {
      const truncated = guarded.structuredContent?.truncated === true;
      const contents = (guarded.content as Record<string, unknown>[]).map((c) =>
        truncated || typeof c.uri !== "string"
          ? { uri, mimeType: "text/plain", text: typeof c.text === "string" ? c.text : "" }
          : { ...c, uri: toAgent(c.uri) },
      );
      return { contents } as ReadResourceResult;
    },
  );
}

async function subscription(
  ctx: McpMethodContext,
  params: unknown,
  method: string,
): Promise<Record<string, never>> {
  const uri = uriParam(params);
  const upstream = parseAgentUri(ctx.scope, uri)?.upstream ?? uri;
  const key = { companyId: ctx.gw.companyId, sessionId: ctx.gw.sessionId, upstreamUri: upstream };
  return onResource(
    ctx,
    method,
    uri,
    async (t, entry) => {
      const on = method === "resources/subscribe";
      // The upstream subscription is the pooled client's, shared by every session using it:
      // it is only ended when no other session still holds it.
      const shared = !on && (await dropSubscription(ctx.db, { ...key, connectionId: t.connectionId }));
      if (!shared) await upstreamRequest(t, { method, params: { uri: upstream } }, EmptyResultSchema);
      if (on && entry)
        await recordSubscription(ctx.db, {
          ...key,
          connectionId: t.connectionId,
          catalogEntryId: entry.id,
          agentUri: uri,
        });
      return { result: { content: [] }, fullJson: null };
    },
    () => ({}),
  );
}

export const RESOURCE_METHODS: McpMethodTable = {
  "resources/list": { family: "resources", handle: listResources },
  "resources/templates/list": { family: "resources", handle: listTemplates },
  "resources/read": { family: "resources", handle: readResource },
  "resources/subscribe": { family: "resources", handle: (c, p) => subscription(c, p, "resources/subscribe") },
  "resources/unsubscribe": {
    family: "resources",
    handle: (c, p) => subscription(c, p, "resources/unsubscribe"),
  },
};
