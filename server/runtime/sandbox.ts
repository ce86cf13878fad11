/**
 * Where slot processes live on disk and how they are spawned:
 *
 * - the runtime directory (`PAPERCLIP_RUNTIME_DIR`, default `<tmp>/paperclip-runtime-<uid>`),
 *   owned by the server, mode 0711: others may traverse it, never list it. It is never under
 *   PAPERCLIP_HOME, which the slot user must not be able to enter;
 * - `bundles/<hash>/serve.mjs`: the product's fixture servers bundled (esbuild) into one
 *   read-only file, so a slot user can run them even when the checkout (and its
 *   node_modules) sits where it cannot read, e.g. under /root;
 * - `slots/slot-XXXXXX`: one fresh working directory per slot process, owned by the slot user
 *   (0700), removed when the process stops;
 * - the spawn plan: the slot user's uid/gid when the server is root, and bubblewrap around it
 *   with `PAPERCLIP_SANDBOX=bwrap`.
 */

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { processCell } from "../config/process-singleton";
import { logWarn } from "../log";
import type { IsolationPlan, SlotUser } from "./host";

const execFileAsync = promisify(execFile);

const myUid = () => (typeof process.getuid === "function" ? process.getuid() : -1);

export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.PAPERCLIP_RUNTIME_DIR?.trim();
  return configured && path.isAbsolute(configured)
    ? path.normalize(configured)
    : path.join(os.tmpdir(), `paperclip-runtime-${myUid()}`);
}

/** The instance home (secrets). Slots never get a working directory inside it. */
export function paperclipHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.PAPERCLIP_HOME?.trim() || path.join(os.homedir(), ".paperclip"));
}

const inside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/**
 * Creates (or checks) a directory the server owns with exactly `mode`. Refuses a symlink, a
 * directory owned by someone else, or one others may write: a local user could otherwise
 * have prepared it (it usually sits in the shared /tmp).
 */
function ownedDir(dir: string, mode: number): string {
  try {
    mkdirSync(dir, { mode });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`\`${dir}\` is not a directory`);
  if (myUid() >= 0 && st.uid !== myUid()) throw new Error(`\`${dir}\` is owned by another user`);
  if ((st.mode & 0o7777) !== mode) chmodSync(dir, mode);
  return dir;
}

/** The runtime directory, checked; throws when it is unusable. */
export function ensureRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = runtimeDir(env);
  if (inside(dir, paperclipHomeDir(env))) {
    throw new Error(
      "PAPERCLIP_RUNTIME_DIR must not be inside PAPERCLIP_HOME (the slot user must not enter it)",
    );
  }
  mkdirSync(path.dirname(dir), { recursive: true });
  ownedDir(dir, 0o711);
  ownedDir(path.join(dir, "bundles"), 0o711);
  ownedDir(path.join(dir, "slots"), 0o711);
  return dir;
}

/**
 * When slots are isolated, PAPERCLIP_HOME must not be open to others: tighten it to 0700 when
 * the server owns it, otherwise refuse.
 */
export function closeHomeToOthers(env: NodeJS.ProcessEnv = process.env): void {
  const home = paperclipHomeDir(env);
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(home);
  } catch {
    return; // nothing there yet: it is created 0700 (server/config/home.ts)
  }
  if ((st.mode & 0o077) === 0) return;
  if (st.uid !== myUid()) {
    throw new Error(`PAPERCLIP_HOME (\`${home}\`) is open to other users and is not owned by the server`);
  }
  chmodSync(home, st.mode & 0o700);
}

/** A fresh working directory for one slot process, owned by the slot user (0700). */
export function makeSlotDir(runtime: string, user: SlotUser | null): string {
  const dir = mkdtempSync(path.join(runtime, "slots", "slot-"));
  writeSlotOwner(dir);
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  return dir;
}

/** The marker naming the server that made a slot directory (host, kernel boot, pid). */
export const SLOT_OWNER_FILE = ".paperclip-owner";

const kernelBootId = (): string | null => {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
  } catch {
    return null;
  }
};

/** Writes `dir`'s owner marker: this host, this boot, this process. */
export function writeSlotOwner(
  dir: string,
  owner = { host: os.hostname(), bootId: kernelBootId(), pid: process.pid },
) {
  writeFileSync(path.join(dir, SLOT_OWNER_FILE), JSON.stringify(owner), { mode: 0o644 });
}

/**
 * Whether this server may remove a slot directory: its marker names this host and this kernel
 * boot, and a server process that is this one or no longer exists (so its pid is meaningful).
 * No marker, an unreadable one, another host (a runtime directory shared between hosts),
 * another or unknown boot, or a live other server (a replica on this host): not ours, left.
 */
function ownedByThisHost(dir: string): boolean {
  let owner: { host?: unknown; bootId?: unknown; pid?: unknown };
  try {
    owner = JSON.parse(readFileSync(path.join(dir, SLOT_OWNER_FILE), "utf8"));
  } catch {
    return false;
  }
  const boot = kernelBootId();
  if (owner.host !== os.hostname() || !boot || owner.bootId !== boot) return false;
  if (typeof owner.pid !== "number" || !Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return false; // alive: that server prunes its own
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Removes what slots of dead servers left behind: slot directories no live process works in
 * (Linux /proc) and older than `slotMaxAgeMs` (default 2 minutes: every start makes a fresh
 * directory and starts its process in it at once, so an unused one older than that belongs to
 * a process that is gone, e.g. after `kill -9` of its server), except those in `keep` and those
 * this server cannot prove are its host's (`ownedByThisHost`: /proc may not show another
 * user's cwd, and a runtime directory may be shared; such directories are left and logged); and
 * bundles of other source versions untouched for `maxAgeMs` (a day). Best effort; returns how
 * many directories went. Run at server start and periodically (server/runtime/reconcile.ts).
 */
export function pruneRuntimeDir(
  env: NodeJS.ProcessEnv = process.env,
  maxAgeMs = 24 * 3600_000,
  opts: { slotMaxAgeMs?: number; keep?: Iterable<string | null> } = {},
): number {
  const dir = runtimeDir(env);
  if (!existsSync(dir)) return 0;
  const inUse = new Set<string>([...(opts.keep ?? [])].filter((d): d is string => Boolean(d)));
  const slotMaxAgeMs = opts.slotMaxAgeMs ?? 120_000;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        inUse.add(readlinkSync(`/proc/${pid}/cwd`));
      } catch {
        // gone, or not ours to read
      }
    }
  } catch {
    return 0; // no /proc: we cannot tell which directories are in use
  }
  const old = (p: string, limit = maxAgeMs) => {
    try {
      return Date.now() - lstatSync(p).mtimeMs > limit;
    } catch {
      return false;
    }
  };
  let removed = 0;
  const remove = (p: string) => {
    rmSync(p, { recursive: true, force: true });
    removed++;
  };
  const notOurs: string[] = [];
  try {
    const slots = path.join(dir, "slots");
    for (const name of existsSync(slots) ? readdirSync(slots) : []) {
      const p = path.join(slots, name);
      if (!name.startsWith("slot-") || !old(p, slotMaxAgeMs) || [...inUse].some((c) => inside(c, p)))
        continue;
      if (ownedByThisHost(p)) remove(p);
      else notOurs.push(name);
    }
    if (notOurs.length > 0)
      logWarn("runtime.slot_dirs_left", {
        count: notOurs.length,
        dirs: notOurs.slice(0, 10),
        reason: "not_ours",
      });
    const bundles = path.join(dir, "bundles");
    const current = existsSync(path.join(productRoot(), "fixtures", "mcp"))
      ? sourceHash(productRoot())
      : null;
    for (const name of existsSync(bundles) ? readdirSync(bundles) : []) {
      const p = path.join(bundles, name);
      if (name !== current && old(p)) remove(p);
    }
  } catch {
    // best effort
  }
  return removed;
}

// ---------------------------------------------------------------------------------------------
// The fixture bundle

/** Where the product's files are: the server runs from its checkout (`npm start` sets cwd). */
export const productRoot = () => process.cwd();

const sourceHashes = new Map<string, string>();

/** The fixtures' source version (read once per process: a deployed checkout does not change). */
function sourceHash(root: string): string {
  let hash = sourceHashes.get(root);
  if (!hash) {
    hash = computeSourceHash(root);
    sourceHashes.set(root, hash);
  }
  return hash;
}

function computeSourceHash(root: string): string {
  const h = createHash("sha256").update("bundle-v1\0");
  const dir = path.join(root, "fixtures", "mcp");
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
    h.update(name)
      .update("\0")
      .update(readFileSync(path.join(dir, name)))
      .update("\0");
  }
  const lock = path.join(root, "package-lock.json");
  if (existsSync(lock)) h.update(readFileSync(lock));
  return h.digest("hex").slice(0, 20);
}

const bundleBuild = processCell<{ key: string; promise: Promise<string> }>("fixtureBundle");

/**
 * The path of the fixture bundle (`serve.mjs`, world-readable, in a directory only the server
 * writes), built once per source version with esbuild. Each fixture runs as
 * `node serve.mjs <fixture> --stdio`.
 */
export function fixtureBundle(runtime: string, root = productRoot()): Promise<string> {
  const hash = sourceHash(root);
  const key = `${runtime}:${hash}`;
  const cached = bundleBuild.current;
  // Reused while its file is there (another server's pruning may have removed an old one).
  if (cached?.key === key && existsSync(path.join(runtime, "bundles", hash, "serve.mjs")))
    return cached.promise;
  const promise: Promise<string> =
    cached?.key === key
      ? // Still building (or removed since): wait for that build, then build again if needed.
        cached.promise.then((file) => (existsSync(file) ? file : buildBundle(runtime, root, hash)))
      : buildBundle(runtime, root, hash);
  bundleBuild.current = { key, promise };
  promise.catch(() => {
    if (bundleBuild.current?.promise === promise) bundleBuild.current = undefined;
  });
  return promise;
}

async function buildBundle(runtime: string, root: string, hash: string): Promise<string> {
  const finalDir = path.join(runtime, "bundles", hash);
  const file = path.join(finalDir, "serve.mjs");
  if (existsSync(file)) {
    const st = lstatSync(file);
    if (st.isFile() && st.uid === myUid() && (st.mode & 0o022) === 0) return file;
    rmSync(finalDir, { recursive: true, force: true });
  }
  const tmp = mkdtempSync(path.join(runtime, "bundles", ".build-"));
  try {
    const esbuild = path.join(root, "node_modules", "esbuild", "bin", "esbuild");
    // The package's bin is either its native binary or a node script with a shebang.
    await execFileAsync(
      esbuild,
      [
        path.join(root, "fixtures", "mcp", "serve.ts"),
        "--bundle",
        "--platform=node",
        "--format=esm",
        "--target=node20",
        "--log-level=error",
        `--outfile=${path.join(tmp, "serve.mjs")}`,
        // CommonJS dependencies call require(); give the ESM bundle one.
        "--banner:js=import { createRequire as __pcCreateRequire } from 'node:module'; const require = __pcCreateRequire(import.meta.url);",
      ],
      { cwd: root, timeout: 120_000, maxBuffer: 4 * 1024 * 1024 },
    );
    chmodSync(path.join(tmp, "serve.mjs"), 0o644);
    chmodSync(tmp, 0o755);
    try {
      renameSync(tmp, finalDir);
    } catch {
      // Another server process built it first.
      rmSync(tmp, { recursive: true, force: true });
    }
    return file;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`the fixture bundle could not be built: ${(err as Error).message.slice(0, 500)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Readability for the slot user

/**
 * Why the slot user could not run `file` (each directory on the way must be searchable and
 * the file readable and executable by "others"), or null. Only the "other" bits count: the
 * slot user is assumed to be in no group of the server's files.
 */
export function unreadableForOthers(file: string, needExec: boolean): string | null {
  const abs = path.resolve(file);
  const parts = abs.split(path.sep).filter(Boolean);
  let cur: string = path.sep;
  for (const part of parts.slice(0, -1)) {
    cur = path.join(cur, part);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(cur);
    } catch {
      return `\`${cur}\` does not exist`;
    }
    if (!(st.mode & 0o001)) return `the slot user cannot enter \`${cur}\``;
  }
  try {
    accessSync(abs, constants.R_OK);
    const st = statSync(abs);
    if (!(st.mode & 0o004)) return `the slot user cannot read \`${abs}\``;
    if (needExec && !(st.mode & 0o001)) return `the slot user cannot execute \`${abs}\``;
  } catch {
    return `\`${abs}\` does not exist`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The spawn plan

export interface SpawnPlan {
  command: string;
  args: string[];
  uid?: number;
  gid?: number;
}

/**
 * Wraps `command args` for the isolation plan: the slot user's uid/gid (root server), and
 * bubblewrap (read-only system, private /tmp, PAPERCLIP_HOME and the other slots' directories
 * hidden, only `cwd` writable, no network unless allowed).
 */
export function spawnPlan(
  plan: Extract<IsolationPlan, { ok: true }>,
  user: SlotUser | null,
  command: string,
  args: string[],
  opts: { cwd: string; runtime: string; readOnly: string[]; allowNetwork: boolean; writable: string[] },
): SpawnPlan {
  const ids = user ? { uid: user.uid, gid: user.gid } : {};
  if (plan.sandbox !== "bwrap" || !plan.bwrapPath) return { command, args, ...ids };
  const home = paperclipHomeDir();
  const b: string[] = [
    "--die-with-parent",
    "--unshare-all",
    ...(opts.allowNetwork ? ["--share-net"] : []),
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--tmpfs",
    "/var/tmp",
    "--tmpfs",
    "/dev/shm",
  ];
  // PAPERCLIP_HOME: an empty directory nobody may enter.
  if (existsSync(home)) b.push("--perms", "0000", "--tmpfs", home, "--remount-ro", home);
  // The runtime directory (other slots' directories) hidden, then what this slot needs put
  // back, then made read-only: only its own directory is writable.
  b.push("--perms", "0711", "--tmpfs", opts.runtime);
  for (const p of opts.readOnly) b.push("--ro-bind", p, p);
  b.push("--bind", opts.cwd, opts.cwd);
  for (const p of opts.writable) if (p !== opts.cwd) b.push("--bind", p, p);
  b.push("--remount-ro", opts.runtime);
  b.push("--chdir", opts.cwd, "--", command, ...args);
  return { command: plan.bwrapPath, args: b, ...ids };
}
