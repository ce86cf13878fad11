/**
 * cgroup v2 tracking of slot processes, where the host delegates one to the server: each slot
 * process gets a cgroup of its own under the server's (`paperclip-slot-<server pid>-<random>`),
 * which every descendant inherits and cannot leave without write access to a common ancestor
 * (not `setsid`, not a double fork, not a uid change). Ending the slot signals every member and,
 * after the grace period, `cgroup.kill`s it.
 *
 * Used only where `/sys/fs/cgroup` is a cgroup v2 mount (not the v1 / hybrid layout, whose
 * unified hierarchy sits elsewhere) and the server's own cgroup is writable by it (root, or
 * systemd's `Delegate=yes`). `PAPERCLIP_SLOT_CGROUP=off` turns it off; a path names another
 * cgroup v2 mount (tests). Elsewhere the process group and the slot's own uid track the
 * descendants (`processes.ts`), as they also do here: a process is moved into its cgroup just
 * after it starts, so the group and uid cover the moment before.
 */
import { randomBytes } from "node:crypto";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

const PREFIX = "paperclip-slot-";

/** The server's own cgroup directory when slots can get cgroups of their own here, else null. */
export function slotCgroupBase(env: Record<string, string | undefined> = process.env): string | null {
  const setting = env.PAPERCLIP_SLOT_CGROUP?.trim() || "auto";
  if (setting === "off") return null;
  const mount = setting === "auto" ? "/sys/fs/cgroup" : setting;
  if (!path.isAbsolute(mount)) return null;
  try {
    // The root of a cgroup v2 mount has `cgroup.controllers`; a v1 / hybrid /sys/fs/cgroup does not.
    if (!existsSync(path.join(mount, "cgroup.controllers"))) return null;
    const own = /^0::(\/.*)$/m.exec(readFileSync("/proc/self/cgroup", "utf8"))?.[1];
    if (!own) return null;
    const base = path.join(mount, own);
    accessSync(base, constants.W_OK);
    accessSync(path.join(base, "cgroup.procs"), constants.W_OK);
    return base;
  } catch {
    return null;
  }
}

/** Makes a cgroup for one slot process under `base`; null when it cannot be made. */
export function createSlotCgroup(base: string): string | null {
  const dir = path.join(base, `${PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    mkdirSync(dir);
    return dir;
  } catch {
    return null;
  }
}

/** Moves `pid` into the cgroup (false when it could not). */
export function joinCgroup(dir: string, pid: number): boolean {
  try {
    writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
    return true;
  } catch {
    return false;
  }
}

/** The pids in the cgroup (empty when it is gone). */
export function cgroupMembers(dir: string): number[] {
  try {
    return readFileSync(path.join(dir, "cgroup.procs"), "utf8")
      .split("\n")
      .filter((l) => /^\d+$/.test(l))
      .map(Number);
  } catch {
    return [];
  }
}

/** SIGKILLs every member at once (`cgroup.kill`, Linux 5.14+); false when not available. */
export function killCgroup(dir: string): boolean {
  try {
    writeFileSync(path.join(dir, "cgroup.kill"), "1");
    return true;
  } catch {
    return false;
  }
}

/** Removes an empty cgroup (best effort: a populated one stays). */
export function removeCgroup(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // populated, or gone
  }
}

/**
 * Slot cgroups under `base` whose server process is gone (`alive(pid)` false): left by a server
 * that died. The caller ends their members and removes them.
 */
export function orphanedSlotCgroups(base: string, alive: (pid: number) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(PREFIX))
    .filter((n) => {
      const pid = Number(n.slice(PREFIX.length).split("-")[0]);
      return Number.isInteger(pid) && pid !== process.pid && !alive(pid);
    })
    .map((n) => path.join(base, n));
}
