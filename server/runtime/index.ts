/**
 * Runtime slots: supervised, pooled local stdio MCP servers. The public surface the
 * connectors and the server start-up use; see docs/runtime.md.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";
import type { Db } from "@/db/client";
import { ServiceError } from "../errors";
import type { StdioCallOptions } from "./call-options";
import type { SlotSurface } from "./launch";
import { slotRequest, slotSurface } from "./slot-requests";
import { type Deferred, isDeferred, runtimeSupervisor, type StdioTarget } from "./supervisor";

export { reapOrphanedSlots } from "./reap";
export {
  reconcileSlotRows,
  runtimeMaintenance,
  startRuntimeMaintenance,
  stopRuntimeMaintenance,
} from "./reconcile";
export {
  type Deferred,
  isDeferred,
  RuntimeSupervisor,
  runtimeSupervisor,
  type Slot,
  type StdioTarget,
} from "./supervisor";

/**
 * The tools of the slot for `target`, starting it when needed. At capacity this throws
 * `runtime_deferred` (503, `details.retryAfterMs`): a list has no `{deferred}` form.
 */
export async function stdioListTools(
  db: Db,
  target: StdioTarget,
  opts: { timeoutMs?: number } = {},
): Promise<Tool[]> {
  return orRetryLater(await runtimeSupervisor().listTools(db, target, opts));
}

/** The resources, resource templates and prompts of the slot for `target` (as `stdioListTools`). */
export async function stdioListSurface(
  db: Db,
  target: StdioTarget,
  opts: { timeoutMs?: number } = {},
): Promise<SlotSurface> {
  return orRetryLater(await slotSurface(runtimeSupervisor(), db, target, opts));
}

/** The value, or `runtime_deferred` (503, `details.retryAfterMs`) when no slot could be had. */
function orRetryLater<T>(out: T | Deferred): T {
  if (isDeferred(out)) {
    throw new ServiceError("runtime_deferred", "no runtime capacity for this tool right now; retry later", {
      retryAfterMs: out.retryAfterMs,
    });
  }
  return out;
}

/**
 * Calls one tool on the slot for `target` (started lazily, shared by every call of the same
 * identity). `{deferred: true, retryAfterMs}` when no slot can be had now (the gateway answers
 * 503 `runtime_deferred`). Failures are ServiceErrors: `runtime_suppressed` (503),
 * `runtime_start_failed` / `runtime_crashed` / `upstream_error` (502), `upstream_timeout`
 * (504), `runtime_stopped` (503), `unsafe_command_template` / `workspace_unavailable` (409).
 * `onSlot` receives the slot row id (for the invocation ledger) once the slot is up.
 */
export function stdioCallTool(
  db: Db,
  target: StdioTarget,
  name: string,
  args: Record<string, unknown>,
  opts: StdioCallOptions = {},
): Promise<CallToolResult | Deferred> {
  return runtimeSupervisor().callTool(db, target, name, args, opts);
}

/**
 * One request other than a tool call (`resources/read`, `prompts/get`, `completion/complete`,
 * `resources/subscribe`) on the slot for `target`, its answer checked by `schema`. At capacity
 * this throws `runtime_deferred`; other failures as for `stdioCallTool`.
 */
export async function stdioRequest<T>(
  db: Db,
  target: StdioTarget,
  request: { method: string; params?: Record<string, unknown> },
  schema: ZodType<T>,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  return orRetryLater(await slotRequest(runtimeSupervisor(), db, target, request, schema, opts));
}

/**
 * Cheap, in-memory capacity check for the access decision (`AccessRequest.runtime`). With
 * `connectionId`, a connection that already has a live slot is always available.
 */
export function runtimeCapacity(
  companyId: string,
  connectionId?: string,
): { available: boolean; retryAfterMs?: number } {
  return runtimeSupervisor().capacity(companyId, connectionId);
}

/** Stops every slot of this process (tests, process exit). */
export function shutdownAllSlots(): Promise<void> {
  return runtimeSupervisor().shutdown();
}

/** Stops the per-run slots of a finished run. */
export function stopRunSlots(runId: string): Promise<number> {
  return runtimeSupervisor().stopWhere((s) => s.identity.runId === runId, "run_finished");
}

/** Stops every slot of a connection (disabled, archived or its settings changed). */
export function stopConnectionSlots(companyId: string, connectionId: string): Promise<number> {
  return runtimeSupervisor().stopWhere(
    (s) => s.identity.companyId === companyId && s.identity.connectionId === connectionId,
    "connection_changed",
  );
}
