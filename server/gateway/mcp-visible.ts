import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { getAccessSnapshot } from "../access/snapshot";
import type { AccessSnapshot, SnapshotCatalogEntry } from "../access/types";
import { visibleTools } from "../access/visible-tools";
import { notFound } from "../errors";
import type { McpMethodContext } from "./mcp-methods";
import type { GatewayScope } from "./path";
import type { GatewayContext } from "./sessions";
import { dependsOnTime, TIME_DEPENDENT_LISTING_MS } from "./time-dependence";

export interface VisibleEntry {
  entry: SnapshotCatalogEntry;
  /** The entry's application slug (the combined endpoint namespaces with it). */
  slug: string;
  requiresApproval: boolean;
}

/**
 * The catalog entries of one kind this session may see on this endpoint: exactly those `decide`
 * makes visible (`visibleTools`, the one engine), restricted to the endpoint's application.
 */
export function visibleEntries(
  snapshot: AccessSnapshot,
  gw: GatewayContext,
  scope: GatewayScope,
  kind: string,
  now: Date,
): { entries: VisibleEntry[]; hidden: number } {
  const { tools, hiddenCount } = visibleTools(snapshot, { ...gw, sessionValid: true }, now, kind);
  const byId = new Map(snapshot.catalog.map((e) => [e.id, e]));
  const slugOf = new Map(snapshot.applications.map((a) => [a.id, a.slug]));
  const appOf = new Map(snapshot.connections.map((c) => [c.id, c.applicationId]));
  const entries: VisibleEntry[] = [];
  let hidden = hiddenCount;
  for (const t of tools) {
    const entry = byId.get(t.catalogEntryId)!;
    const slug = slugOf.get(appOf.get(entry.connectionId) ?? "") ?? "";
    if (scope.app !== null && slug !== scope.app) {
      hidden++;
      continue;
    }
    entries.push({ entry, slug, requiresApproval: t.requiresApproval });
  }
  return { entries, hidden };
}

/** The per-application endpoint of an application this company does not have: 404 (audited by the caller). */
export function assertScope(snapshot: AccessSnapshot, scope: GatewayScope): void {
  if (scope.app === null) return;
  const app = snapshot.applications.find((a) => a.slug === scope.app);
  if (app?.status !== "active") throw notFound("application endpoint");
}

const capsCache = new WeakMap<AccessSnapshot, Map<string, { caps: ServerCapabilities; at: number }>>();

/**
 * The capabilities this session is offered on this endpoint: `tools` always; `resources`,
 * `prompts` and `completions` when it can see at least one resource (or template) or prompt.
 * A family it cannot see is not advertised and its methods answer -32601, like any server
 * without that capability. Memoised per access snapshot and context (for at most
 * `TIME_DEPENDENT_LISTING_MS` when the snapshot's rules depend on the clock).
 */
export async function sessionCapabilities(
  ctx: McpMethodContext,
  now = new Date(),
): Promise<ServerCapabilities> {
  const { gw, scope } = ctx;
  const snapshot = await getAccessSnapshot(ctx.db, gw.companyId, gw.accessVersion);
  assertScope(snapshot, scope);
  const key = `${scope.app ?? ""}|${gw.agentId}|${gw.runId}|${gw.issueId ?? ""}|${gw.projectId ?? ""}|${gw.routineId ?? ""}`;
  let perSnapshot = capsCache.get(snapshot);
  const hit = perSnapshot?.get(key);
  if (hit && (!dependsOnTime(snapshot) || now.getTime() - hit.at < TIME_DEPENDENT_LISTING_MS))
    return hit.caps;
  const any = (kind: string) => visibleEntries(snapshot, gw, scope, kind, now).entries.length > 0;
  const resources = any("resource") || any("resource_template");
  const prompts = any("prompt");
  const caps: ServerCapabilities = {
    tools: {},
    ...(resources ? { resources: {} } : {}),
    ...(prompts ? { prompts: {} } : {}),
    ...(resources || prompts ? { completions: {} } : {}),
  };
  if (!perSnapshot) {
    perSnapshot = new Map();
    capsCache.set(snapshot, perSnapshot);
  }
  if (perSnapshot.size < 1024 || perSnapshot.has(key)) perSnapshot.set(key, { caps, at: now.getTime() });
  return caps;
}
