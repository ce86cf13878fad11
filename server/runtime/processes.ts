/**
 * Process and process-group helpers for runtime slots (Linux `/proc` when present, plain
 * signals elsewhere). A slot's process is started with `detached: true`, so it leads a new
 * session and process group whose id is its pid; grandchildren stay in that group unless
 * they leave it on purpose (setsid/setpgid), which is outside what a process supervisor can
 * contain (see docs/runtime.md).
 */
import { readdirSync, readFileSync } from "node:fs";

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
