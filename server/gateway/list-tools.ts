import { LRUCache } from "lru-cache";
import type { Db } from "@/db/client";
import { RISKS } from "@/server/contracts/values";
import { getAccessSnapshot } from "../access/snapshot";
import type { AccessSnapshot } from "../access/types";
import { visibleTools } from "../access/visible-tools";
import { toolEventRows } from "../audit/record-event";
import { sanitizeText } from "../catalog/classify";
import { guardContent, guardText } from "../catalog/content-guard";
import { insertEvents, SessionNotLive } from "../ledger/hot-statements";

const METADATA_GUARD = { secretValues: [] as string[], injectionMode: "redact" as const };

import type { Served } from "@/server/contracts/api/common";
import type { AgentTool } from "@/server/contracts/api/gateway";
import { agentMeta } from "./agent-meta";
import { type CursorScope, pageOf, pageSize, readCursor, signCursor } from "./mcp-cursor";
import type { GatewayScope } from "./path";
import { type GatewayContext, verifiedGatewayContext } from "./sessions";
import { dependsOnTime, TIME_DEPENDENT_LISTING_MS } from "./time-dependence";

const COMBINED: GatewayScope = { app: null };

export interface AgentToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  icons?: Record<string, unknown>[];
  _meta?: Record<string, unknown>;
}

const SAFE_ANNOTATIONS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** A listed tool with the application it belongs to (per-application endpoints filter on it). */
interface DescribedTool {
  slug: string;
  upstreamName: string;
  descriptor: AgentToolDescriptor;
}
type Described = Map<string, DescribedTool>;
// Sanitising and guarding metadata is pure per snapshot: done once per snapshot object (a new
// snapshot is built on every access change), not on every tools/list.
const describedCache = new WeakMap<AccessSnapshot, Described>();

function descriptorsFor(snapshot: AccessSnapshot): Described {
  const hit = describedCache.get(snapshot);
  if (hit) return hit;
  const out: Described = new Map();
  const apps = new Map(snapshot.applications.map((a) => [a.id, a]));
  const conns = new Map(snapshot.connections.map((c) => [c.id, c]));
  for (const e of snapshot.catalog) {
    if ((e.kind ?? "tool") !== "tool") continue;
    const app = apps.get(conns.get(e.connectionId)?.applicationId ?? "");
    if (!app) continue;
    const risk = (RISKS as readonly string[]).includes(e.risk) ? e.risk : "destructive";
    const annotations: Record<string, unknown> = {};
    for (const k of SAFE_ANNOTATIONS)
      if (typeof e.annotations?.[k] === "boolean") annotations[k] = e.annotations[k];
    // The gateway's risk class overrides the hints it governs.
    annotations.readOnlyHint = risk === "read";
    annotations.destructiveHint = risk === "destructive";
    const annotationTitle = sanitizeText(e.annotations?.title, 200);
    if (annotationTitle) annotations.title = annotationTitle;
    // Upstream metadata is untrusted: strip invisible characters and injection spans from what
    // an agent reads (the catalog keeps the raw text so reviewers see what the upstream sent).
    const title = sanitizeText(e.title, 200);
    const schema = e.inputSchema && typeof e.inputSchema === "object" ? e.inputSchema : { type: "object" };
    out.set(e.id, {
      slug: app.slug,
      upstreamName: e.name,
      descriptor: {
        name: `${app.slug}__${e.name}`,
        ...(title ? { title } : {}),
        description: guardText(sanitizeText(e.description, 1000) ?? "", METADATA_GUARD).text,
        inputSchema: (guardContent({ content: [], structuredContent: schema }, METADATA_GUARD).result
          .structuredContent as Record<string, unknown>) ?? { type: "object" },
        annotations,
        ...(e.outputSchema
          ? {
              outputSchema: guardContent({ content: [], structuredContent: e.outputSchema }, METADATA_GUARD)
                .result.structuredContent as Record<string, unknown>,
            }
          : {}),
        ...(e.icons?.length ? { icons: e.icons } : {}),
        ...(agentMeta(e.meta) ? { _meta: agentMeta(e.meta) } : {}),
      },
    });
  }
  describedCache.set(snapshot, out);
  return out;
}

function listFor(snapshot: AccessSnapshot, gw: GatewayContext, now: Date, scope: GatewayScope) {
  const { tools, hiddenCount } = visibleTools(snapshot, { ...gw, sessionValid: true }, now);
  const described = descriptorsFor(snapshot);
  const out: AgentToolDescriptor[] = [];
  for (const t of tools) {
    const d = described.get(t.catalogEntryId)!;
    if (scope.app !== null && d.slug !== scope.app) continue;
    // Per-application endpoints serve the upstream's own names.
    const base = scope.app === null ? d.descriptor : { ...d.descriptor, name: d.upstreamName };
    out.push(
      t.requiresApproval
        ? { ...base, description: `${base.description} (Calls to this tool wait for a person's approval.)` }
        : base,
    );
  }
  return { tools: out, hiddenCount: hiddenCount + (tools.length - out.length) };
}

/**
 * The `discovery` audit event of a listing. On a cached session (`gw.unverified`) the event's
 * own insert verifies the session (`SessionNotLive` when it is dead: nothing is written, and
 * the listing must not be served).
 */
async function recordDiscovery(db: Db, gw: GatewayContext, visible: number, hidden: number) {
  await insertEvents(
    db,
    toolEventRows([
      {
        companyId: gw.companyId,
        eventType: "discovery",
        actorType: "gateway_session",
        actorId: gw.sessionId,
        runId: gw.runId,
        issueId: gw.issueId,
        agentId: gw.agentId,
        projectId: gw.projectId,
        routineId: gw.routineId,
        sessionId: gw.sessionId,
        decision: "allow",
        reasonCode: "listed",
        resultSummary: { visible, hidden },
      },
    ]),
    gw.unverified && gw.accessVersion !== undefined
      ? { sessionId: gw.sessionId, accessVersion: gw.accessVersion }
      : undefined,
  );
}

/**
 * The tools this session may see: exactly what `decide` makes visible, with stable namespaced
 * names (`<application-slug>__<tool>`) and sanitised, length-capped metadata. Annotations are
 * reduced to the boolean hints (and the destructive hint reflects our own risk class). One
 * `discovery` audit event per listing.
 */
export async function gatewayListTools(
  db: Db,
  gw: GatewayContext,
  now = new Date(),
  scope: GatewayScope = COMBINED,
): Promise<AgentToolDescriptor[]> {
  const snapshot = await getAccessSnapshot(db, gw.companyId, gw.accessVersion);
  const { tools, hiddenCount } = listFor(snapshot, gw, now, scope);
  await recordDiscovery(db, gw, tools.length, hiddenCount);
  return tools satisfies Served<typeof AgentTool>[];
}

interface Listed {
  /**
   * Each page of the listing as `{"tools":[…]}` in UTF-8, encoded once per memo entry (page
   * `i` holds the tools from `i × pageSize`). A page's `nextCursor` names the session, so it
   * is appended per request (`pageJson`).
   */
  pages: Buffer[];
  /** The page size the pages were cut with (`PAPERCLIP_MCP_PAGE_SIZE` may change). */
  pageSize: number;
  tools: AgentToolDescriptor[];
  visible: number;
  hidden: number;
  at: number;
}
/**
 * The listing memo: one process-wide LRU keyed by company, access version and access context,
 * bounded in entries and in bytes (a 1,000-tool listing is ~0.4 MiB). Entries of replaced
 * access versions are never hit again and age out.
 */
const MAX_LISTINGS = 2048;
const MAX_LISTING_BYTES = 64 * 1024 * 1024;
const listings = new LRUCache<string, Listed>({
  max: MAX_LISTINGS,
  maxSize: MAX_LISTING_BYTES,
  // The descriptors are kept beside their encoding: count both.
  sizeCalculation: (listed) => listed.pages.reduce((n, page) => n + page.byteLength, 0) * 2,
});

/** `{"tools":[…]}` per page of `tools`, encoded. */
function encodePages(tools: AgentToolDescriptor[], size: number): Buffer[] {
  const pages: Buffer[] = [];
  for (let i = 0; i === 0 || i < tools.length; i += size)
    pages.push(Buffer.from(JSON.stringify({ tools: tools.slice(i, i + size) }), "utf8"));
  return pages;
}

/**
 * The page at `offset` as sent: the memoised encoding, with `"nextCursor"` spliced in before
 * its closing brace while more remain. An offset that is not a page boundary of the memo (a
 * cursor issued under another page size) is cut and encoded afresh.
 */
function pageJson(listed: Listed, offset: number, cursorScope: CursorScope): Buffer {
  const size = listed.pageSize;
  const encoded = offset % size === 0 ? listed.pages[offset / size] : undefined;
  if (!encoded) {
    const { page, nextCursor } = pageOf(cursorScope, listed.tools, offset);
    return Buffer.from(JSON.stringify({ tools: page, ...(nextCursor ? { nextCursor } : {}) }), "utf8");
  }
  if (offset + size >= listed.tools.length) return encoded;
  const tail = `,"nextCursor":${JSON.stringify(signCursor(cursorScope, offset + size))}}`;
  return Buffer.concat([encoded.subarray(0, encoded.byteLength - 1), Buffer.from(tail, "utf8")]);
}
/**
 * `tools/list` for the gateway's MCP endpoint: the same listing as `gatewayListTools`, as the
 * UTF-8 JSON of the result (`{"tools":[…]}`). It is memoised per access version and access
 * context (agent, run, issue, project, routine): a snapshot is immutable and every access
 * change makes a new version, so the memo can only be stale if the rules depend on the clock — then
 * a listing is reused for at most `TIME_DEPENDENT_LISTING_MS` (a call is always decided at its
 * own time; the listing is what an agent is shown, not what it is allowed). The `discovery`
 * audit event is written on every listing. Listings longer than a page (`mcp-cursor.ts`) are
 * served in pages with signed cursors.
 *
 * `gw` may come from the session cache (`authenticateGatewayTokenForCall`): the discovery
 * event's insert then verifies the session in the same statement, and a dead session is read
 * again (refused there, 401) before anything is listed — one round trip less per listing.
 */
export async function gatewayListToolsJson(
  db: Db,
  gw: GatewayContext,
  now = new Date(),
  scope: GatewayScope = COMBINED,
  /** `params.cursor` as the agent sent it (checked: -32602 when not one we issued). */
  cursor?: unknown,
): Promise<Buffer> {
  if (gw.unverified && gw.accessVersion === undefined) gw = await verifiedGatewayContext(gw);
  try {
    return await listingJson(db, gw, now, scope, cursor);
  } catch (err) {
    if (!(err instanceof SessionNotLive) || !gw.unverified) throw err;
    return listingJson(db, await gw.unverified.reauthenticate(), new Date(), scope, cursor);
  }
}

async function listingJson(
  db: Db,
  gw: GatewayContext,
  now: Date,
  scope: GatewayScope,
  cursor: unknown,
): Promise<Buffer> {
  const cursorScope = { list: "tools", app: scope.app ?? "", sessionId: gw.sessionId };
  const offset = readCursor(cursorScope, cursor);
  const snapshot = await getAccessSnapshot(db, gw.companyId, gw.accessVersion);
  const key =
    snapshot.version === undefined
      ? null
      : `${gw.companyId}|${snapshot.version}|${scope.app ?? ""}|${gw.agentId}|${gw.runId}|${gw.issueId ?? ""}|${gw.projectId ?? ""}|${gw.routineId ?? ""}`;
  let listed = key ? listings.get(key) : undefined;
  const size = pageSize();
  if (
    !listed ||
    listed.pageSize !== size ||
    (dependsOnTime(snapshot) && now.getTime() - listed.at >= TIME_DEPENDENT_LISTING_MS)
  ) {
    const { tools, hiddenCount } = listFor(snapshot, gw, now, scope);
    listed = {
      pages: encodePages(tools, size),
      pageSize: size,
      tools,
      visible: tools.length,
      hidden: hiddenCount,
      at: now.getTime(),
    };
    if (key) listings.set(key, listed);
  }
  await recordDiscovery(db, gw, listed.visible, listed.hidden);
  return pageJson(listed, offset, cursorScope);
}
