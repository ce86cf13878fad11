/**
 * Slot rows against live processes. A row is this server process's record of a slot; when a
 * row write failed (a database outage while a slot started, crashed or stopped) the row and
 * the truth part ways — issue 16 saw a row left `running` with a dead pid, whose unique live
 * key then refused every new slot of that tool (`runtime_unavailable`) until a restart.
 *
 * `reconcileSlotRows` marks stopped every live row of this server process that no live slot of
 * it holds (no slot with that row, a slot that is stopped, or one whose process is gone), and
 * `startRuntimeMaintenance` runs it (with the temp-directory reaper) periodically and whenever
 * the database breaker closes after an outage.
 */
import { and, eq, notInArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolRuntimeSlots } from "@/db/schema";
import { processCell } from "../config/process-singleton";
import { databaseBreaker } from "../database/breaker";
import { sweepAllExpiredArtifacts } from "../ledger/artifact-retention";
import { logError, logInfo } from "../log";
import { isProcessAlive } from "./processes";
import { stoppedRow } from "./reap";
import { pruneRuntimeDir } from "./sandbox";
import { runtimeSupervisor, type Slot } from "./supervisor";

/** Whether `slot` still accounts for a live row: it exists, is not stopped, and its process (if any) runs. */
function holdsRow(slot: Slot | undefined): boolean {
  if (!slot || slot.state === "stopped") return false;
  if (slot.state === "new" || slot.state === "starting" || slot.state === "stopping") return true;
  if (slot.state === "crashed" || slot.state === "suppressed") return true; // its own writes settle it
  return slot.pid !== null && isProcessAlive(slot.pid);
}

export async function reconcileSlotRows(db: Db): Promise<{ examined: number; stopped: number }> {
  const supervisor = runtimeSupervisor();
  const rows = await db
    .select({ id: toolRuntimeSlots.id, status: toolRuntimeSlots.status, pid: toolRuntimeSlots.pid })
    .from(toolRuntimeSlots)
    .where(
      and(
        eq(toolRuntimeSlots.host, supervisor.host),
        eq(toolRuntimeSlots.supervisorId, supervisor.supervisorId),
        notInArray(toolRuntimeSlots.status, ["stopped", "crashed"]),
      ),
    );
  const byRow = new Map(supervisor.allSlots().map((s) => [s.rowId, s]));
  let stopped = 0;
  for (const row of rows) {
    const slot = byRow.get(row.id);
    if (holdsRow(slot)) continue;
    const [done] = await db
      .update(toolRuntimeSlots)
      .set(stoppedRow(`reconciled: the row said ${row.status} but this server runs no process for it`))
      // Only if nobody moved the row meanwhile.
      .where(and(eq(toolRuntimeSlots.id, row.id), eq(toolRuntimeSlots.status, row.status)))
      .returning({ id: toolRuntimeSlots.id });
    if (done) stopped++;
  }
  if (stopped > 0) logInfo("runtime.slot_rows_reconciled", { examined: rows.length, stopped });
  return { examined: rows.length, stopped };
}

/** One maintenance pass: slot rows, the runtime directory, expired artifacts. Never throws. */
export async function runtimeMaintenance(db: Db): Promise<void> {
  try {
    await reconcileSlotRows(db);
  } catch (err) {
    logError("runtime.reconcile_failed", err);
  }
  try {
    pruneRuntimeDir(process.env, undefined, {
      keep: runtimeSupervisor()
        .allSlots()
        .map((s) => s.cwd),
    });
  } catch (err) {
    logError("runtime.prune_failed", err);
  }
  try {
    const swept = await sweepAllExpiredArtifacts(db);
    if (swept > 0) logInfo("gateway.artifacts_expired", { count: swept });
  } catch (err) {
    logError("gateway.artifact_sweep_failed", err);
  }
}

const maintenance = processCell<NodeJS.Timeout>("runtimeMaintenance");

/**
 * Runs `runtimeMaintenance` every `PAPERCLIP_RUNTIME_RECONCILE_MS` (default 30 s) and right
 * after the database comes back; once per process (an unref'd timer).
 */
/** Stops the maintenance loop (the shutdown's step; a pass in progress finishes on its own). */
export function stopRuntimeMaintenance(): void {
  if (maintenance.current) clearInterval(maintenance.current);
  maintenance.current = undefined;
}

export function startRuntimeMaintenance(db: () => Db): void {
  if (maintenance.current) return;
  const every = Number(process.env.PAPERCLIP_RUNTIME_RECONCILE_MS) || 30_000;
  let running = false;
  const pass = () => {
    if (running || databaseBreaker().state !== "closed") return;
    running = true;
    void runtimeMaintenance(db()).finally(() => {
      running = false;
    });
  };
  maintenance.current = setInterval(pass, every);
  maintenance.current.unref();
  databaseBreaker().onRecovered(pass);
}
