// Start-up work for every server process (also replicas started with plain `next start`):
// apply committed migrations, reap orphaned runtime slots and start the lease sweeper before serving. `npm start` has already done this for the
// embedded database; running it again is a cheap no-op under the migration advisory lock.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  const { closeAllDatabases, getDb } = await import("./db/client");
  // Uncaught exceptions logged with their cause (and postgres.js's null-socket write dropped),
  // the event-loop sampler behind /api/health/live.
  (await import("./server/database/process-guard")).installProcessGuards();
  (await import("./server/database/liveness")).startLagSampler();
  const { migrateAndGrant } = await import("./db/roles");
  // As the owner role when MIGRATION_DATABASE_URL is set (then the app role is granted its
  // privileges); otherwise with DATABASE_URL, a no-op when nothing is pending.
  await migrateAndGrant(process.env.DATABASE_URL, process.env.MIGRATION_DATABASE_URL);
  // Stop local MCP processes a previous server on this host left running (crash, kill -9).
  const { reapOrphanedSlots, shutdownAllSlots, startRuntimeMaintenance } = await import("./server/runtime");
  await reapOrphanedSlots(getDb());
  // Slot rows against live processes and the temp-directory reaper: every 30 s and after an outage.
  startRuntimeMaintenance(getDb);
  // Mark executions whose lease nobody renews (a crashed replica's) `outcome_unknown`.
  const { startLeaseSweeper } = await import("./server/ledger/sweep");
  startLeaseSweeper(getDb());
  // MCP Events: detect task changes and deliver signed webhooks (every replica shares the work).
  (await import("./server/events/worker")).startEventWorker(getDb());
  // SIGTERM/SIGINT drain this process (server/lifecycle/shutdown.ts): no new calls, the calls
  // in flight finish within PAPERCLIP_SHUTDOWN_GRACE_MS, then these steps in order, then exit.
  const { installShutdownHandlers, onShutdown, SHUTDOWN_ORDER } = await import("./server/lifecycle/shutdown");
  const { stopLeaseSweeper } = await import("./server/ledger/sweep");
  const { stopEventWorker } = await import("./server/events/worker");
  const { stopRuntimeMaintenance } = await import("./server/runtime");
  onShutdown("workers", SHUTDOWN_ORDER.workers, async () => {
    stopLeaseSweeper();
    stopRuntimeMaintenance();
    await stopEventWorker();
  });
  onShutdown("slots", SHUTDOWN_ORDER.slots, () => shutdownAllSlots());
  onShutdown("database", SHUTDOWN_ORDER.database, () => closeAllDatabases());
  installShutdownHandlers();
}
