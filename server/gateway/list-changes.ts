/**
 * The MCP endpoint's GET stream (Streamable HTTP, "Listening for Messages from the Server"):
 * an agent that holds one is sent `notifications/tools/list_changed` (and `resources/…`,
 * `prompts/…`) when what it may see changes — a profile or policy edit, a quarantine, a
 * review: anything that bumps the company's access version, on any replica (the bump is
 * announced with NOTIFY at commit, `server/access/changes.ts`). The stream compares the
 * session's visible set before and after, so an unrelated change sends nothing.
 *
 * The stream ends when the session stops being valid (checked on every change and every
 * keep-alive), the client goes away or this server drains (SIGTERM: the agent reconnects to
 * another replica). Nothing but notifications is sent on it.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { heartbeatRuns, toolGatewaySessions } from "@/db/schema";
import { accessChangedKey } from "../access/changes";
import { getAccessSnapshot } from "../access/snapshot";
import { sessionIsLive, sessionRun } from "../ledger/live-session";
import { onDrain } from "../lifecycle/drain";
import { logWarn } from "../log";
import type { McpMethodContext } from "./mcp-methods";
import { parseAgentUri, resolveResource } from "./mcp-resources";
import { visibleEntries } from "./mcp-visible";
import { subscribe } from "./relay/bus";
import {
  endSessionSubscriptions,
  resourceUpdatedKey,
  type SubscriptionRow,
  sessionSubscriptions,
  subscriptionsChangedKey,
} from "./resource-updates";
import type { StreamedResponse } from "./streams";

const KEEPALIVE_MS = 25_000;

const FAMILIES = [
  { method: "notifications/tools/list_changed", kinds: ["tool"] },
  { method: "notifications/resources/list_changed", kinds: ["resource", "resource_template"] },
  { method: "notifications/prompts/list_changed", kinds: ["prompt"] },
] as const;

/** A digest per family of what this session sees on this endpoint (names and versions). */
async function visibleDigests(ctx: McpMethodContext): Promise<string[]> {
  const snapshot = await getAccessSnapshot(ctx.db, ctx.gw.companyId);
  const now = new Date();
  return FAMILIES.map((f) => {
    const h = createHash("sha256");
    for (const kind of f.kinds) {
      const names = visibleEntries(snapshot, ctx.gw, ctx.scope, kind, now)
        .entries.map(
          (e) =>
            `${e.slug}/${e.entry.name}@${e.entry.versionHash ?? e.entry.schemaHash}:${e.requiresApproval}`,
        )
        .sort();
      h.update(`${kind}\n${names.join("\n")}\n`);
    }
    return h.digest("hex");
  });
}

/**
 * Whether a subscription's resource is still one this session may read on this endpoint: the
 * agent's URI resolves (on this endpoint) to an entry of the subscribed connection that the one
 * `decide` makes visible.
 */
async function stillVisible(ctx: McpMethodContext, row: SubscriptionRow): Promise<boolean> {
  const parsed = parseAgentUri(ctx.scope, row.agentUri);
  if (!parsed || parsed.upstream !== row.upstreamUri) return false;
  const snapshot = await getAccessSnapshot(ctx.db, ctx.gw.companyId);
  const entry = resolveResource(snapshot, parsed.slug, parsed.upstream);
  if (!entry || entry.connectionId !== row.connectionId) return false;
  return visibleEntries(snapshot, ctx.gw, ctx.scope, entry.kind ?? "resource", new Date()).entries.some(
    (v) => v.entry.id === entry.id,
  );
}

async function sessionStillValid(ctx: McpMethodContext): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: toolGatewaySessions.id })
    .from(toolGatewaySessions)
    .innerJoin(heartbeatRuns, sessionRun)
    .where(and(eq(toolGatewaySessions.id, ctx.gw.sessionId), sessionIsLive));
  return Boolean(row);
}

/** Opens the session's change stream. */
export async function openChangeStream(
  ctx: McpMethodContext,
  headers: Record<string, string>,
  disconnected?: AbortSignal,
): Promise<StreamedResponse> {
  const encoder = new TextEncoder();
  let sink: ReadableStreamDefaultController<Uint8Array> | null = null;
  let closed = false;
  let last = await visibleDigests(ctx);
  let checking: Promise<void> = Promise.resolve();
  let unsubscribe: () => void = () => {};
  let keepalive: NodeJS.Timeout | undefined;
  let resourceKeys = new Map<string, () => void>();
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepalive);
    unsubscribe();
    for (const off of resourceKeys.values()) off();
    resourceKeys.clear();
    try {
      sink?.close();
    } catch {
      // already cancelled
    }
  };
  const write = (text: string) => {
    if (!closed && sink) sink.enqueue(encoder.encode(text));
  };
  const ended = () => {
    void endSessionSubscriptions(ctx.db, ctx.gw.companyId, ctx.gw.sessionId).catch(() => {});
    close();
  };
  const updated = (key: string) => {
    checking = checking.then(async () => {
      if (closed) return;
      try {
        if (!(await sessionStillValid(ctx))) return ended();
        const rows = await sessionSubscriptions(ctx.db, ctx.gw.companyId, ctx.gw.sessionId);
        for (const row of rows) {
          if (resourceUpdatedKey(row.connectionId, row.upstreamUri) !== key) continue;
          if (!(await stillVisible(ctx, row))) continue;
          const message = {
            jsonrpc: "2.0",
            method: "notifications/resources/updated",
            params: { uri: row.agentUri },
          };
          write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
        }
      } catch (err) {
        logWarn("gateway.resource_update_failed", { message: (err as Error).message });
      }
    });
  };
  /** Listens for the updates of the session's current subscriptions (reloaded on each change). */
  const listenSubscriptions = async () => {
    const rows = await sessionSubscriptions(ctx.db, ctx.gw.companyId, ctx.gw.sessionId);
    const wanted = new Set(rows.map((r) => resourceUpdatedKey(r.connectionId, r.upstreamUri)));
    const next = new Map<string, () => void>();
    for (const [key, off] of resourceKeys) {
      if (wanted.has(key)) next.set(key, off);
      else off();
    }
    for (const key of wanted)
      if (!next.has(key)) next.set(key, await subscribe(ctx.db, key, () => updated(key)));
    resourceKeys = next;
    if (closed) for (const off of next.values()) off();
  };
  const check = () => {
    // One comparison at a time; a burst of changes is compared once more after the current one.
    checking = checking.then(async () => {
      if (closed) return;
      try {
        if (!(await sessionStillValid(ctx))) return ended();
        const next = await visibleDigests(ctx);
        FAMILIES.forEach((f, i) => {
          if (next[i] !== last[i])
            write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: f.method })}\n\n`);
        });
        last = next;
      } catch (err) {
        logWarn("gateway.list_changes_failed", { message: (err as Error).message });
      }
    });
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      sink = c;
    },
    cancel() {
      close();
    },
  });
  const offAccess = await subscribe(ctx.db, accessChangedKey(ctx.gw.companyId), check);
  const reload = () => {
    checking = checking.then(() =>
      closed
        ? undefined
        : listenSubscriptions().catch((err: unknown) =>
            logWarn("gateway.resource_subscriptions_failed", { message: (err as Error).message }),
          ),
    );
  };
  const offSubs = await subscribe(ctx.db, subscriptionsChangedKey(ctx.gw.sessionId), reload);
  const offDrain = onDrain(close);
  unsubscribe = () => {
    offAccess();
    offSubs();
    offDrain();
  };
  await listenSubscriptions();
  disconnected?.addEventListener("abort", close, { once: true });
  keepalive = setInterval(() => {
    write(": keep-alive\n\n");
    void sessionStillValid(ctx).then(
      (ok) => (ok ? undefined : ended()),
      () => {},
    );
  }, KEEPALIVE_MS);
  keepalive.unref();
  return {
    status: 200,
    headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache, no-store" },
    body,
  };
}
