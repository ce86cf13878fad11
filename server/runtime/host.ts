/**
 * Whether this host runs local stdio servers at all, and how it isolates them.
 *
 * - `PAPERCLIP_STDIO=on|off`: default on only when the server listens on loopback (`HOST`
 *   unset, `127.0.0.1`, `::1`, `localhost`). Off → no slot starts; template creation,
 *   connection tests and calls fail closed with `runtime_host_untrusted`.
 * - Running as root, every slot runs as `PAPERCLIP_SLOT_USER`/`PAPERCLIP_SLOT_GROUP`
 *   (default `nobody`/`nogroup`). Not root: slots run as the server's user, and catalogue
 *   commands marked "requires isolation" are refused unless bwrap is in use.
 * - `PAPERCLIP_SANDBOX=bwrap`: every slot also runs inside bubblewrap (private /tmp,
 *   read-only system, no network unless the command allows it). Configured but unusable →
 *   no slot starts (fail closed).
 *
 * Read on every use (cheap), so an operator's change applies after a restart of the server
 * and tests can flip variables.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { ServiceError } from "../errors";

const LOOPBACK_HOSTS = new Set(["", "127.0.0.1", "::1", "[::1]", "localhost"]);

export interface StdioHostState {
  enabled: boolean;
  /** Plain words: why. */
  reason: string;
}

export function stdioHostState(env: NodeJS.ProcessEnv = process.env): StdioHostState {
  const raw = env.PAPERCLIP_STDIO?.trim().toLowerCase();
  const host = env.HOST?.trim() ?? "";
  if (raw === "on") return { enabled: true, reason: "PAPERCLIP_STDIO=on" };
  if (raw === "off") return { enabled: false, reason: "PAPERCLIP_STDIO=off" };
  if (raw !== undefined && raw !== "") {
    return { enabled: false, reason: `PAPERCLIP_STDIO has an unknown value \`${raw}\` (use on or off)` };
  }
  if (LOOPBACK_HOSTS.has(host.toLowerCase())) {
    return { enabled: true, reason: `the server listens on loopback (HOST=${host || "unset"})` };
  }
  return {
    enabled: false,
    reason: `the server listens on \`${host}\`, not loopback, and PAPERCLIP_STDIO is not set to on`,
  };
}

export const runtimeHostUntrusted = (reason: string) =>
  new ServiceError(
    "runtime_host_untrusted",
    `local stdio servers are switched off on this host (${reason}); the operator enables them with PAPERCLIP_STDIO=on`,
  );

/** Throws `runtime_host_untrusted` when stdio is off. */
export function assertStdioEnabled(): void {
  const state = stdioHostState();
  if (!state.enabled) throw runtimeHostUntrusted(state.reason);
}

// ---------------------------------------------------------------------------------------------
// Isolation

export interface SlotUser {
  uid: number;
  gid: number;
  user: string;
  group: string;
}

export type IsolationPlan =
  | {
      ok: true;
      /** `uid`: slots run as the slot user; `none`: as the server's own user. */
      mode: "uid" | "none";
      /** The sandbox wrapper around each slot. */
      sandbox: "bwrap" | "none";
      slotUser: SlotUser | null;
      /**
       * `PAPERCLIP_SLOT_UID_RANGE`: each slot process gets a uid of its own from this range
       * (with the slot group), so slots cannot read each other's environment or files.
       */
      uidRange: [number, number] | null;
      /** uid drop or bwrap: the slot cannot read PAPERCLIP_HOME. */
      isolated: boolean;
      bwrapPath: string | null;
    }
  | { ok: false; message: string };

const BWRAP_CANDIDATES = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];

export function bwrapPath(): string | null {
  for (const p of BWRAP_CANDIDATES) {
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return null;
}

function lookupId(kind: "passwd" | "group", name: string): { name: string; id: number; gid?: number } | null {
  if (/^\d+$/.test(name)) {
    const id = Number(name);
    return Number.isSafeInteger(id) ? { name, id } : null;
  }
  if (!/^[a-z_][a-z0-9_.-]{0,31}\$?$/i.test(name)) return null;
  try {
    const line = execFileSync("getent", [kind, name], { encoding: "utf8", timeout: 5_000 }).trim();
    const f = line.split(":");
    const id = Number(f[2]);
    if (!Number.isSafeInteger(id)) return null;
    return { name: f[0]!, id, gid: kind === "passwd" ? Number(f[3]) : undefined };
  } catch {
    return null;
  }
}

let slotUserCache: { key: string; value: SlotUser | string } | null = null;

/** The unprivileged user slots run as when the server is root, or why it cannot be used. */
export function resolveSlotUser(env: NodeJS.ProcessEnv = process.env): SlotUser | string {
  const userName = env.PAPERCLIP_SLOT_USER?.trim() || "nobody";
  const groupName = env.PAPERCLIP_SLOT_GROUP?.trim() || "";
  const key = `${userName}:${groupName}`;
  if (slotUserCache?.key === key) return slotUserCache.value;
  let value: SlotUser | string;
  const u = lookupId("passwd", userName);
  if (!u) value = `the slot user \`${userName}\` (PAPERCLIP_SLOT_USER) does not exist`;
  else {
    const g = groupName
      ? lookupId("group", groupName)
      : (lookupId("group", "nogroup") ?? (u.gid !== undefined ? { name: String(u.gid), id: u.gid } : null));
    if (!g) value = `the slot group \`${groupName || "nogroup"}\` (PAPERCLIP_SLOT_GROUP) does not exist`;
    else if (u.id === 0 || g.id === 0) value = "the slot user and group must not be root (uid/gid 0)";
    else value = { uid: u.id, gid: g.id, user: u.name, group: g.name };
  }
  slotUserCache = { key, value };
  return value;
}

let bwrapProbe: { key: string; ok: boolean; message: string } | null = null;

/** Whether bubblewrap starts a sandbox here (run as `user`, i.e. unprivileged namespaces work). */
export function probeBwrap(user: SlotUser | null): { ok: boolean; message: string } {
  const bin = bwrapPath();
  if (!bin) return { ok: false, message: "bwrap is not installed (Debian package `bubblewrap`)" };
  const key = `${bin}:${user?.uid ?? "self"}`;
  if (bwrapProbe?.key === key) return bwrapProbe;
  const r = spawnSync(
    bin,
    ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--", "/bin/true"],
    {
      timeout: 5_000,
      env: { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "ignore", "pipe"],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    },
  );
  const ok = r.status === 0;
  const message = ok
    ? `${bin} works (unprivileged namespaces available)`
    : `${bin} cannot create a sandbox here: ${(r.stderr?.toString("utf8") || r.error?.message || `exit ${r.status}`).trim().slice(0, 300)}`;
  bwrapProbe = { key, ok, message };
  return bwrapProbe;
}

const currentUid = () => (typeof process.getuid === "function" ? process.getuid() : -1);

/** How slots are isolated on this host now. `ok: false` → no slot may start (fail closed). */
export function isolationPlan(env: NodeJS.ProcessEnv = process.env, uid = currentUid()): IsolationPlan {
  const sandboxRaw = env.PAPERCLIP_SANDBOX?.trim().toLowerCase() || "none";
  if (sandboxRaw !== "none" && sandboxRaw !== "bwrap") {
    return {
      ok: false,
      message: `PAPERCLIP_SANDBOX has an unknown value \`${sandboxRaw}\` (use bwrap or none)`,
    };
  }
  let slotUser: SlotUser | null = null;
  let uidRange: [number, number] | null = null;
  if (uid === 0) {
    const u = resolveSlotUser(env);
    if (typeof u === "string") return { ok: false, message: `the server runs as root and ${u}` };
    slotUser = u;
    const raw = env.PAPERCLIP_SLOT_UID_RANGE?.trim();
    if (raw) {
      const m = /^(\d{1,10})-(\d{1,10})$/.exec(raw);
      const [lo, hi] = m ? [Number(m[1]), Number(m[2])] : [Number.NaN, Number.NaN];
      if (!m || lo < 1000 || hi < lo || hi > 2_000_000_000 || hi - lo > 1_000_000) {
        return {
          ok: false,
          message: `PAPERCLIP_SLOT_UID_RANGE \`${raw.slice(0, 40)}\` is not a range such as 200000-200999 (at least 1000, at most a million uids)`,
        };
      }
      uidRange = [lo, hi];
    }
  }
  let bin: string | null = null;
  if (sandboxRaw === "bwrap") {
    const probe = probeBwrap(slotUser);
    if (!probe.ok) return { ok: false, message: `PAPERCLIP_SANDBOX=bwrap, but ${probe.message}` };
    bin = bwrapPath();
  }
  return {
    ok: true,
    mode: slotUser ? "uid" : "none",
    sandbox: sandboxRaw,
    slotUser,
    uidRange,
    isolated: slotUser !== null || sandboxRaw === "bwrap",
    bwrapPath: bin,
  };
}

export const isolationUnavailable = (message: string) =>
  new ServiceError("runtime_isolation_unavailable", message);

/** Test hook: forget cached look-ups (slot user, bwrap probe). */
export function resetHostCaches(): void {
  slotUserCache = null;
  bwrapProbe = null;
}
