/**
 * The runtime-slot supervisor: pooled, supervised local stdio MCP servers.
 *
 * - A slot is identified by (company, connection, template, workspace scope, credential scope,
 *   trust scope[, run]) of this supervisor, hashed into `slot_key`. It starts lazily on its
 *   first call; concurrent first calls share one start. One long-lived MCP `Client` per slot
 *   serves every call of that identity (the SDK multiplexes concurrent requests).
 * - Idle slots stop after `idleMs`. Live slots are capped per company and per server process;
 *   at capacity the least recently used slot with no call in flight is stopped to make room,
 *   and when there is none the caller is told to retry (`{deferred, retryAfterMs}`).
 * - A slot whose process exits (or whose stream breaks) unexpectedly is "crashed": the next
 *   call restarts it after an exponential backoff. `crashLimit` crashes within
 *   `crashWindowMs` suppress it: calls are refused with `runtime_suppressed` until an
 *   administrator restarts it.
 * - Each slot process leads its own process group (`detached: true`); stopping signals the
 *   whole group — SIGTERM, then SIGKILL after `graceMs` — so wrappers' grandchildren die too.
 * - The process environment is built from scratch (see `env.ts`); stderr goes to a bounded,
 *   redacted ring buffer, never into results.
 *
 * One supervisor per server process, kept on `globalThis` (`runtimeSupervisor()`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { type toolConnections, toolRuntimeSlots, type toolStdioTemplates } from "@/db/schema";
import { isServiceError, ServiceError } from "../errors";
import { logError, logInfo, logWarn } from "../log";
import { auditRefusal, commandNotApproved, type LaunchSpec, resolveLaunch } from "./catalog";
import { type RuntimeConfig, runtimeConfigFromEnv } from "./config";
import { buildChildEnv, commandStillUsable } from "./env";
import { isolationPlan } from "./host";
import { isProcessAlive, processIdentity, signalGroup, terminateGroup } from "./processes";
import {
  allocateSlotUid,
  closeHomeToOthers,
  ensureRuntimeDir,
  fixtureBundle,
  makeSlotDir,
  spawnPlan,
  unreadableForOthers,
} from "./sandbox";
import { StderrRing, scrubSecrets, secretForms } from "./stderr-ring";
import { ChildStdioTransport } from "./transport";

type TemplateRow = typeof toolStdioTemplates.$inferSelect;
type ConnectionRow = typeof toolConnections.$inferSelect;

/** What a stdio call needs: the connection, its template and this use's projected secrets. */
export interface StdioTarget {
  companyId: string;
  connection: Pick<ConnectionRow, "id" | "companyId" | "stdioTemplateId">;
  template: Pick<
    TemplateRow,
    | "id"
    | "companyId"
    | "command"
    | "args"
    | "allowedEnvKeys"
    | "cwdPolicy"
    | "trustScope"
    | "perRunSlot"
    | "status"
    | "catalogCommandId"
    | "slotValues"
  >;
  /** Environment variables projected from the connection's `env_var` secret bindings. */
  env: Record<string, string>;
  /** Every secret plaintext released for this use: scrubbed from stderr and errors. */
  secretValues: string[];
  /** The run the call is for; part of the identity when the template asks for per-run slots. */
  runId?: string | null;
  /** Which workspace the process works in (templates with a workspace cwd policy). */
  workspaceScope?: string | null;
  /** That workspace's directory, resolved by the server (never by an agent). */
  workspaceDir?: string | null;
}

export interface Deferred {
  deferred: true;
  retryAfterMs: number;
}

export const isDeferred = (v: unknown): v is Deferred =>
  typeof v === "object" && v !== null && (v as { deferred?: unknown }).deferred === true;

type SlotState = "new" | "starting" | "running" | "crashed" | "suppressed" | "stopping" | "stopped";

interface SlotIdentity {
  companyId: string;
  connectionId: string;
  templateId: string;
  workspaceScope: string;
  credentialScope: string;
  trustScope: string;
  runId: string | null;
}

interface SlotSpec {
  /** The catalogue command it runs (re-checked on every call, see catalog.ts `resolveLaunch`). */
  catalogCommandId: string;
  launch: LaunchSpec;
  secretEnv: Record<string, string>;
  cwdPolicy: string;
  workspaceDir: string | null;
}

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
  /** Why the slot is being / was stopped on purpose (idle, admin, shutdown, …). */
  stopReason: string | null = null;
  /** A planned exit of the process of this generation (stop or restart). */
  expectedExitGeneration = -1;
  crashRecordedGeneration = -1;
  /** What went wrong with the current process before it exited (stream broke, too large). */
  failureHint: string | null = null;
  inFlight = 0;
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
  /** The uid the current process runs as (when the server is root). */
  uid: number | null = null;
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
}

/** Output validation is the agent's client's business (see connectors/mcp-http.ts). */
const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

const MAX_LIST_PAGES = 50;
const MAX_LIST_ITEMS = 1_000;
/** A call waits at most this long for a crashed slot's backoff; longer → deferred. */
const MAX_BACKOFF_WAIT_MS = 5_000;
const LAST_USED_WRITE_INTERVAL_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

function timeoutAfter<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

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
  private readonly groups = new Set<number>();
  private exitHookInstalled = false;

  constructor(config: Partial<RuntimeConfig> = {}) {
    this.config = { ...runtimeConfigFromEnv(), ...config };
    this.supervisorId = processIdentity(this.host);
  }

  /** Overrides settings (tests). Applies to slots started afterwards, and to idle timers. */
  configure(config: Partial<RuntimeConfig>): void {
    this.config = { ...this.config, ...config };
  }

  // ------------------------------------------------------------------------------------------
  // Identity and capacity

  private identityOf(
    target: StdioTarget,
    launch: LaunchSpec,
  ): { identity: SlotIdentity; spec: SlotSpec; key: string } {
    const { template, connection, companyId } = target;
    if (
      template.companyId !== companyId ||
      connection.companyId !== companyId ||
      connection.stdioTemplateId !== template.id
    ) {
      throw new ServiceError(
        "unsafe_command_template",
        "the connection's stdio command template does not match",
      );
    }
    if (template.status !== "active") {
      throw new ServiceError("unsafe_command_template", "the stdio command template is disabled");
    }
    let workspaceScope = "none";
    let workspaceDir: string | null = null;
    if (template.cwdPolicy !== "none") {
      const dir = target.workspaceDir ?? null;
      let ok = false;
      if (dir && path.isAbsolute(dir) && !dir.includes("\0")) {
        try {
          ok = statSync(dir).isDirectory();
        } catch {
          ok = false;
        }
      }
      if (!ok || !dir) {
        throw new ServiceError(
          "workspace_unavailable",
          `the command template runs in the ${template.cwdPolicy === "issue_workspace" ? "issue" : "project"} workspace, and none is available for this call`,
        );
      }
      workspaceDir = path.normalize(dir);
      workspaceScope =
        target.workspaceScope?.slice(0, 200) ||
        `dir:${createHash("sha256").update(workspaceDir).digest("hex").slice(0, 16)}`;
    }
    const envEntries = Object.entries(target.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const credentialScope =
      envEntries.length === 0
        ? "none"
        : `env:${createHmac("sha256", this.scopeKey).update(JSON.stringify(envEntries)).digest("hex").slice(0, 24)}`;
    const identity: SlotIdentity = {
      companyId,
      connectionId: connection.id,
      templateId: template.id,
      workspaceScope,
      credentialScope,
      trustScope: template.trustScope,
      runId: template.perRunSlot ? (target.runId ?? null) : null,
    };
    // What runs is part of the key: a catalogue change never reuses a process of the old one.
    const launchDigest = createHash("sha256").update(JSON.stringify(launch)).digest("hex").slice(0, 24);
    const key = createHash("sha256")
      .update(JSON.stringify({ v: 2, ...identity, launch: launchDigest, supervisor: this.supervisorId }))
      .digest("hex");
    return {
      identity,
      key,
      spec: {
        catalogCommandId: launch.catalogCommandId,
        launch,
        secretEnv: { ...(target.env ?? {}) },
        cwdPolicy: template.cwdPolicy,
        workspaceDir,
      },
    };
  }

  private live(filter?: (s: Slot) => boolean): Slot[] {
    return [...this.slots.values()].filter((s) => s.holdsProcess && (!filter || filter(s)));
  }

  /** The least recently used running slot with no call in flight, among `filter`. */
  private evictable(filter: (s: Slot) => boolean, exclude?: Slot): Slot | null {
    let best: Slot | null = null;
    for (const s of this.slots.values()) {
      if (s === exclude || s.state !== "running" || s.inFlight > 0 || !filter(s)) continue;
      if (!best || s.lastUsedAt < best.lastUsedAt) best = s;
    }
    return best;
  }

  /**
   * Whether one more live slot for `companyId` fits, making room by stopping idle slots when
   * `evict` is set. Synchronous, so two callers cannot both take the last place.
   */
  private admit(companyId: string, evict: boolean, exclude?: Slot): boolean {
    const inCompany = (s: Slot) => s.identity.companyId === companyId;
    const victims: Slot[] = [];
    let companyLive = this.live(inCompany).filter((s) => s !== exclude).length;
    let hostLive = this.live().filter((s) => s !== exclude).length;
    const taken = new Set<Slot>();
    const pick = (filter: (s: Slot) => boolean) => {
      const v = this.evictable((s) => filter(s) && !taken.has(s), exclude);
      if (v) taken.add(v);
      return v;
    };
    if (companyLive >= this.config.capPerCompany) {
      const v = companyLive === this.config.capPerCompany ? pick(inCompany) : null;
      if (!v) return false;
      victims.push(v);
      companyLive--;
      hostLive--;
    }
    if (hostLive >= this.config.capPerHost) {
      const v = hostLive === this.config.capPerHost ? pick(() => true) : null;
      if (!v) return false;
      victims.push(v);
    }
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
    const stray = Object.keys(target.env ?? {}).filter((k) => !launch.secretEnvNames.includes(k));
    if (stray.length > 0) {
      throw await auditRefusal(
        db,
        { db, actor: { type: "system", reason: "runtime" }, requestId: "sys_runtime", now: () => new Date() },
        target.companyId,
        "tool_runtime_slot.refused",
        commandNotApproved(
          `secret environment variable(s) ${stray.map((k) => `\`${k}\``).join(", ")} are not secret slots of the catalogue command \`${launch.catalogCommand}\``,
        ),
        { templateId: target.template.id, catalogCommand: launch.catalogCommand, envNames: stray },
      );
    }
    const { identity, spec, key } = this.identityOf(target, launch);
    let slot = this.slots.get(key);
    if (slot?.state === "suppressed") throw this.suppressedError(slot);
    if (slot?.state === "crashed") {
      const wait = this.backoffRemaining(slot);
      if (wait > Math.min(MAX_BACKOFF_WAIT_MS, opts.timeoutMs ?? MAX_BACKOFF_WAIT_MS)) {
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
      throw this.toServiceError(err, slot, opts.timeoutMs);
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
    return this.use(
      db,
      target,
      async (client) => {
        const items: Tool[] = [];
        const seen = new Set<string>();
        let cursor: string | undefined;
        for (let i = 0; i < MAX_LIST_PAGES; i++) {
          const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
          items.push(...page.tools);
          if (items.length >= MAX_LIST_ITEMS) return items.slice(0, MAX_LIST_ITEMS);
          cursor = page.nextCursor;
          if (!cursor || seen.has(cursor)) break;
          seen.add(cursor);
        }
        return items;
      },
      { timeoutMs: timeout },
    );
  }

  async callTool(
    db: Db,
    target: StdioTarget,
    name: string,
    args: Record<string, unknown>,
    opts: { timeoutMs?: number; signal?: AbortSignal; onSlot?: (slotId: string | null) => void } = {},
  ): Promise<CallToolResult | Deferred> {
    const timeout = opts.timeoutMs ?? 10_000;
    return this.use(
      db,
      target,
      async (client, slot) => {
        opts.onSlot?.(slot.rowId);
        return (await client.callTool({ name, arguments: args ?? {} }, CallToolResultSchema, {
          timeout,
          signal: opts.signal,
        })) as CallToolResult;
      },
      { timeoutMs: timeout },
    );
  }

  private suppressedError(slot: Slot): ServiceError {
    return new ServiceError(
      "runtime_suppressed",
      `the local tool server crashed ${this.config.crashLimit} times within ${Math.round(this.config.crashWindowMs / 1000)} s and is suppressed until an administrator restarts it`,
      { slotId: slot.rowId },
    );
  }

  private backoffRemaining(slot: Slot): number {
    if (slot.state !== "crashed" || slot.crashedAt === null) return 0;
    const n = Math.max(1, slot.crashTimes.length);
    const delay = Math.min(this.config.backoffBaseMs * 2 ** (n - 1), this.config.backoffMaxMs);
    return Math.max(0, slot.crashedAt + delay - Date.now());
  }

  private toServiceError(err: unknown, slot: Slot, timeoutMs?: number): ServiceError {
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
    const cfg = this.config;
    const aborted = () => slot.generation !== generation || slot.stopReason !== null;
    // A previous slot of this identity may still be settling its row (unique live key).
    const prior = this.stopping.get(slot.key);
    if (prior) await prior;
    if (restarting) slot.restartCount++;
    const now = new Date();
    if (!slot.rowId) {
      const [row] = await slot.db
        .insert(toolRuntimeSlots)
        .values({
          companyId: slot.identity.companyId,
          connectionId: slot.identity.connectionId,
          templateId: slot.identity.templateId,
          kind: "stdio",
          slotKey: slot.key,
          workspaceScope: slot.identity.workspaceScope,
          credentialScope: slot.identity.credentialScope,
          trustScope: slot.identity.trustScope,
          runId: slot.identity.runId,
          status: "starting",
          host: this.host,
          idleTtlMs: slot.spec.launch.idleTtlMs ?? cfg.idleMs,
          health: "unknown",
          supervisorId: this.supervisorId,
          startedAt: now,
          lastUsedAt: now,
        })
        .returning({ id: toolRuntimeSlots.id })
        .catch((err: unknown) => {
          logError("runtime.slot_row_insert_failed", err, { connectionId: slot.identity.connectionId });
          throw new ServiceError("runtime_unavailable", "the runtime slot could not be recorded");
        });
      slot.rowId = row!.id;
    } else {
      await slot.write({
        status: "starting",
        restartCount: slot.restartCount,
        pid: null,
        processGroupId: null,
        idleTtlMs: slot.spec.launch.idleTtlMs ?? cfg.idleMs,
        supervisorId: this.supervisorId,
        stoppedAt: null,
      });
    }
    if (aborted()) throw new ServiceError("runtime_stopped", "the runtime slot was stopped while starting");

    const fail = (message: string): ServiceError => {
      const error = new ServiceError("runtime_start_failed", slot.scrub(message), {
        slotId: slot.rowId,
      });
      return error;
    };

    let env: Record<string, string>;
    let cwd: string;
    let plan: { command: string; args: string[]; uid?: number; gid?: number };
    try {
      ({ env, cwd, plan } = await this.prepareLaunch(slot));
    } catch (err) {
      this.removeCwd(slot);
      const e = fail(messageOf(err));
      this.recordCrash(slot, generation, e.message);
      await slot.flush();
      throw e;
    }
    if (aborted()) {
      this.removeCwd(slot);
      throw new ServiceError("runtime_stopped", "the runtime slot was stopped while starting");
    }

    if (restarting) slot.ring.write("[paperclip] restarting after a crash\n");
    slot.failureHint = null;
    let child: ChildProcess;
    try {
      child = spawn(plan.command, plan.args, {
        cwd,
        env: env as NodeJS.ProcessEnv, // exactly this, nothing inherited
        stdio: ["pipe", "pipe", "pipe"],
        detached: true, // its own session and process group: stopped as a group
        shell: false,
        windowsHide: true,
        // Root server: the slot runs as the unprivileged slot user (libuv also drops the
        // supplementary groups).
        ...(plan.uid !== undefined ? { uid: plan.uid, gid: plan.gid } : {}),
      });
    } catch (err) {
      const e = fail(`could not start the command: ${messageOf(err)}`);
      this.recordCrash(slot, generation, e.message);
      await slot.flush();
      throw e;
    }
    slot.child = child;
    try {
      await new Promise<void>((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", reject);
      });
    } catch (err) {
      slot.child = null;
      const e = fail(`could not start the command: ${messageOf(err)}`);
      this.recordCrash(slot, generation, e.message);
      await slot.flush();
      throw e;
    }
    child.on("error", (err) => {
      logWarn("runtime.child_error", { slotId: slot.rowId, message: slot.scrub(messageOf(err)) });
    });
    slot.pid = child.pid ?? null;
    slot.pgid = child.pid ?? null;
    slot.startedAt = Date.now();
    if (slot.pgid) this.groups.add(slot.pgid);
    this.installExitHook();
    const ring = slot.ring;
    child.stderr?.on("data", (chunk: Buffer) => ring.write(chunk));
    child.stderr?.on("error", () => {});
    child.once("exit", (code, signal) => this.onExit(slot, generation, child, code, signal));
    void slot.write({ pid: slot.pid, processGroupId: slot.pgid, startedAt: new Date(slot.startedAt) });

    const transport = new ChildStdioTransport(child, cfg.maxMessageBytes, (err) => {
      if (slot.generation !== generation) return;
      slot.failureHint = `the server broke the protocol stream: ${messageOf(err)}`;
      this.killGroup(slot, child.pid);
    });
    const client = new Client(
      { name: "paperclip-tools-gateway", version: "1.0.0" },
      { capabilities: {}, jsonSchemaValidator: passThroughValidator },
    );
    let errorsLogged = 0;
    client.onerror = (err) => {
      if (slot.generation !== generation || errorsLogged >= 20) return;
      errorsLogged++;
      logWarn("runtime.transport_error", { slotId: slot.rowId, message: slot.scrub(messageOf(err)) });
    };
    client.onclose = () => {
      // The protocol stream ended unexpectedly (the process exited, or closed its stdout):
      // the slot is crashed now, so no new call is sent to this client; its group is stopped.
      if (slot.generation !== generation || slot.expectedExitGeneration === generation) return;
      if (slot.state !== "running") return; // a failed start is recorded by start() itself
      if (child.pid && isProcessAlive(child.pid))
        slot.failureHint ??= "the server closed its protocol stream";
      this.recordCrash(slot, generation, slot.failureHint ?? "the process exited");
    };
    slot.transport = transport;
    slot.client = client;
    try {
      await timeoutAfter(
        client.connect(transport, { timeout: cfg.startTimeoutMs }),
        cfg.startTimeoutMs,
        () => new Error(`the server did not complete initialization within ${cfg.startTimeoutMs} ms`),
      );
    } catch (err) {
      if (aborted()) {
        throw new ServiceError("runtime_stopped", "the runtime slot was stopped while starting");
      }
      const reason =
        err instanceof McpError && err.code === ErrorCode.ConnectionClosed
          ? "the server exited before completing initialization"
          : messageOf(err);
      // Stop this attempt's process group; the exit handler would also record it.
      this.recordCrash(slot, generation, `start failed: ${reason}`);
      this.killGroup(slot, child.pid);
      await slot.flush();
      throw fail(`the local tool server did not start: ${reason}`);
    }
    if (aborted()) {
      throw new ServiceError("runtime_stopped", "the runtime slot was stopped while starting");
    }
    slot.state = "running";
    slot.health = "ok";
    logInfo("runtime.slot_started", {
      slotId: slot.rowId,
      companyId: slot.identity.companyId,
      connectionId: slot.identity.connectionId,
      pid: slot.pid,
      restart: restarting,
    });
    await slot.write({ status: "running", health: "ok" });
    return client;
  }

  /**
   * The command line, environment and working directory of one slot process, isolated for
   * this host: a fresh directory owned by the slot user (never the server's own directory, never
   * under PAPERCLIP_HOME), the slot user's uid/gid when the server is root, bwrap when
   * configured. Fixtures run from the read-only bundle.
   */
  private async prepareLaunch(slot: Slot): Promise<{
    env: Record<string, string>;
    cwd: string;
    plan: { command: string; args: string[]; uid?: number; gid?: number };
  }> {
    const { launch } = slot.spec;
    const iso = isolationPlan();
    if (!iso.ok) throw new Error(`slots cannot be isolated on this host: ${iso.message}`);
    const runtime = ensureRuntimeDir();
    if (iso.isolated) closeHomeToOthers();
    let command: string;
    let args: string[];
    const readOnly: string[] = [];
    if (launch.fixture) {
      const bundle = await fixtureBundle(runtime);
      command = process.execPath;
      args = [bundle, launch.fixture, "--stdio"];
      readOnly.push(path.dirname(bundle));
    } else if (launch.command) {
      command = launch.command;
      args = [...launch.args];
    } else {
      throw new Error("the catalogue command names neither a fixture nor an executable");
    }
    if (!commandStillUsable(command)) {
      throw new Error(`the command \`${command}\` is no longer an executable file`);
    }
    // The user this process runs as: the slot user, or (PAPERCLIP_SLOT_UID_RANGE) a uid of its
    // own with the slot group, so slots cannot read each other's /proc/<pid>/environ.
    let user = iso.slotUser;
    if (user && iso.uidRange) {
      const taken = new Set(
        [...this.slots.values()].map((s) => s.uid).filter((u): u is number => typeof u === "number"),
      );
      const uid = allocateSlotUid(iso.uidRange, taken);
      if (uid === null) throw new Error("every uid of PAPERCLIP_SLOT_UID_RANGE is in use");
      user = { ...user, uid, user: String(uid) };
    }
    slot.uid = user?.uid ?? null;
    if (user) {
      const problem =
        unreadableForOthers(command, true) ?? (launch.fixture ? unreadableForOthers(args[0]!, false) : null);
      if (problem) throw new Error(`the slot user \`${user.user}\` cannot run it: ${problem}`);
    }
    const env = buildChildEnv(command, launch.passEnv, { ...launch.env, ...slot.spec.secretEnv });
    let cwd: string;
    if (slot.spec.cwdPolicy === "none" || !slot.spec.workspaceDir) {
      // A private, empty working directory of its own: not the server's (which holds its config).
      cwd = makeSlotDir(runtime, user);
      slot.cwd = cwd;
      // Temporary files (and the file sandbox's root) stay inside it.
      env.TMPDIR = cwd;
    } else {
      cwd = slot.spec.workspaceDir;
      slot.cwd = null;
    }
    const plan = spawnPlan(iso, user, command, args, {
      cwd,
      runtime,
      readOnly,
      allowNetwork: launch.allowNetwork,
      writable: [cwd],
    });
    return { env, cwd, plan };
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
    slot.crashTimes = [...slot.crashTimes.filter((t) => now - t < cfg.crashWindowMs), now];
    slot.crashedAt = now;
    slot.lastError = slot.scrub(reason).slice(0, 2000);
    slot.client = null;
    slot.transport = null;
    // Leftovers of the crashed process (grandchildren) go with its group.
    const pgid = slot.pgid;
    slot.pid = null;
    slot.pgid = null;
    this.killGroup(slot, pgid);
    this.removeCwd(slot);
    const suppressed = slot.crashTimes.length >= cfg.crashLimit;
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

  /** Signals a slot's process group (SIGTERM → SIGKILL), in the background. */
  private killGroup(slot: Slot, pgid: number | null | undefined): void {
    if (!pgid) return;
    this.terminate(pgid).catch((err) => logError("runtime.kill_failed", err, { slotId: slot.rowId }));
  }

  private async terminate(pgid: number): Promise<void> {
    try {
      await terminateGroup(pgid, this.config.graceMs);
    } finally {
      this.groups.delete(pgid);
    }
  }

  private removeCwd(slot: Slot): void {
    if (!slot.cwd) return;
    const dir = slot.cwd;
    slot.cwd = null;
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
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
      await this.endProcess(slot);
      // A start in progress fails on its own once its process is gone.
      if (slot.startPromise) await slot.startPromise.catch(() => {});
      await this.endProcess(slot);
      this.removeCwd(slot);
      slot.state = "stopped";
      logInfo("runtime.slot_stopped", {
        slotId: slot.rowId,
        companyId: slot.identity.companyId,
        connectionId: slot.identity.connectionId,
        reason,
      });
      await slot.afterWrites(async () => {
        if (!slot.rowId) return;
        const finalRow = {
          status: "stopped",
          health: wasState === "suppressed" ? "failed" : slot.health,
          pid: null,
          processGroupId: null,
          stoppedAt: new Date(),
          lastUsedAt: new Date(slot.lastUsedAt),
          stderrTail: slot.ring.tail() || null,
          updatedAt: new Date(),
        };
        try {
          await slot.db.transaction(async (tx) => {
            await tx.update(toolRuntimeSlots).set(finalRow).where(eq(toolRuntimeSlots.id, slot.rowId!));
            if (persist) await persist(tx);
          });
        } catch (err) {
          logError("runtime.slot_row_write_failed", err, { slotId: slot.rowId });
          if (persist) throw err;
        }
      });
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

  /** Ends the current process (if any) and waits for its group to be gone. */
  private async endProcess(slot: Slot): Promise<void> {
    const child = slot.child;
    const pgid = child?.pid ?? slot.pgid;
    slot.expectedExitGeneration = slot.generation;
    const client = slot.client;
    slot.client = null;
    slot.transport = null;
    if (client) await client.close().catch(() => {});
    if (pgid) await this.terminate(pgid);
    if (child && child.exitCode === null && child.signalCode === null) {
      await Promise.race([new Promise((r) => child.once("exit", r)), sleep(1_000)]);
    }
    slot.child = null;
    slot.pid = null;
    slot.pgid = null;
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
    this.clearIdle(slot);
    slot.inFlight++; // keeps it from idling or being evicted while restarting
    try {
      if (slot.startPromise) await slot.startPromise.catch(() => {});
      slot.generation++; // handlers of the old process ignore themselves
      slot.stopReason = "restarted by an administrator"; // what calls cut off by it are told
      try {
        await this.endProcess(slot);
      } finally {
        slot.stopReason = null;
      }
      this.removeCwd(slot);
      slot.crashTimes = [];
      slot.crashedAt = null;
      slot.state = "new";
      slot.health = "unknown";
      await slot.afterWrites(async () => {
        await slot.db.transaction(async (tx) => {
          await tx
            .update(toolRuntimeSlots)
            .set({
              status: "starting",
              health: "unknown",
              recentRestarts: [],
              pid: null,
              processGroupId: null,
              updatedAt: new Date(),
            })
            .where(eq(toolRuntimeSlots.id, slot.rowId!));
          if (persist) await persist(tx);
        });
      });
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

  /** On process exit, SIGKILL every slot group synchronously (the reaper covers hard crashes). */
  private installExitHook(): void {
    if (this.exitHookInstalled) return;
    this.exitHookInstalled = true;
    process.once("exit", () => {
      for (const pgid of this.groups) signalGroup(pgid, "SIGKILL");
    });
  }
}

type Holder = typeof globalThis & { __paperclipRuntimeSupervisor?: RuntimeSupervisor };

/** The process's supervisor (kept on globalThis so dev reloads do not duplicate slots). */
export function runtimeSupervisor(): RuntimeSupervisor {
  const g = globalThis as Holder;
  g.__paperclipRuntimeSupervisor ??= new RuntimeSupervisor();
  return g.__paperclipRuntimeSupervisor;
}
