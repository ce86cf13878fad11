/**
 * One uid per live slot process of a host (the server runs as root): the kernel then keeps
 * each slot out of every other's `/proc/<pid>/environ`, files and signals, and a slot's
 * descendants can be found by their uid.
 *
 * The database decides, not process memory: several server processes (replicas) on one host
 * share the range, so each claim is an UPDATE of the slot's own row that the partial unique
 * index `tool_runtime_slots_host_uid_uq` (host, slot_uid of live rows) lets only one live row
 * win. A uid is released when its row stops being live (stopped, crashed, suppressed) or a new
 * process of the slot is about to start (`slot_uid` cleared). Uids some live process of this
 * host still holds (a crashed slot's process being killed, an orphan, anything else) are
 * skipped as well.
 */
import { readdirSync, readFileSync } from "node:fs";
import { and, between, eq, isNotNull, notInArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolRuntimeSlots } from "@/db/schema";
import { terminatingUids } from "./processes";

/** Row statuses whose process is gone or going: their uid is free again. */
const RELEASED_STATUSES = ["stopped", "crashed", "suppressed"] as const;
const UID_INDEX = "tool_runtime_slots_host_uid_uq";
/** Claims lost to another server's concurrent claim before giving up (each retry re-reads). */
const MAX_CLAIM_ATTEMPTS = 8;

/** The uids of every live process on this host (Linux /proc; empty elsewhere). */
export function liveUids(): Set<number> {
  const out = new Set<number>();
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // Real, effective, saved and filesystem uid: any of them makes the uid in use.
      const m = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) for (const id of m.slice(1)) out.add(Number(id));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * A uid of `range` not in `taken`, or null when every one is. Starts at a random place so two
 * servers racing for a uid rarely pick the same one (the database settles it when they do).
 */
export function pickSlotUid(
  range: readonly [number, number],
  taken: ReadonlySet<number>,
  random: () => number = Math.random,
): number | null {
  const [lo, hi] = range;
  const size = hi - lo + 1;
  if (!Number.isSafeInteger(size) || size <= 0) return null;
  const start = Math.min(size - 1, Math.floor(random() * size));
  for (let i = 0; i < size; i++) {
    const uid = lo + ((start + i) % size);
    if (!taken.has(uid)) return uid;
  }
  return null;
}

const isUidConflict = (err: unknown): boolean => {
  const e = err as {
    code?: string;
    constraint_name?: string;
    cause?: { code?: string; constraint_name?: string };
  };
  const pg = e?.code ? e : e?.cause;
  return pg?.code === "23505" && pg.constraint_name === UID_INDEX;
};

/**
 * Claims a uid of `range` for the live slot row `rowId` of `host` and records it on the row;
 * throws when the range is full. The row must be live (status starting).
 */
export async function claimSlotUid(
  db: Db,
  opts: { rowId: string; host: string; range: readonly [number, number]; random?: () => number },
): Promise<number> {
  const [lo, hi] = opts.range;
  for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
    const reserved = await db
      .select({ uid: toolRuntimeSlots.slotUid })
      .from(toolRuntimeSlots)
      .where(
        and(
          eq(toolRuntimeSlots.host, opts.host),
          isNotNull(toolRuntimeSlots.slotUid),
          between(toolRuntimeSlots.slotUid, lo, hi),
          notInArray(toolRuntimeSlots.status, [...RELEASED_STATUSES]),
        ),
      );
    const taken = liveUids();
    // Uids whose processes this server is still ending (between two scans they may all be gone
    // for a moment; a new slot must not be signalled by the end of the old one's).
    for (const u of terminatingUids.keys()) taken.add(u);
    for (const r of reserved) if (r.uid !== null) taken.add(r.uid);
    const uid = pickSlotUid(opts.range, taken, opts.random);
    if (uid === null) {
      throw new Error(`every uid of the slot uid range ${lo}-${hi} is in use (PAPERCLIP_SLOT_UID_RANGE)`);
    }
    try {
      await db
        .update(toolRuntimeSlots)
        .set({ slotUid: uid, updatedAt: new Date() })
        .where(eq(toolRuntimeSlots.id, opts.rowId));
      return uid;
    } catch (err) {
      if (!isUidConflict(err)) throw err;
      // Another server claimed it between our read and our write: read again.
    }
  }
  throw new Error("no uid of the slot uid range could be claimed (other servers kept taking them)");
}
