/**
 * One runtime slot: its identity, its current process (if any), its crash history and its
 * `tool_runtime_slots` row (writes queued so they land in order). The supervisor decides;
 * the slot holds state.
 */
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { toolRuntimeSlots } from "@/db/schema";
import { isServiceError, ServiceError } from "../errors";
import { logError } from "../log";
import type { SlotRelay } from "./call-options";
import type { RuntimeConfig } from "./config";
import type { SlotIdentity, SlotSpec } from "./identity";
import type { SlotTree } from "./processes";
import { StderrRing, scrubSecrets, secretForms } from "./stderr-ring";
import type { ChildStdioTransport } from "./transport";

export interface Deferred {
  deferred: true;
  retryAfterMs: number;
}

export const isDeferred = (v: unknown): v is Deferred =>
  typeof v === "object" && v !== null && (v as { deferred?: unknown }).deferred === true;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export type SlotState = "new" | "starting" | "running" | "crashed" | "suppressed" | "stopping" | "stopped";

/** One supervised slot: its identity, its current process (if any) and its history. */
export class Slot {
  rowId: string | null = null;
  state: SlotState = "new";
  client: Client | null = null;
  transport: ChildStdioTransport | null = null;
  child: ChildProcess | null = null;
  pid: number | null = null;
  pgid: number | null = null;
  /** Bumped on every start; handlers of an older process ignore themselves. */
  generation = 0;
  startPromise: Promise<Client> | null = null;
  stopPromise: Promise<void> | null = null;
  /** An administrator's restart in progress: calls wait for it instead of starting beside it. */
  restarting: Promise<void> | null = null;
  /** Why the slot is being / was stopped on purpose (idle, admin, shutdown, …). */
  stopReason: string | null = null;
  /** A planned exit of the process of this generation (stop or restart). */
  expectedExitGeneration = -1;
  crashRecordedGeneration = -1;
  /** What went wrong with the current process before it exited (stream broke, too large). */
  failureHint: string | null = null;
  inFlight = 0;
  /** The relays of the calls in flight that relay server-to-client traffic (`relay.ts`). */
  readonly relays = new Set<SlotRelay>();
  /** Refused upstream requests recorded as activity rows (bounded, `relay.ts`). */
  auditedRefusals = 0;
  lastUsedAt = Date.now();
  lastUsedWrittenAt = 0;
  startedAt: number | null = null;
  crashedAt: number | null = null;
  /** Crash times within the window (ms). */
  crashTimes: number[] = [];
  restartCount = 0;
  lastError: string | null = null;
  health: "unknown" | "ok" | "degraded" | "failed" = "unknown";
  idleTimer: NodeJS.Timeout | null = null;
  cwd: string | null = null;
  /** The uid (and gid) the current process runs as: its own, when the server is root. */
  uid: number | null = null;
  /** The current process's own cgroup v2 directory, where the host delegates one (`cgroup.ts`). */
  cgroup: string | null = null;
  ring: StderrRing;
  readonly forms: string[];
  /** Row writes are serialized so they land in order. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    readonly key: string,
    readonly identity: SlotIdentity,
    readonly spec: SlotSpec,
    readonly secretValues: string[],
    public db: Db,
    config: RuntimeConfig,
  ) {
    this.ring = new StderrRing(secretValues, config.stderrMaxLines, config.stderrMaxBytes);
    this.forms = secretForms(secretValues);
  }

  get holdsProcess(): boolean {
    return this.state === "starting" || this.state === "running";
  }

  scrub(text: string): string {
    return scrubSecrets(text, this.forms);
  }

  /** Queues a row update; failures are logged, never thrown into calls. */
  write(patch: Partial<typeof toolRuntimeSlots.$inferInsert>): Promise<void> {
    const run = async () => {
      if (!this.rowId) return;
      await this.db
        .update(toolRuntimeSlots)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(toolRuntimeSlots.id, this.rowId));
    };
    this.writes = this.writes.then(run).catch((err) => {
      logError("runtime.slot_row_write_failed", err, { slotId: this.rowId });
    });
    return this.writes;
  }

  /** Waits for queued writes, then runs `fn` in order with them. */
  async afterWrites<T>(fn: () => Promise<T>): Promise<T> {
    const prior = this.writes;
    let release!: () => void;
    this.writes = new Promise<void>((r) => {
      release = r;
    });
    try {
      await prior;
      return await fn();
    } finally {
      release();
    }
  }

  /** Resolves when every queued row write has landed. */
  flush(): Promise<void> {
    return this.writes;
  }

  recentRestartsIso(): string[] {
    return this.crashTimes.map((t) => new Date(t).toISOString());
  }

  /** Records the slot's row on its first start; fails with `runtime_unavailable`. */
  async insertRow(host: string, supervisorId: string, idleTtlMs: number, now: Date): Promise<void> {
    const [row] = await this.db
      .insert(toolRuntimeSlots)
      .values({
        companyId: this.identity.companyId,
        connectionId: this.identity.connectionId,
        templateId: this.identity.templateId,
        kind: "stdio",
        slotKey: this.key,
        workspaceScope: this.identity.workspaceScope,
        credentialScope: this.identity.credentialScope,
        trustScope: this.identity.trustScope,
        runId: this.identity.runId,
        status: "starting",
        host,
        idleTtlMs,
        health: "unknown",
        supervisorId,
        startedAt: now,
        lastUsedAt: now,
      })
      .returning({ id: toolRuntimeSlots.id })
      .catch((err: unknown) => {
        logError("runtime.slot_row_insert_failed", err, { connectionId: this.identity.connectionId });
        throw new ServiceError("runtime_unavailable", "the runtime slot could not be recorded");
      });
    this.rowId = row!.id;
  }

  /**
   * Marks the row stopped after queued writes, with `persist` in the same transaction (its
   * failure is thrown; a failure without `persist` is only logged).
   */
  persistStopped(wasState: SlotState, persist?: (tx: Tx) => Promise<void>): Promise<void> {
    return this.afterWrites(async () => {
      if (!this.rowId) return;
      const finalRow = {
        status: "stopped" as const,
        health: wasState === "suppressed" ? "failed" : this.health,
        pid: null,
        processGroupId: null,
        stoppedAt: new Date(),
        lastUsedAt: new Date(this.lastUsedAt),
        stderrTail: this.ring.tail() || null,
        updatedAt: new Date(),
      };
      try {
        await this.db.transaction(async (tx) => {
          await tx.update(toolRuntimeSlots).set(finalRow).where(eq(toolRuntimeSlots.id, this.rowId!));
          if (persist) await persist(tx);
        });
      } catch (err) {
        logError("runtime.slot_row_write_failed", err, { slotId: this.rowId });
        if (persist) throw err;
      }
    });
  }

  /** Marks the row reset (starting, no crash history) with `persist` in the same transaction. */
  persistReset(persist?: (tx: Tx) => Promise<void>): Promise<void> {
    return this.afterWrites(async () => {
      await this.db.transaction(async (tx) => {
        await tx
          .update(toolRuntimeSlots)
          .set({
            status: "starting",
            health: "unknown",
            recentRestarts: [],
            pid: null,
            processGroupId: null,
            slotUid: null,
            updatedAt: new Date(),
          })
          .where(eq(toolRuntimeSlots.id, this.rowId!));
        if (persist) await persist(tx);
      });
    });
  }

  /**
   * Ends the current process (if any) and waits for its whole tree — its group and every
   * process of its own uid — to be gone. Only the fields of the process it ended are cleared:
   * a process a concurrent start spawned meanwhile stays the slot's (and stays tracked).
   */
  async endProcess(groups: { terminate(tree: SlotTree): Promise<void> }): Promise<void> {
    const child = this.child;
    const pgid = child?.pid ?? this.pgid;
    const uid = this.uid;
    const cgroup = this.cgroup;
    this.expectedExitGeneration = this.generation;
    const client = this.client;
    this.client = null;
    this.transport = null;
    if (client) await client.close().catch(() => {});
    if (pgid || uid !== null || cgroup) await groups.terminate({ pgid: pgid ?? null, uid, cgroup });
    if (child && child.exitCode === null && child.signalCode === null) {
      await Promise.race([new Promise((r) => child.once("exit", r)), sleep(1_000)]);
    }
    // INVARIANT: never forget a process this call did not end (the restart race that left
    // `pid: null` on a running slot, and its process untracked, for ever).
    if (this.child === child) this.child = null;
    if (this.pgid === pgid) {
      this.pid = null;
      this.pgid = null;
    }
    if (this.uid === uid && this.child === null) this.uid = null;
    if (this.cgroup === cgroup && this.child === null) this.cgroup = null;
  }

  /** Removes the slot's private working directory, if it has one (best effort). */
  removeCwd(): void {
    if (!this.cwd) return;
    const dir = this.cwd;
    this.cwd = null;
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What a call that failed on `slot` is told: a stable code, secrets scrubbed. */
export function slotCallError(err: unknown, slot: Slot, timeoutMs?: number): ServiceError {
  const details = { slotId: slot.rowId, connectionId: slot.identity.connectionId };
  if (isServiceError(err)) {
    return new ServiceError(err.code, slot.scrub(err.message), { ...details, ...err.details });
  }
  const closed =
    (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) ||
    (err instanceof Error && err.message === "Not connected");
  if (closed) {
    if (slot.stopReason) {
      return new ServiceError(
        "runtime_stopped",
        `the runtime slot was stopped (${slot.stopReason}) during the call`,
        details,
      );
    }
    return new ServiceError("runtime_crashed", "the local tool server exited during the call", details);
  }
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) {
      return new ServiceError(
        "upstream_timeout",
        `the local tool server did not answer within ${timeoutMs ?? "the"} ms`,
        details,
      );
    }
    return new ServiceError("upstream_error", slot.scrub(`local tool server: ${err.message}`), {
      ...details,
      mcpCode: err.code,
    });
  }
  if (err instanceof Error && err.name === "AbortError") {
    return new ServiceError("upstream_cancelled", "the call was cancelled", details);
  }
  return new ServiceError("upstream_error", slot.scrub(`local tool server: ${messageOf(err)}`), details);
}
