import { getAccessSnapshot } from "../access/snapshot";
import type { AccessSnapshot, SnapshotCatalogEntry } from "../access/types";
import { sanitizeText } from "../catalog/classify";
import { guardText } from "../catalog/content-guard";
import { PAPERCLIP_META_PREFIX } from "../catalog/surface";
import { agentMeta } from "./agent-meta";
import { listCursor, pageOf, readCursor } from "./mcp-cursor";
import type { McpMethodContext } from "./mcp-methods";
import { type VisibleEntry, visibleEntries } from "./mcp-visible";

const METADATA_GUARD = { secretValues: [] as string[], injectionMode: "redact" as const };

/** Upstream text an agent reads: invisible characters and injection spans removed, bounded. */
export function agentText(value: unknown, max: number): string | undefined {
  const clean = sanitizeText(value, max);
  return clean ? guardText(clean, METADATA_GUARD).text : undefined;
}

/** The metadata every listed entry carries when the upstream gave it: title, icons, _meta. */
export function commonMetadata(e: SnapshotCatalogEntry & { icons?: unknown; meta?: unknown }) {
  const title = agentText(e.title, 200);
  return {
    ...(title ? { title } : {}),
    ...(Array.isArray(e.icons) && e.icons.length > 0 ? { icons: e.icons } : {}),
    ...(agentMeta(e.meta) ? { _meta: agentMeta(e.meta) } : {}),
  };
}

/** The gateway's own `_meta` keys (`io.paperclip/<key>`). */
export const paperclipMeta = (values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [`${PAPERCLIP_META_PREFIX}${k}`, v]));

/** The visible entries of a kind on this endpoint, sorted by name (a stable page order). */
export async function visibleOfKind(
  ctx: McpMethodContext,
  kind: string,
): Promise<{ snapshot: AccessSnapshot; entries: VisibleEntry[]; hidden: number }> {
  const snapshot = await getAccessSnapshot(ctx.db, ctx.gw.companyId, ctx.gw.accessVersion);
  const { entries, hidden } = visibleEntries(snapshot, ctx.gw, ctx.scope, kind, new Date());
  entries.sort((a, b) =>
    a.slug === b.slug ? (a.entry.name < b.entry.name ? -1 : 1) : a.slug < b.slug ? -1 : 1,
  );
  return { snapshot, entries, hidden };
}

/**
 * One page of a list method (`resources/list`, `resources/templates/list`, `prompts/list`): the
 * visible entries of `kind` in a stable order, from the signed cursor's offset, each described by
 * `describe`, under `key`, with `nextCursor` while more remain.
 */
export async function listPage<T>(
  ctx: McpMethodContext,
  params: unknown,
  list: { list: string; kind: string; key: string },
  describe: (v: VisibleEntry) => T,
): Promise<Record<string, unknown>> {
  const cs = { list: list.list, app: ctx.scope.app ?? "", sessionId: ctx.gw.sessionId };
  const offset = readCursor(cs, listCursor(params));
  const { entries } = await visibleOfKind(ctx, list.kind);
  const { page, nextCursor } = pageOf(cs, entries, offset);
  return { [list.key]: page.map(describe), ...(nextCursor ? { nextCursor } : {}) };
}
