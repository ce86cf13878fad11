import type { Db } from "@/db/client";
import { processSingleton } from "../config/process-singleton";
import { mcpHttpPool } from "../connectors";
import { systemContext } from "../context";
import { logError, logInfo } from "../log";
import { refreshConnectionCatalog } from "./refresh";

type Watches = Map<string, { unsubscribe: () => void; last: number; timer: NodeJS.Timeout | null }>;
const watches: Watches = processSingleton("catalogWatches", () => new Map());

const MIN_INTERVAL_MS = 5_000;

/**
 * Refreshes a connection's catalog when its upstream announces `notifications/tools/list_changed`
 * (throttled to one refresh per 5 s per connection). New and changed tools are quarantined by
 * the refresh itself, so an upstream that swaps a tool while connected cannot slip it past
 * review. Registered once per connection per process.
 */
export function watchToolListChanges(db: Db, companyId: string, connectionId: string): void {
  if (watches.has(connectionId)) return;
  const entry = { unsubscribe: () => {}, last: 0, timer: null as NodeJS.Timeout | null };
  const run = () => {
    entry.timer = null;
    entry.last = Date.now();
    refreshConnectionCatalog(systemContext(db, "tools_list_changed"), companyId, connectionId)
      .then((r) =>
        logInfo("catalog.list_changed_refresh", {
          connectionId,
          added: r.added,
          changed: r.changed,
          removed: r.removed,
        }),
      )
      .catch((err) => logError("catalog.list_changed_refresh_failed", err, { connectionId }));
  };
  entry.unsubscribe = mcpHttpPool().onToolsListChanged(connectionId, () => {
    if (entry.timer) return;
    const wait = Math.max(0, entry.last + MIN_INTERVAL_MS - Date.now());
    entry.timer = setTimeout(run, wait);
    entry.timer.unref?.();
  });
  watches.set(connectionId, entry);
}
