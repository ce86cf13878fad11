/**
 * Admin views and actions on runtime slots: list, detail (with recent redacted stderr), stop
 * and restart. Reads need `company:read`; actions need `tools:manage_runtime`.
 */

import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import { toolRuntimeSlots } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { RuntimeSlot, RuntimeSlotDetail } from "@/server/contracts/api/runtime";
import { SLOT_STATUSES } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { conflict, notFound } from "../errors";
import { isSupervisorAlive } from "./processes";
import { stopRecordedSlot } from "./reap";
import { runtimeSupervisor, type Slot } from "./supervisor";

type SlotRow = typeof toolRuntimeSlots.$inferSelect;

const LIVE_STATUSES = ["starting", "running", "idle", "stopping", "suppressed"] as const;

export const ListSlotsQuery = z.object({
  /** `live` (default: every status), or one status. */
  status: z.enum(["live", ...SLOT_STATUSES]).optional(),
  connectionId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ListSlotsQuery = z.infer<typeof ListSlotsQuery>;

function present(row: SlotRow, live: Slot | null) {
  return {
    id: row.id,
    companyId: row.companyId,
    connectionId: row.connectionId,
    templateId: row.templateId,
    kind: row.kind,
    status: row.status,
    health: row.health,
    host: row.host,
    pid: row.pid,
    processGroupId: row.processGroupId,
    workspaceScope: row.workspaceScope,
    credentialScope: row.credentialScope,
    trustScope: row.trustScope,
    runId: row.runId,
    idleTtlMs: row.idleTtlMs,
    restartCount: row.restartCount,
    recentRestarts: row.recentRestarts,
    lastError: row.lastError,
    startedAt: row.startedAt,
    lastUsedAt: row.lastUsedAt,
    stoppedAt: row.stoppedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    /** This server process supervises the slot; `live` is its in-memory state. */
    local: live !== null,
    live: live ? { state: live.state, inFlight: live.inFlight, lastUsedAt: new Date(live.lastUsedAt) } : null,
  } satisfies Served<typeof RuntimeSlot>;
}

async function loadRow(ctx: ServiceContext, companyId: string, slotId: string): Promise<SlotRow> {
  const [row] = await ctx.db
    .select()
    .from(toolRuntimeSlots)
    .where(companyRow(toolRuntimeSlots, companyId, slotId));
  if (!row) throw notFound("runtime slot");
  return row;
}

/** This process's slot for the row, if it supervises it. */
function localSlot(row: SlotRow): Slot | null {
  const supervisor = runtimeSupervisor();
  const slot = supervisor.slotById(row.id);
  return slot && slot.identity.companyId === row.companyId ? slot : null;
}

export async function listRuntimeSlots(
  ctx: ServiceContext,
  companyId: string,
  query: Partial<ListSlotsQuery> = {},
) {
  await requireCompany(ctx, companyId, "company:read");
  const conds = [eq(toolRuntimeSlots.companyId, companyId)];
  if (query.status === "live") conds.push(inArray(toolRuntimeSlots.status, [...LIVE_STATUSES]));
  else if (query.status) conds.push(eq(toolRuntimeSlots.status, query.status));
  if (query.connectionId) conds.push(eq(toolRuntimeSlots.connectionId, query.connectionId));
  const rows = await ctx.db
    .select()
    .from(toolRuntimeSlots)
    .where(and(...conds))
    .orderBy(desc(toolRuntimeSlots.createdAt))
    .limit(query.limit ?? 100);
  return rows.map((r) => present(r, localSlot(r)));
}

/** One slot, with its recent stderr (redacted and bounded when it was captured). */
export async function getRuntimeSlot(ctx: ServiceContext, companyId: string, slotId: string) {
  await requireCompany(ctx, companyId, "company:read", "runtime slot");
  const row = await loadRow(ctx, companyId, slotId);
  const live = localSlot(row);
  const stderr = live
    ? {
        source: "live" as const,
        lines: live.ring.snapshot(),
        bytes: live.ring.byteSize,
        droppedLines: live.ring.dropped,
      }
    : {
        source: "saved" as const,
        lines: row.stderrTail ? row.stderrTail.split("\n") : [],
        bytes: row.stderrTail ? Buffer.byteLength(row.stderrTail, "utf8") + 1 : 0,
        droppedLines: null,
      };
  return { ...present(row, live), stderr } satisfies Served<typeof RuntimeSlotDetail>;
}

/** A slot this process does not supervise may be acted on only when it is an orphan here. */
function ensureOrphanHere(row: SlotRow) {
  const supervisor = runtimeSupervisor();
  if (row.host !== supervisor.host) {
    throw conflict(
      "slot_on_other_host",
      `the slot runs on \`${row.host}\`; stop or restart it from a server on that host`,
    );
  }
  if (row.supervisorId && isSupervisorAlive(row.supervisorId, supervisor.host)) {
    throw conflict(
      "slot_on_other_server",
      "another server process on this host supervises the slot; act on it through that server",
    );
  }
}

/**
 * An administrator's action on a slot: checks the permission, loads the slot and returns its
 * activity writer (`tool_runtime_slot.<verb>` with `details` of the slot as loaded).
 */
async function slotAction(
  ctx: ServiceContext,
  companyId: string,
  slotId: string,
  verb: "stop" | "restart",
  details: (row: SlotRow) => Record<string, unknown>,
) {
  await requireCompany(ctx, companyId, "tools:manage_runtime", "runtime slot");
  const row = await loadRow(ctx, companyId, slotId);
  const activity = (tx: Tx) =>
    logActivity(tx, ctx, {
      companyId,
      action: `tool_runtime_slot.${verb}`,
      entityType: "tool_runtime_slot",
      entityId: slotId,
      details: details(row),
    });
  return { row, activity };
}

/** Stops a slot now: its whole process group, then the row is marked stopped. Idempotent. */
export async function stopRuntimeSlot(ctx: ServiceContext, companyId: string, slotId: string) {
  const { row, activity } = await slotAction(ctx, companyId, slotId, "stop", (r) => ({
    connectionId: r.connectionId,
    previousStatus: r.status,
  }));
  const live = localSlot(row);
  const supervisor = runtimeSupervisor();
  if (live) {
    await supervisor.stop(live, "admin", activity);
  } else if ((LIVE_STATUSES as readonly string[]).includes(row.status)) {
    ensureOrphanHere(row);
    await stopRecordedSlot(ctx.db, row, "stopped by an administrator", supervisor.config.graceMs, activity);
  }
  return getRuntimeSlot(ctx, companyId, slotId);
}

/**
 * Restarts a slot now and clears its crash history and suppression. A slot this server does
 * not supervise cannot be started from here (its secrets and workspace belong to a call);
 * if it is a leftover on this host it is stopped, and the next call starts a fresh one.
 */
export async function restartRuntimeSlot(ctx: ServiceContext, companyId: string, slotId: string) {
  const { row, activity } = await slotAction(ctx, companyId, slotId, "restart", (r) => ({
    connectionId: r.connectionId,
    previousStatus: r.status,
    lastError: r.lastError,
  }));
  const live = localSlot(row);
  const supervisor = runtimeSupervisor();
  if (live) {
    await supervisor.restart(live, activity);
    return getRuntimeSlot(ctx, companyId, slotId);
  }
  if (!(LIVE_STATUSES as readonly string[]).includes(row.status)) {
    throw conflict("slot_not_running", "the slot is not running; the next call starts a new one");
  }
  ensureOrphanHere(row);
  await stopRecordedSlot(
    ctx.db,
    row,
    "restarted by an administrator: the next call starts it again",
    supervisor.config.graceMs,
    activity,
  );
  return getRuntimeSlot(ctx, companyId, slotId);
}
