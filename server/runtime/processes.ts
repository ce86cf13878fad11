/**
 * Process and process-group helpers for runtime slots (Linux `/proc` when present, plain
 * signals elsewhere). A slot's process is started with `detached: true`, so it leads a new
 * session and process group whose id is its pid; grandchildren stay in that group unless
 * they leave it on purpose (setsid/setpgid), which is outside what a process supervisor can
 * contain (see docs/runtime.md).
 */
import { readdirSync, readFileSync } from "node:fs";
import { cgroupMembers, killCgroup, removeCgroup } from "./cgroup";

export interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
  /** Start time in clock ticks since boot. */
  startTicks: number;
}

const HAS_PROC = (() => {
  try {
    readFileSync("/proc/self/stat", "utf8");
    return true;
  } catch {
    return false;
  }
})();

/** Whether `/proc` can be read (Linux): start times and group membership are known. */
export const hasProcFs = () => HAS_PROC;

/** Clock ticks per second of `/proc/<pid>/stat` start times (USER_HZ, 100 on Linux). */
const CLK_TCK = 100;

export function procStat(pid: number): ProcStat | null {
  if (!HAS_PROC || !Number.isInteger(pid) || pid <= 0) return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or ")".
  const close = text.lastIndexOf(")");
  if (close < 0) return null;
  const f = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  return {
    pid,
    state: f[0] ?? "?",
    ppid: Number(f[1]),
    pgrp: Number(f[2]),
    startTicks: Number(f[19]),
  };
}

let bootTimeMs: number | null | undefined;
function bootTime(): number | null {
  if (bootTimeMs !== undefined) return bootTimeMs;
  bootTimeMs = null;
  try {
    const m = /^btime\s+(\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    if (m) bootTimeMs = Number(m[1]) * 1000;
  } catch {
    // not Linux
  }
  return bootTimeMs;
}

/** When a process started (epoch ms, ~10 ms resolution), or null when unknown. */
export function processStartedAt(pid: number): number | null {
  const st = procStat(pid);
  const boot = bootTime();
  if (!st || boot === null || !Number.isFinite(st.startTicks)) return null;
  return boot + (st.startTicks * 1000) / CLK_TCK;
}

/** The process exists and is not a zombie (an exited process its parent has not reaped). */
export function isProcessAlive(pid: number | null | undefined): boolean {
  if (!pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const st = procStat(pid);
  return st ? st.state !== "Z" && st.state !== "X" : true;
}

/** Every live (non-zombie) process whose process group is `pgid` (Linux only; else []). */
export function processGroupMembers(pgid: number): ProcStat[] {
  if (!HAS_PROC) return [];
  const out: ProcStat[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (st && st.pgrp === pgid && st.state !== "Z" && st.state !== "X") out.push(st);
  }
  return out;
}

/** Live (non-zombie) direct children of `pid` (Linux only; else []). */
export function childProcesses(pid: number): ProcStat[] {
  if (!HAS_PROC) return [];
  const out: ProcStat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (st && st.ppid === pid && st.state !== "Z" && st.state !== "X") out.push(st);
  }
  return out;
}

/** Any live process is left in the group. */
export function isGroupAlive(pgid: number): boolean {
  if (!pgid || pgid <= 1) return false;
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // `kill(-pgid, 0)` also succeeds for zombies; /proc tells them apart.
  return HAS_PROC ? processGroupMembers(pgid).length > 0 : true;
}

/** Sends a signal to every process of the group; false when the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  // Never signal our own group, init's, or "every process" (-1).
  if (!Number.isInteger(pgid) || pgid <= 1 || pgid === process.pid) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Stops a whole process group: SIGTERM, then SIGKILL once `graceMs` has passed with any
 * member still alive. Resolves when the group is gone (or after a last bounded wait).
 */
export async function terminateGroup(
  pgid: number,
  graceMs: number,
): Promise<{ signalled: boolean; killed: boolean }> {
  if (!signalGroup(pgid, "SIGTERM")) return { signalled: false, killed: false };
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isGroupAlive(pgid)) return { signalled: true, killed: false };
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
  }
  if (!isGroupAlive(pgid)) return { signalled: true, killed: false };
  signalGroup(pgid, "SIGKILL");
  const hard = Date.now() + 2_000;
  while (Date.now() < hard && isGroupAlive(pgid)) await sleep(25);
  return { signalled: true, killed: true };
}

/** This process's identity as a supervisor: `host/pid/start ticks`. */
export function processIdentity(host: string, pid = process.pid): string {
  return `${host}/${pid}/${procStat(pid)?.startTicks ?? 0}`;
}

/** Whether the supervisor named by `processIdentity` (on this host) still runs. */
export function isSupervisorAlive(id: string, host: string): boolean {
  const [h, pidText, ticks] = id.split("/");
  if (h !== host) return false;
  const pid = Number(pidText);
  if (!isProcessAlive(pid)) return false;
  const st = procStat(pid);
  // Same pid, different start time: the pid was reused by another process.
  return !st || ticks === "0" || String(st.startTicks) === ticks;
}

// ------------------------------------------------------------------------------------------
// A slot's whole tree: its process group and, when the slot has a uid of its own, every
// process of that uid. A descendant that leaves the group (setsid, a double-fork daemon) keeps
// the slot's uid — without a setuid binary it cannot drop it — so the uid finds it.

/** What identifies every process of one slot process: its group, and its own uid (or null). */
export interface SlotTree {
  pgid: number | null;
  /** Only a uid no other live slot holds (claimed in the database); null when shared. */
  uid: number | null;
  /** The slot process's own cgroup v2 directory (`cgroup.ts`), where the host delegates one. */
  cgroup?: string | null;
}

/** Real, effective and saved uids of a process (Linux), or null when it is gone. */
export function processUids(pid: number): number[] | null {
  if (!HAS_PROC) return null;
  try {
    const m = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
  } catch {
    return null;
  }
}

/** A uid it is safe to signal every process of: never root's, the server's or a system one. */
const ownUid = typeof process.getuid === "function" ? process.getuid() : -1;
export const signallableUid = (uid: number | null | undefined): uid is number =>
  typeof uid === "number" && Number.isInteger(uid) && uid >= 1000 && uid !== ownUid;

/**
 * Every live (non-zombie) process of the tree: members of the group, and processes any of
 * whose real, effective or saved uid is the slot's own (Linux; elsewhere the group leader when
 * alive).
 */
export function slotTreeMembers(tree: SlotTree): number[] {
  const pgid = tree.pgid && tree.pgid > 1 && tree.pgid !== process.pid ? tree.pgid : null;
  const uid = signallableUid(tree.uid) ? tree.uid : null;
  const out = new Set<number>();
  if (tree.cgroup) {
    for (const pid of cgroupMembers(tree.cgroup))
      if (pid > 1 && pid !== process.pid && isProcessAlive(pid)) out.add(pid);
  }
  if (!HAS_PROC) {
    if (pgid && isGroupAlive(pgid)) out.add(pgid);
    return [...out];
  }
  if (pgid === null && uid === null) return [...out];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [...out];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const st = procStat(pid);
    if (!st || st.state === "Z" || st.state === "X") continue;
    if (pgid !== null && st.pgrp === pgid) {
      out.add(pid);
      continue;
    }
    if (uid !== null && processUids(pid)?.includes(uid)) out.add(pid);
  }
  return [...out];
}

/** Uids whose processes this server is ending now: never handed to a new slot meanwhile. */
export const terminatingUids = new Map<number, number>();

function signalTree(tree: SlotTree, pids: number[], signal: NodeJS.Signals): void {
  if (tree.pgid) signalGroup(tree.pgid, signal);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Ends every process of a slot's tree: SIGTERM, then SIGKILL once `graceMs` has passed with
 * any left (re-read on every pass, so a child forked meanwhile is found too). Resolves when
 * none is left, or after a last bounded wait.
 */
export async function terminateSlotTree(
  tree: SlotTree,
  graceMs: number,
): Promise<{ signalled: boolean; killed: boolean }> {
  const uid = signallableUid(tree.uid) ? tree.uid : null;
  if (!tree.cgroup && (!HAS_PROC || uid === null)) {
    // Without /proc (or a uid or cgroup of its own) the group is all that can be found.
    return tree.pgid ? terminateGroup(tree.pgid, graceMs) : { signalled: false, killed: false };
  }
  try {
    return await terminateMembers(() => slotTreeMembers(tree), tree.pgid, uid, graceMs, tree.cgroup);
  } finally {
    if (tree.cgroup) removeCgroup(tree.cgroup);
  }
}

/**
 * The processes of `uid` no live process of another uid parents: following each one's
 * parents while they run as `uid`, the first other ancestor is init (PID 1), this server
 * process (when it is PID 1 in a container) or gone. What a dead server's slots leave behind
 * (reparented to init); a live slot of another instance on the host, still the child of its
 * server, is not one of them.
 */
export function orphanedProcessesOfUid(uid: number): number[] {
  if (!HAS_PROC || !signallableUid(uid)) return [];
  const ofUid = new Map<number, ProcStat>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (!st || st.state === "Z" || st.state === "X") continue;
    if (processUids(st.pid)?.includes(uid)) ofUid.set(st.pid, st);
  }
  const out: number[] = [];
  for (const st of ofUid.values()) {
    let top = st;
    for (let hops = 0; hops < 4096; hops++) {
      const parent = ofUid.get(top.ppid);
      if (!parent) break;
      top = parent;
    }
    const p = top.ppid;
    if (p <= 1 || p === process.pid || !isProcessAlive(p)) out.push(st.pid);
  }
  return out;
}

/** Ends the orphaned processes of a slot uid (`orphanedProcessesOfUid`): SIGTERM, grace, SIGKILL. */
export function terminateOrphansOfUid(
  uid: number,
  graceMs: number,
): Promise<{ signalled: boolean; killed: boolean }> {
  return terminateMembers(() => orphanedProcessesOfUid(uid), null, uid, graceMs);
}

async function terminateMembers(
  members: () => number[],
  pgid: number | null,
  uid: number | null,
  graceMs: number,
  cgroup?: string | null,
): Promise<{ signalled: boolean; killed: boolean }> {
  if (uid !== null) terminatingUids.set(uid, (terminatingUids.get(uid) ?? 0) + 1);
  try {
    let pids = members();
    if (pids.length === 0) return { signalled: false, killed: false };
    signalTree({ pgid, uid }, pids, "SIGTERM");
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
      pids = members();
      if (pids.length === 0) return { signalled: true, killed: false };
      // A process forked after the first signal has not had its SIGTERM yet.
      signalTree({ pgid: null, uid }, pids, "SIGTERM");
    }
    const hard = Date.now() + 2_000;
    do {
      if (cgroup) killCgroup(cgroup);
      signalTree({ pgid, uid }, pids, "SIGKILL");
      await sleep(25);
      pids = members();
    } while (pids.length > 0 && Date.now() < hard);
    return { signalled: true, killed: true };
  } finally {
    if (uid !== null) {
      const n = (terminatingUids.get(uid) ?? 1) - 1;
      if (n <= 0) terminatingUids.delete(uid);
      else terminatingUids.set(uid, n);
    }
  }
}

/** SIGKILLs every process of the tree at once (synchronous: process exit). */
export function killSlotTreeNow(tree: SlotTree): void {
  if (tree.cgroup) killCgroup(tree.cgroup);
  signalTree(
    tree,
    signallableUid(tree.uid) || tree.cgroup
      ? slotTreeMembers({ pgid: null, uid: tree.uid, cgroup: tree.cgroup })
      : [],
    "SIGKILL",
  );
}
