/**
 * The runtime-slot supervisor: pooled, supervised local stdio MCP servers.
 *
 * - A slot is identified by its identity (see `identity.ts`), hashed into `slot_key`. It
 *   starts lazily on its first call; concurrent first calls share one start. One long-lived
 *   MCP `Client` per slot serves every call of that identity (the SDK multiplexes requests).
 * - Idle slots stop after `idleMs`. Live slots are capped per company and per server process;
 *   at capacity the least recently used slot with no call in flight is stopped to make room
 *   (`capacity.ts`), and when there is none the caller is told to retry (`{deferred, retryAfterMs}`).
 * - A slot whose process exits (or whose stream breaks) unexpectedly is "crashed": the next
 *   call restarts it after an exponential backoff; `crashLimit` crashes within `crashWindowMs`
 *   suppress it (`crash-policy.ts`): calls are refused with `runtime_suppressed` until an
 *   administrator restarts it.
 * - Each slot process leads its own process group (`launch.ts`); stopping signals the whole
 *   group — SIGTERM, then SIGKILL after `graceMs` — so wrappers' grandchildren die too.
 * - The process environment is built from scratch (see `env.ts`); stderr goes to a bounded,
 *   redacted ring buffer, never into results.
 *
 * One supervisor per server process, kept on `globalThis` (`runtimeSupervisor()`).
 */

import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import os from "node:os";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Db, Tx } from "@/db/client";
import { processSingleton } from "../config/process-singleton";
import { ServiceError } from "../errors";
import { logInfo, logWarn } from "../log";
import type { StdioCallOptions } from "./call-options";
import { admissionVictims } from "./capacity";
import { resolveLaunch } from "./catalog";
import { type RuntimeConfig, runtimeConfigFromEnv } from "./config";
import {
  backoffRemainingMs,
  crashTimesWith,
  isSuppressed,
  suppressedMessage,
  tooLongToWait,
} from "./crash-policy";
import { type IsolationPlan, isolationPlan } from "./host";
import { type StdioTarget, slotIdentity } from "./identity";
import { launchSlot, listAllTools, ProcessGroups, refuseSharedUid, refuseUnslottedEnv } from "./launch";
import { processIdentity } from "./processes";
import { withRelay } from "./relay";
import { type Deferred, Slot, slotCallError } from "./slot";

export type { StdioTarget } from "./identity";
export { type Deferred, isDeferred, Slot } from "./slot";

const LAST_USED_WRITE_INTERVAL_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class RuntimeSupervisor {
  config: RuntimeConfig;
  readonly host = os.hostname();
  /** `host/pid/start ticks` of this server process, recorded on every slot row it owns. */
  readonly supervisorId: string;
  private readonly slots = new Map<string, Slot>();
  /** Slots being stopped, by key: a new slot of the same identity waits for its row to settle. */
  private readonly stopping = new Map<string, Promise<void>>();
  /** Keys the credential scope: equal secret sets share a slot, the hash reveals nothing. */
  private readonly scopeKey = randomBytes(32);
  /** Process groups started and not yet confirmed gone (killed on process exit). */
  private readonly groups = new ProcessGroups(() => this.config.graceMs);

  /**
   * How slots are isolated on this host, read on every use (the environment's plan; a test
   * hands in another host's plan, e.g. a server that is not root).
   */
  private readonly isolation: () => IsolationPlan;

  constructor(config: Partial<RuntimeConfig> = {}, opts: { isolation?: () => IsolationPlan } = {}) {
    this.config = { ...runtimeConfigFromEnv(), ...config };
    this.supervisorId = processIdentity(this.host);
    this.isolation = opts.isolation ?? (() => isolationPlan());
  }

  /** Overrides settings (tests). Applies to slots started afterwards, and to idle timers. */
  configure(config: Partial<RuntimeConfig>): void {
    this.config = { ...this.config, ...config };
  }

  // ------------------------------------------------------------------------------------------
  // Identity and capacity

  private live(filter?: (s: Slot) => boolean): Slot[] {
    return [...this.slots.values()].filter((s) => s.holdsProcess && (!filter || filter(s)));
  }

  /**
   * Whether one more live slot for `companyId` fits, making room by stopping idle slots when
   * `evict` is set. Synchronous, so two callers cannot both take the last place.
   */
  private admit(companyId: string, evict: boolean, exclude?: Slot): boolean {
    const victims = admissionVictims([...this.slots.values()], companyId, this.config, exclude);
    if (!victims) return false;
    if (evict) {
      for (const v of victims) {
        logInfo("runtime.slot_evicted", { slotId: v.rowId, companyId: v.identity.companyId, for: companyId });
        void this.stop(v, "evicted");
      }
    }
    return true;
  }

  /**
   * Cheap, in-memory: can a call of `companyId` (optionally on `connectionId`) get a slot
   * now? A connection that already has a live slot is always available.
   */
  capacity(companyId: string, connectionId?: string): { available: boolean; retryAfterMs?: number } {
    if (
      connectionId &&
      this.live((s) => s.identity.companyId === companyId && s.identity.connectionId === connectionId)
        .length > 0
    ) {
      return { available: true };
    }
    return this.admit(companyId, false)
      ? { available: true }
      : { available: false, retryAfterMs: this.config.retryAfterMs };
  }

  /** The in-memory slot with this row id (this process's slots only). */
  slotById(slotId: string): Slot | null {
    for (const s of this.slots.values()) if (s.rowId === slotId) return s;
    return null;
  }

  /** Every slot this supervisor holds (for tests and diagnostics). */
  allSlots(): Slot[] {
    return [...this.slots.values()];
  }

  // ------------------------------------------------------------------------------------------
  // Calls

  /**
   * Runs `op` on the slot of `target`'s identity, starting it when needed. Returns
   * `{deferred}` when no slot can be had now.
   */
  async use<T>(
    db: Db,
    target: StdioTarget,
    op: (client: Client, slot: Slot) => Promise<T>,
    opts: { timeoutMs?: number } = {},
  ): Promise<T | Deferred> {
    // The host and the operator's catalogue decide on every call (fail closed, audited).
    const launch = await resolveLaunch(db, target.template);
    await refuseUnslottedEnv(db, target, launch);
    await refuseSharedUid(db, target, launch, this.isolation());
    const { identity, spec, key } = slotIdentity(target, launch, {
      scopeKey: this.scopeKey,
      supervisorId: this.supervisorId,
      isDirectory: (dir) => statSync(dir).isDirectory(),
    });
    let slot = this.slots.get(key);
    // An administrator's restart in progress: wait for it rather than start beside it.
    while (slot?.restarting) {
      await slot.restarting.catch(() => {});
      slot = this.slots.get(key);
    }
    if (slot?.state === "suppressed") throw this.suppressedError(slot);
    if (slot?.state === "crashed") {
      const wait = this.backoffRemaining(slot);
      if (tooLongToWait(wait, opts.timeoutMs)) {
        return { deferred: true, retryAfterMs: wait };
      }
    }
    if (!slot || !(slot.holdsProcess || slot.startPromise)) {
      if (!this.admit(identity.companyId, true, slot)) {
        return { deferred: true, retryAfterMs: this.config.retryAfterMs };
      }
    }
    if (!slot) {
      slot = new Slot(key, identity, spec, [...new Set(target.secretValues ?? [])], db, this.config);
      this.slots.set(key, slot);
    }
    slot.db = db;
    slot.inFlight++;
    this.clearIdle(slot);
    try {
      const client = await this.ensureStarted(slot);
      return await op(client, slot);
    } catch (err) {
      throw slotCallError(err, slot, opts.timeoutMs);
    } finally {
      slot.inFlight--;
      slot.lastUsedAt = Date.now();
      this.afterUse(slot);
    }
  }

  async listTools(
    db: Db,
    target: StdioTarget,
    opts: { timeoutMs?: number } = {},
  ): Promise<Tool[] | Deferred> {
    const timeout = opts.timeoutMs ?? 30_000;
    return this.use(db, target, (client) => listAllTools(client, timeout), { timeoutMs: timeout });
  }

  async callTool(
    db: Db,
    target: StdioTarget,
    name: string,
    args: Record<string, unknown>,
    opts: StdioCallOptions = {},
  ): Promise<CallToolResult | Deferred> {
    const timeout = opts.timeoutMs ?? 10_000;
    return this.use(
      db,
      target,
      async (client, slot) => {
        opts.onSlot?.(slot.rowId);
        return withRelay(
          slot,
          opts.relay,
          async () =>
            (await client.callTool({ name, arguments: args ?? {} }, CallToolResultSchema, {
              ...opts.requestOptions,
              timeout,
              signal: opts.signal,
            })) as CallToolResult,
        );
      },
      { timeoutMs: timeout },
    );
  }

  private suppressedError(slot: Slot): ServiceError {
    return new ServiceError("runtime_suppressed", suppressedMessage(this.config), {
      slotId: slot.rowId,
    });
  }

  private backoffRemaining(slot: Slot): number {
    return backoffRemainingMs(slot, this.config, Date.now());
  }

  // ------------------------------------------------------------------------------------------
  // Starting

  private ensureStarted(slot: Slot): Promise<Client> {
    if (slot.state === "running" && slot.client) return Promise.resolve(slot.client);
    if (slot.startPromise) return slot.startPromise;
    if (slot.state === "suppressed") return Promise.reject(this.suppressedError(slot));
    if (slot.state === "stopping" || slot.state === "stopped") {
      return Promise.reject(
        new ServiceError("runtime_stopped", `the runtime slot was stopped (${slot.stopReason})`),
      );
    }
    const wait = this.backoffRemaining(slot);
    const restarting = slot.state === "crashed";
    slot.state = "starting"; // holds its place against the caps from now on
    const promise = (async () => {
      if (wait > 0) await sleep(wait);
      return this.start(slot, restarting);
    })();
    slot.startPromise = promise;
    promise.then(
      () => {
        if (slot.startPromise === promise) slot.startPromise = null;
      },
      () => {
        if (slot.startPromise === promise) slot.startPromise = null;
        // Failed before a process existed (e.g. the row could not be written): the slot
        // holds no capacity; the next call tries again.
        if (slot.state === "starting" && !slot.child) slot.state = "new";
      },
    );
    return promise;
  }

  private async start(slot: Slot, restarting: boolean): Promise<Client> {
    const generation = ++slot.generation;
    const deps = {
      config: this.config,
      host: this.host,
      supervisorId: this.supervisorId,
      groups: this.groups,
      isolation: this.isolation,
      recordCrash: (s: Slot, g: number, reason: string) => this.recordCrash(s, g, reason),
      onExit: (s: Slot, g: number, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) =>
        this.onExit(s, g, child, code, signal),
    };
    // A previous slot of this identity may still be settling its row (unique live key).
    const prior = this.stopping.get(slot.key);
    if (prior) await prior;
    if (restarting) slot.restartCount++;
    return launchSlot(slot, generation, restarting, deps);
  }

  // ------------------------------------------------------------------------------------------
  // Exits, crashes and suppression

  private onExit(
    slot: Slot,
    generation: number,
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    slot.ring.end();
    if (slot.child === child) {
      slot.child = null;
      slot.transport?.close().catch(() => {});
    }
    if (slot.generation !== generation || slot.expectedExitGeneration === generation) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const reason = `${slot.failureHint ? `${slot.failureHint}; the process ` : "the process "}${how}`;
    if (slot.crashRecordedGeneration === generation) {
      // Recorded when the stream closed; now the exit status (and the last stderr) are known.
      if (slot.state !== "crashed" && slot.state !== "suppressed") return;
      slot.lastError = slot.scrub(reason).slice(0, 2000);
      void slot.write({ lastError: slot.lastError, stderrTail: slot.ring.tail() || null });
      return;
    }
    this.recordCrash(slot, generation, reason);
  }

  /** Marks the current process generation as crashed (once) and decides on suppression. */
  private recordCrash(slot: Slot, generation: number, reason: string): void {
    if (slot.crashRecordedGeneration === generation || slot.generation !== generation) return;
    if (slot.stopReason) return; // a planned stop, not a crash
    slot.crashRecordedGeneration = generation;
    const cfg = this.config;
    const now = Date.now();
    slot.crashTimes = crashTimesWith(slot.crashTimes, now, cfg);
    slot.crashedAt = now;
    slot.lastError = slot.scrub(reason).slice(0, 2000);
    slot.client = null;
    slot.transport = null;
    // Leftovers of the crashed process (grandchildren) go with its group and its own uid.
    const pgid = slot.pgid;
    slot.pid = null;
    slot.pgid = null;
    this.groups.kill({ pgid, uid: slot.uid, cgroup: slot.cgroup }, slot);
    slot.removeCwd();
    const suppressed = isSuppressed(slot.crashTimes.length, cfg);
    slot.state = suppressed ? "suppressed" : "crashed";
    slot.health = suppressed ? "failed" : "degraded";
    logWarn(suppressed ? "runtime.slot_suppressed" : "runtime.slot_crashed", {
      slotId: slot.rowId,
      companyId: slot.identity.companyId,
      connectionId: slot.identity.connectionId,
      crashes: slot.crashTimes.length,
      reason: slot.lastError,
    });
    void slot.write({
      status: suppressed ? "suppressed" : "crashed",
      health: slot.health,
      lastError: slot.lastError,
      recentRestarts: slot.recentRestartsIso(),
      restartCount: slot.restartCount,
      pid: null,
      processGroupId: null,
      stderrTail: slot.ring.tail(),
    });
    if (!suppressed) this.afterUse(slot);
  }

  // ------------------------------------------------------------------------------------------
  // Idle and stopping

  private clearIdle(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  private afterUse(slot: Slot): void {
    if (slot.rowId && Date.now() - slot.lastUsedWrittenAt > LAST_USED_WRITE_INTERVAL_MS) {
      slot.lastUsedWrittenAt = Date.now();
      void slot.write({ lastUsedAt: new Date(slot.lastUsedAt) });
    }
    if (slot.inFlight > 0 || slot.startPromise) return;
    this.clearIdle(slot);
    if (slot.state === "suppressed" || slot.state === "stopping" || slot.state === "stopped") return;
    const idleMs = slot.spec.launch.idleTtlMs ?? this.config.idleMs;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = null;
      if (slot.inFlight > 0 || slot.startPromise || this.slots.get(slot.key) !== slot) return;
      if (Date.now() - slot.lastUsedAt < idleMs - 5) {
        this.afterUse(slot);
        return;
      }
      if (slot.state === "running") void this.stop(slot, "idle");
      else if (slot.state === "crashed" || slot.state === "new") this.forget(slot);
    }, idleMs);
    slot.idleTimer.unref();
  }

  /** Drops a slot without a process from memory (its crashed row stays as history). */
  private forget(slot: Slot): void {
    if (this.slots.get(slot.key) === slot) this.slots.delete(slot.key);
    this.clearIdle(slot);
    if (slot.state === "new") void slot.write({ status: "stopped", stoppedAt: new Date() });
    slot.state = "stopped";
  }

  /**
   * Stops a slot: its whole process group (SIGTERM, then SIGKILL after the grace period), the
   * MCP client, and marks its row stopped. `persist` runs in the transaction of that last row
   * update (e.g. an activity row).
   */
  stop(slot: Slot, reason: string, persist?: (tx: Tx) => Promise<void>): Promise<void> {
    if (slot.stopPromise)
      return slot.stopPromise.then(() => (persist ? this.persistOnly(slot, persist) : undefined));
    slot.stopReason = reason;
    slot.expectedExitGeneration = slot.generation;
    const wasState = slot.state;
    slot.state = "stopping";
    this.clearIdle(slot);
    if (this.slots.get(slot.key) === slot) this.slots.delete(slot.key);
    const done = (async () => {
      if (wasState === "starting" || wasState === "running") void slot.write({ status: "stopping" });
      await slot.endProcess(this.groups);
      // A start in progress fails on its own once its process is gone.
      if (slot.startPromise) await slot.startPromise.catch(() => {});
      await slot.endProcess(this.groups);
      slot.removeCwd();
      slot.state = "stopped";
      logInfo("runtime.slot_stopped", {
        slotId: slot.rowId,
        companyId: slot.identity.companyId,
        connectionId: slot.identity.connectionId,
        reason,
      });
      await slot.persistStopped(wasState, persist);
    })();
    const settled = done.catch(() => {});
    this.stopping.set(slot.key, settled);
    slot.stopPromise = done.finally(() => {
      if (this.stopping.get(slot.key) === settled) this.stopping.delete(slot.key);
    });
    return slot.stopPromise;
  }

  private async persistOnly(slot: Slot, persist: (tx: Tx) => Promise<void>): Promise<void> {
    await slot.db.transaction(async (tx) => persist(tx));
  }

  /**
   * Restarts a slot now: stops its process (if any), clears its crash history and
   * suppression, and starts it again. Throws `runtime_deferred` when there is no capacity
   * (the suppression is cleared all the same: the next call starts it).
   */
  async restart(slot: Slot, persist?: (tx: Tx) => Promise<void>): Promise<void> {
    if (slot.state === "stopping" || slot.state === "stopped") {
      throw new ServiceError("slot_stopped", "the slot is stopped; the next call starts a new one");
    }
    // Concurrent restarts of one slot are one restart.
    if (slot.restarting) return slot.restarting;
    const restarting = this.restartNow(slot, persist);
    slot.restarting = restarting;
    try {
      await restarting;
    } finally {
      if (slot.restarting === restarting) slot.restarting = null;
    }
  }

  private async restartNow(slot: Slot, persist?: (tx: Tx) => Promise<void>): Promise<void> {
    this.clearIdle(slot);
    slot.inFlight++; // keeps it from idling or being evicted while restarting
    const stopped = () =>
      new ServiceError(
        "slot_stopped",
        "the slot was stopped during the restart; the next call starts a new one",
      );
    try {
      if (slot.startPromise) await slot.startPromise.catch(() => {});
      if (slot.stopPromise) throw stopped();
      slot.generation++; // handlers of the old process ignore themselves
      const reason = "restarted by an administrator";
      slot.stopReason = reason; // what calls cut off by it are told
      try {
        await slot.endProcess(this.groups);
      } finally {
        // A stop that began meanwhile keeps its own reason (and stops the slot for good).
        if (slot.stopReason === reason) slot.stopReason = null;
      }
      if (slot.stopPromise) throw stopped();
      slot.removeCwd();
      slot.crashTimes = [];
      slot.crashedAt = null;
      slot.state = "new";
      slot.health = "unknown";
      await slot.persistReset(persist);
      if (slot.stopPromise) throw stopped();
      if (!this.admit(slot.identity.companyId, true, slot)) {
        this.forget(slot);
        throw new ServiceError(
          "runtime_deferred",
          "the slot was reset, but there is no runtime capacity to start it now; the next call starts it",
          { retryAfterMs: this.config.retryAfterMs },
        );
      }
      slot.restartCount++;
      try {
        await this.ensureStarted(slot);
      } catch {
        // The failure is recorded on the slot (status, last error); the caller reads it.
      }
    } finally {
      slot.inFlight--;
      slot.lastUsedAt = Date.now();
      this.afterUse(slot);
    }
  }

  /** Stops every slot matching `filter` (template disabled, run finished, connection changed). */
  async stopWhere(filter: (s: Slot) => boolean, reason: string): Promise<number> {
    const doomed = [...this.slots.values()].filter(filter);
    await Promise.all(doomed.map((s) => this.stop(s, reason)));
    return doomed.length;
  }

  /** Stops everything (tests, process exit). */
  async shutdown(): Promise<void> {
    await this.stopWhere(() => true, "shutdown");
    await Promise.all([...this.stopping.values()]);
  }
}

/** The process's supervisor (a process singleton, so dev reloads do not duplicate slots). */
export function runtimeSupervisor(): RuntimeSupervisor {
  return processSingleton("runtimeSupervisor", () => new RuntimeSupervisor());
}
