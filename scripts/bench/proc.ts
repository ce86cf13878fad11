/**
 * Process plumbing for `npm run bench`: children in their own process groups, a teardown
 * registry that runs on success, failure, Ctrl-C and SIGTERM, free loopback ports, and
 * /proc readers (process tree, RSS, PSS).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Teardown

type Cleanup = { name: string; fn: () => Promise<void> | void };
const cleanups: Cleanup[] = [];
/** Process groups still alive: SIGKILLed synchronously if the bench exits without teardown. */
const liveGroups = new Set<number>();
let tearingDown: Promise<void> | null = null;
let interrupted = false;

/** True once a signal, crash or the watchdog started the teardown: load loops stop. */
export const isInterrupted = () => interrupted;

/** Registers a cleanup step; steps run in reverse order of registration. */
export function onTeardown(name: string, fn: () => Promise<void> | void): void {
  cleanups.push({ name, fn });
}

const STEP_TIMEOUT_MS = 30_000;

export function teardown(): Promise<void> {
  tearingDown ??= (async () => {
    // Keeps the event loop alive: a step waiting on a promise with no handle behind it must
    // not let the process exit half-way through the teardown.
    const keepAlive = setInterval(() => {}, 1_000);
    try {
      while (cleanups.length > 0) {
        const c = cleanups.pop()!;
        if (interrupted) process.stderr.write(`  · ${c.name}\n`);
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(c.fn),
            new Promise<void>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`timed out after ${STEP_TIMEOUT_MS / 1000} s`)),
                STEP_TIMEOUT_MS,
              );
            }),
          ]);
        } catch (err) {
          console.error(`  teardown step "${c.name}" failed: ${err instanceof Error ? err.message : err}`);
        } finally {
          clearTimeout(timer);
        }
      }
    } finally {
      clearInterval(keepAlive);
    }
  })();
  return tearingDown;
}

/** Ctrl-C, SIGTERM, crashes and a watchdog all end in the same teardown. */
let bailOut: ((why: string, code: number) => void) | null = null;

/** Ends the run (teardown, then exit) if it is still going after `timeoutMs`. */
export function armWatchdog(timeoutMs: number): void {
  const watchdog = setTimeout(
    () => bailOut?.(`time budget of ${Math.round(timeoutMs / 1000)} s exceeded`, 124),
    timeoutMs,
  );
  watchdog.unref();
}

export function installExitHandlers(): void {
  let firstSignalAt = 0;
  const bail = (why: string, code: number) => {
    // npm/tsx relay the terminal's Ctrl-C as well: a repeat within 2 s is the same one.
    if (firstSignalAt && Date.now() - firstSignalAt < 2_000) return;
    if (firstSignalAt) {
      console.error(`\n✖ ${why} again: killing children now`);
      killAllGroupsSync();
      process.exit(code);
    }
    firstSignalAt = Date.now();
    interrupted = true;
    console.error(`\n✖ ${why}: tearing down…`);
    const hard = setTimeout(() => {
      killAllGroupsSync();
      process.exit(code);
    }, 30_000);
    hard.unref();
    teardown().finally(() => process.exit(code));
  };
  process.on("SIGINT", () => bail("interrupted", 130));
  process.on("SIGTERM", () => bail("terminated", 143));
  process.on("uncaughtException", (err) => {
    console.error(err);
    bail("uncaught exception", 1);
  });
  process.on("unhandledRejection", (err) => {
    console.error(err);
    bail("unhandled rejection", 1);
  });
  process.on("exit", killAllGroupsSync);
  bailOut = bail;
}

function killAllGroupsSync(): void {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  liveGroups.clear();
}

// ---------------------------------------------------------------------------------------------
// Children

export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  /** The last lines of stdout and stderr, for diagnostics when something fails. */
  tail(): string;
  /** Resolves with the first stdout line for which `match` returns a value. */
  waitForLine<T>(match: (line: string) => T | undefined, timeoutMs: number): Promise<T>;
  exited: Promise<number | null>;
  alive(): boolean;
}

/** Spawns a command as the leader of its own process group (stdin closed). */
export function spawnGroup(
  name: string,
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Child {
  const proc = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  if (!proc.pid) throw new Error(`${name}: could not spawn ${command}`);
  const pid = proc.pid;
  liveGroups.add(pid);
  const lines: string[] = [];
  const waiters = new Set<(line: string) => void>();
  const push = (stream: "out" | "err") => {
    let buf = "";
    return (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      const parts = buf.split("\n");
      buf = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(`${stream === "err" ? "! " : ""}${line}`);
        if (lines.length > 60) lines.shift();
        if (stream === "out") for (const w of [...waiters]) w(line);
      }
    };
  };
  proc.stdout?.on("data", push("out"));
  proc.stderr?.on("data", push("err"));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    proc.once("exit", (code, signal) => {
      exitCode = code ?? (signal ? 128 : null);
      resolve(exitCode);
    });
  });
  return {
    name,
    proc,
    pid,
    tail: () => lines.join("\n"),
    alive: () => exitCode === undefined,
    exited,
    waitForLine<T>(match: (line: string) => T | undefined, timeoutMs: number): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(onLine);
          reject(new Error(`${name}: no ready line within ${timeoutMs} ms\n${lines.join("\n")}`));
        }, timeoutMs);
        const onLine = (line: string) => {
          const v = match(line);
          if (v === undefined) return;
          clearTimeout(timer);
          waiters.delete(onLine);
          resolve(v);
        };
        waiters.add(onLine);
        exited.then((code) => {
          if (!waiters.has(onLine)) return;
          clearTimeout(timer);
          waiters.delete(onLine);
          reject(new Error(`${name} exited (${code}) before it was ready\n${lines.join("\n")}`));
        });
      });
    },
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a child: `signal` to the leader only (`leaderFirst`, so a supervisor such as the start
 * script can stop its own children in order) or to the whole group, then SIGKILL to the group
 * after `graceMs`. Resolves once no process of the group is left.
 */
export async function stopGroup(
  child: Child,
  opts: { signal?: NodeJS.Signals; graceMs?: number; leaderFirst?: boolean } = {},
): Promise<void> {
  const { signal = "SIGTERM", graceMs = 5_000, leaderFirst = false } = opts;
  const pgid = child.pid;
  if (!groupAlive(pgid)) {
    liveGroups.delete(pgid);
    return;
  }
  try {
    if (leaderFirst) process.kill(pgid, signal);
    else process.kill(-pgid, signal);
  } catch {
    // gone already
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!child.alive() && !groupAlive(pgid)) break;
    if (leaderFirst && !child.alive()) {
      // The leader is gone; give its group a moment, then stop the rest.
      await sleep(200);
      if (groupAlive(pgid)) process.kill(-pgid, "SIGTERM");
    }
    await sleep(100);
  }
  if (groupAlive(pgid)) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // gone
    }
    for (let i = 0; i < 30 && groupAlive(pgid); i++) await sleep(100);
  }
  liveGroups.delete(pgid);
}

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const addr = server.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// /proc

interface ProcInfo {
  pid: number;
  ppid: number;
  comm: string;
}

function readProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid …; comm may contain spaces and parentheses
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      out.push({ pid: Number(name), ppid, comm });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Every descendant of `root` (not `root` itself). */
export function descendants(root: number): ProcInfo[] {
  const all = readProcs();
  const byParent = new Map<number, ProcInfo[]>();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const out: ProcInfo[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    for (const c of byParent.get(pid) ?? []) {
      out.push(c);
      stack.push(c.pid);
    }
  }
  return out;
}

/** `VmRSS` / `VmHWM` (peak) of a process, in KiB; 0 when it is gone. */
export function memKiB(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { rss: field("VmRSS"), hwm: field("VmHWM") };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** Proportional set size in KiB (shared pages divided among their users; summable). */
export function pssKiB(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const CLK_TCK = 100; // Linux USER_HZ

/**
 * CPU time of a process in ms: utime + stime, plus the times of its reaped children when
 * `withReapedChildren` (a postmaster accumulates its exited backends there).
 */
export function cpuMs(pid: number, withReapedChildren = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields after the comm: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
    const ticks = Number(f[11]) + Number(f[12]) + (withReapedChildren ? Number(f[13]) + Number(f[14]) : 0);
    return (ticks * 1000) / CLK_TCK;
  } catch {
    return 0;
  }
}
