/**
 * Whether this host runs local stdio servers at all, and how it isolates them.
 *
 * - `PAPERCLIP_STDIO=on|off`: default on only when the server listens on loopback (`HOST`
 *   unset, `127.0.0.1`, `::1`, `localhost`). Off → no slot starts; template creation,
 *   connection tests and calls fail closed with `runtime_host_untrusted`.
 * - Running as root, every slot process runs as a uid and gid of its own, taken from
 *   `PAPERCLIP_SLOT_UID_RANGE` (default 200000-265535) and recorded on its row (unique per
 *   live slot of a host, `slot-uids.ts`). Not root: slots run as the server's user, catalogue
 *   commands marked "requires isolation" are refused unless bwrap is in use, and so are slots
 *   with bound secrets (`slot_isolation_unavailable`) unless `PAPERCLIP_SLOT_SHARED_UID=allow`.
 * - `PAPERCLIP_SANDBOX=bwrap`: every slot also runs inside bubblewrap (private /tmp,
 *   read-only system, no network unless the command allows it). Configured but unusable →
 *   no slot starts (fail closed).
 *
 * Read on every use (cheap), so an operator's change applies after a restart of the server
 * and tests can flip variables.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
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

/**
 * As root, each slot process runs as a uid (and gid) of its own from this range unless
 * `PAPERCLIP_SLOT_UID_RANGE` names another: 65,536 ids above the usual account and subuid
 * ranges' starts, which no account of a stock Debian host uses.
 */
export const DEFAULT_SLOT_UID_RANGE: readonly [number, number] = [200000, 265535];

/** The uid and gid one slot process runs as (a root server gives each slot its own). */
export interface SlotUser {
  uid: number;
  gid: number;
  user: string;
  group: string;
}

export type IsolationPlan =
  | {
      ok: true;
      /** `uid`: each slot runs as a uid of its own from `uidRange`; `none`: as the server's user. */
      mode: "uid" | "none";
      /** The sandbox wrapper around each slot. */
      sandbox: "bwrap" | "none";
      /** Root server: the range each slot's own uid (and gid) is taken from. */
      uidRange: [number, number] | null;
      /** uid drop or bwrap: the slot cannot read PAPERCLIP_HOME. */
      isolated: boolean;
      /**
       * Whether one slot is kept from another's process (its `/proc/<pid>/environ`, its
       * secrets): a uid of its own (root), or bwrap's user and PID namespaces.
       */
      separated: boolean;
      /** `PAPERCLIP_SLOT_SHARED_UID=allow`: the operator accepts unseparated slots with secrets. */
      sharedUidAllowed: boolean;
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

let bwrapProbe: { key: string; ok: boolean; message: string } | null = null;

/** Whether bubblewrap starts a sandbox here (run as `user`, i.e. unprivileged namespaces work). */
export function probeBwrap(user: Pick<SlotUser, "uid" | "gid"> | null): { ok: boolean; message: string } {
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

/** `PAPERCLIP_SLOT_UID_RANGE` (or the default), or why it is unusable. */
export function slotUidRange(env: NodeJS.ProcessEnv = process.env): [number, number] | string {
  const raw = env.PAPERCLIP_SLOT_UID_RANGE?.trim();
  if (!raw) return [DEFAULT_SLOT_UID_RANGE[0], DEFAULT_SLOT_UID_RANGE[1]];
  const m = /^(\d{1,10})-(\d{1,10})$/.exec(raw);
  const [lo, hi] = m ? [Number(m[1]), Number(m[2])] : [Number.NaN, Number.NaN];
  // At least 1000 (below are system and first accounts), at most 2^31-1 (a signed uid_t),
  // and at most a million ids: the allocator scans the range.
  if (!m || lo < 1000 || hi < lo || hi > 2_000_000_000 || hi - lo > 1_000_000) {
    return `PAPERCLIP_SLOT_UID_RANGE \`${raw.slice(0, 40)}\` is not a range such as 200000-265535 (at least 1000, at most a million uids)`;
  }
  return [lo, hi];
}

function readUidMap(): string | null {
  try {
    return readFileSync("/proc/self/uid_map", "utf8");
  } catch {
    return null;
  }
}

/**
 * Whether every uid of `range` exists in this process's user namespace (`/proc/self/uid_map`
 * lines: inside, outside, count). A root server inside a container may map only some uids;
 * a slot started as an unmapped uid fails with EINVAL, so the plan says why instead. True
 * where the map cannot be read (not Linux).
 */
export function uidRangeMapped(
  range: readonly [number, number],
  uidMap: string | null = readUidMap(),
): boolean {
  if (uidMap === null) return true;
  const spans = uidMap
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter((f) => f.length === 3 && f.every(Number.isSafeInteger))
    .map(([inside, , count]) => [inside!, inside! + count! - 1] as const)
    .sort((x, y) => x[0] - y[0]);
  let next = range[0];
  for (const [lo, hi] of spans) {
    if (lo > next) break;
    if (hi >= next) next = hi + 1;
    if (next > range[1]) return true;
  }
  return false;
}

/** How slots are isolated on this host now. `ok: false` → no slot may start (fail closed). */
export function isolationPlan(env: NodeJS.ProcessEnv = process.env, uid = currentUid()): IsolationPlan {
  const sandboxRaw = env.PAPERCLIP_SANDBOX?.trim().toLowerCase() || "none";
  if (sandboxRaw !== "none" && sandboxRaw !== "bwrap") {
    return {
      ok: false,
      message: `PAPERCLIP_SANDBOX has an unknown value \`${sandboxRaw}\` (use bwrap or none)`,
    };
  }
  const sharedRaw = env.PAPERCLIP_SLOT_SHARED_UID?.trim().toLowerCase() || "deny";
  if (sharedRaw !== "allow" && sharedRaw !== "deny") {
    return {
      ok: false,
      message: `PAPERCLIP_SLOT_SHARED_UID has an unknown value \`${sharedRaw.slice(0, 40)}\` (use allow or deny)`,
    };
  }
  let uidRange: [number, number] | null = null;
  if (uid === 0) {
    // INVARIANT: a root server never runs a slot as root, nor two slots as one uid.
    const range = slotUidRange(env);
    if (typeof range === "string") return { ok: false, message: range };
    if (!uidRangeMapped(range)) {
      return {
        ok: false,
        message: `the slot uids ${range[0]}-${range[1]} are not all mapped in this user namespace (a container?); set PAPERCLIP_SLOT_UID_RANGE to uids /proc/self/uid_map maps`,
      };
    }
    uidRange = range;
  }
  let bin: string | null = null;
  if (sandboxRaw === "bwrap") {
    const probe = probeBwrap(uidRange ? { uid: uidRange[0], gid: uidRange[0] } : null);
    if (!probe.ok) return { ok: false, message: `PAPERCLIP_SANDBOX=bwrap, but ${probe.message}` };
    bin = bwrapPath();
  }
  return {
    ok: true,
    mode: uidRange ? "uid" : "none",
    sandbox: sandboxRaw,
    uidRange,
    isolated: uidRange !== null || sandboxRaw === "bwrap",
    // bwrap (not root) runs each slot in a user and PID namespace of its own: another slot's
    // processes are not even visible to it.
    separated: uidRange !== null || sandboxRaw === "bwrap",
    sharedUidAllowed: sharedRaw === "allow",
    bwrapPath: bin,
  };
}

export const isolationUnavailable = (message: string) =>
  new ServiceError("runtime_isolation_unavailable", message);

/**
 * Why a slot with bound secrets may not start under `plan`, or null when it may: slots that
 * are not kept apart (not root, no bwrap) would share the server's uid, so any other slot —
 * of any company — could read this one's `/proc/<pid>/environ`. The operator may accept that
 * with `PAPERCLIP_SLOT_SHARED_UID=allow`.
 */
export function sharedUidProblem(plan: IsolationPlan, hasSecrets: boolean): string | null {
  if (!plan.ok || !hasSecrets || plan.separated || plan.sharedUidAllowed) return null;
  return "this connection binds secrets, and its local server would share the server's user with every other slot (the server does not run as root and PAPERCLIP_SANDBOX=bwrap is off), so another company's slot could read them; run the server as root or use bwrap (the operator may accept the risk with PAPERCLIP_SLOT_SHARED_UID=allow)";
}

export const slotIsolationUnavailable = (message: string) =>
  new ServiceError("slot_isolation_unavailable", message);

/** Test hook: forget cached look-ups (the bwrap probe). */
export function resetHostCaches(): void {
  bwrapProbe = null;
}
