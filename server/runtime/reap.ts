/**
 * Orphan reaping. Slot processes lead their own process groups, so they outlive a server
 * that dies without stopping them. At server start, every slot row of this host that is not
 * stopped and whose supervising server process is gone is stopped: its process group is
 * signalled (after checking that the recorded group is still the one that was started) and
 * the row is marked `stopped`.
 */
import { readdirSync } from "node:fs";
import { and, eq, inArray, notInArray } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { toolRuntimeSlots } from "@/db/schema";
import { logInfo, logWarn } from "../log";
import { orphanedSlotCgroups, slotCgroupBase } from "./cgroup";
import {
  hasProcFs,
  isGroupAlive,
  isProcessAlive,
  isSupervisorAlive,
  orphanedProcessesOfUid,
  processGroupMembers,
  processStartedAt,
  processUids,
  procStat,
  signallableUid,
  terminateGroup,
  terminateOrphansOfUid,
  terminateSlotTree,
} from "./processes";
import { pruneRuntimeDir } from "./sandbox";
import { runtimeSupervisor } from "./supervisor";

type SlotRow = typeof toolRuntimeSlots.$inferSelect;

/** How far a process's start time may be from the recorded `started_at`. */
const START_TOLERANCE_MS = 5_000;

/**
 * Whether the process group recorded on `row` still exists and is the one the slot started
 * (not a reused pid): its leader started when the row says, or — with the leader gone — every
 * member started after the slot did.
 */
export function recordedGroupAlive(
  row: Pick<SlotRow, "pid" | "processGroupId" | "startedAt">,
): number | null {
  const pgid = row.processGroupId ?? row.pid;
  if (!pgid || pgid <= 1 || pgid === process.pid) return null;
  const startedAt = row.startedAt ? row.startedAt.getTime() : null;
  if (!hasProcFs()) return isGroupAlive(pgid) ? pgid : null;
  if (isProcessAlive(pgid)) {
    const leader = procStat(pgid);
    if (!leader || leader.pgrp !== pgid) return null; // that pid no longer leads the group
    const t = processStartedAt(pgid);
    if (startedAt !== null && t !== null && Math.abs(t - startedAt) > START_TOLERANCE_MS) return null;
    return pgid;
  }
  const members = processGroupMembers(pgid);
  if (members.length === 0) return null;
  if (startedAt !== null) {
    for (const m of members) {
      const t = processStartedAt(m.pid);
      if (t !== null && t < startedAt - START_TOLERANCE_MS) return null;
    }
  }
  return pgid;
}

/** The columns of a slot row marked stopped by the reaper or the reconciler, with why. */
export const stoppedRow = (note: string) => ({
  status: "stopped" as const,
  pid: null,
  processGroupId: null,
  stoppedAt: new Date(),
  lastError: note,
  updatedAt: new Date(),
});

/**
 * Stops the process group recorded on a row (if it is still the slot's) and marks the row
 * stopped. `persist` runs in the same transaction as the row update.
 */
export async function stopRecordedSlot(
  db: Db,
  row: SlotRow,
  note: string,
  graceMs: number,
  persist?: (tx: Tx) => Promise<void>,
): Promise<{ killed: boolean }> {
  const pgid = recordedGroupAlive(row);
  if (pgid) await terminateGroup(pgid, graceMs);
  // What left the group, by the slot's recorded uid: only orphans (reparented to init), so a
  // uid another live slot holds by now is never touched.
  if (row.slotUid !== null && signallableUid(row.slotUid)) await terminateOrphansOfUid(row.slotUid, graceMs);
  await db.transaction(async (tx) => {
    await tx.update(toolRuntimeSlots).set(stoppedRow(note)).where(eq(toolRuntimeSlots.id, row.id));
    if (persist) await persist(tx);
  });
  return { killed: pgid !== null };
}

/**
 * Run once at server start: stops the slots this host recorded as live whose supervising
 * server process is gone. Slots of another live server process on the same host, and this
 * process's own, are left alone.
 */
export async function reapOrphanedSlots(
  db: Db,
): Promise<{ examined: number; reaped: number; killed: number }> {
  const supervisor = runtimeSupervisor();
  const rows = await db
    .select()
    .from(toolRuntimeSlots)
    .where(
      and(
        eq(toolRuntimeSlots.host, supervisor.host),
        notInArray(toolRuntimeSlots.status, ["stopped", "crashed"]),
      ),
    );
  let reaped = 0;
  let killed = 0;
  for (const row of rows) {
    if (row.supervisorId === supervisor.supervisorId) continue;
    if (row.supervisorId && isSupervisorAlive(row.supervisorId, supervisor.host)) continue;
    try {
      const out = await stopRecordedSlot(
        db,
        row,
        "reaped at server start: the server process that ran it had exited",
        supervisor.config.graceMs,
      );
      reaped++;
      if (out.killed) killed++;
    } catch (err) {
      logWarn("runtime.reap_failed", { slotId: row.id, message: String(err) });
    }
  }
  if (rows.length > 0) logInfo("runtime.orphans_reaped", { examined: rows.length, reaped, killed });
  try {
    await reapLeftoverUids(db);
  } catch (err) {
    logWarn("runtime.reap_uids_failed", { message: String(err) });
  }
  await reapOrphanedCgroups(supervisor.config.graceMs);
  // Directories left by slots of servers that died (their processes are gone now).
  pruneRuntimeDir();
  return { examined: rows.length, reaped, killed };
}

/** Row statuses whose slot process is gone or going (their uid no longer held). */
const RELEASED = new Set(["stopped", "crashed", "suppressed"]);

/** Every live process of this host by (real, effective or saved) uid, for uids a slot may have. */
function processesByUid(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const st = procStat(pid);
    if (!st || st.state === "Z" || st.state === "X") continue;
    for (const uid of new Set(processUids(pid) ?? [])) {
      if (!signallableUid(uid)) continue;
      const list = out.get(uid) ?? [];
      list.push(pid);
      out.set(uid, list);
    }
  }
  return out;
}

/**
 * Run at server start after the rows: ends every orphaned process (`orphanedProcessesOfUid`:
 * reparented to init) of this host that runs as a slot uid recorded on a slot row of this
 * host, unless a live row of a live server process (this one or a sibling) holds that uid now. This finds what the process group cannot: a descendant
 * that left the group (setsid, a double-fork daemon) of a slot whose server died, or whose
 * end it missed. Processes are read before the rows, so a uid a sibling claims meanwhile is
 * in the rows read (a claim skips uids any live process holds).
 */
export async function reapLeftoverUids(db: Db): Promise<{ uids: number; processes: number }> {
  if (!hasProcFs()) return { uids: 0, processes: 0 };
  const supervisor = runtimeSupervisor();
  const byUid = processesByUid();
  if (byUid.size === 0) return { uids: 0, processes: 0 };
  const rows = await db
    .select({
      uid: toolRuntimeSlots.slotUid,
      status: toolRuntimeSlots.status,
      supervisorId: toolRuntimeSlots.supervisorId,
    })
    .from(toolRuntimeSlots)
    .where(
      and(eq(toolRuntimeSlots.host, supervisor.host), inArray(toolRuntimeSlots.slotUid, [...byUid.keys()])),
    );
  const recorded = new Set<number>();
  const held = new Set<number>();
  for (const r of rows) {
    if (r.uid === null) continue;
    recorded.add(r.uid);
    const live = !RELEASED.has(r.status);
    if (live && r.supervisorId && isSupervisorAlive(r.supervisorId, supervisor.host)) held.add(r.uid);
  }
  // This server's own slots (a crashed one may still be ending its processes itself).
  for (const s of supervisor.allSlots()) if (s.uid !== null) held.add(s.uid);
  const doomed = [...recorded].filter((uid) => !held.has(uid));
  if (doomed.length === 0) return { uids: 0, processes: 0 };
  const processes = doomed.reduce((n, uid) => n + orphanedProcessesOfUid(uid).length, 0);
  await Promise.all(doomed.map((uid) => terminateOrphansOfUid(uid, supervisor.config.graceMs)));
  logInfo("runtime.slot_uids_reaped", { uids: doomed, processes });
  return { uids: doomed.length, processes };
}

/**
 * Run at server start: ends the members of slot cgroups (`cgroup.ts`) under this server's
 * cgroup whose server process is gone, and removes them. Only where slots get cgroups.
 */
export async function reapOrphanedCgroups(graceMs: number): Promise<number> {
  const base = slotCgroupBase();
  if (!base) return 0;
  const dirs = orphanedSlotCgroups(base, isProcessAlive);
  await Promise.all(dirs.map((cgroup) => terminateSlotTree({ pgid: null, uid: null, cgroup }, graceMs)));
  if (dirs.length > 0) logInfo("runtime.slot_cgroups_reaped", { cgroups: dirs.length });
  return dirs.length;
}
