/**
 * Launching a runtime slot's process: its row, the isolated command line, environment and
 * working directory, the spawn (its own process group), the protocol stream and the MCP
 * handshake. Exits and crashes are reported back to the supervisor through `LaunchDeps`.
 */

import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Db } from "@/db/client";
import { isServiceError, ServiceError } from "../errors";
import { logError, logInfo, logWarn } from "../log";
import { timeoutAfter } from "../net/race-abort";
import { auditRefusal, commandNotApproved, type LaunchSpec } from "./catalog";
import { createSlotCgroup, joinCgroup, removeCgroup, slotCgroupBase } from "./cgroup";
import type { RuntimeConfig } from "./config";
import { buildChildEnv, commandStillUsable } from "./env";
import { type IsolationPlan, type SlotUser, sharedUidProblem, slotIsolationUnavailable } from "./host";
import type { StdioTarget } from "./identity";
import { isProcessAlive, killSlotTreeNow, type SlotTree, terminateSlotTree } from "./processes";
import { attachSlotRelay, SLOT_CLIENT_CAPABILITIES } from "./relay";
import {
  closeHomeToOthers,
  ensureRuntimeDir,
  fixtureBundle,
  makeSlotDir,
  spawnPlan,
  unreadableForOthers,
} from "./sandbox";
import type { Slot } from "./slot";
import { claimSlotUid } from "./slot-uids";
import { ChildStdioTransport } from "./transport";

/** Output validation is the agent's client's business (see connectors/mcp-http.ts). */
const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

const MAX_LIST_PAGES = 50;
const MAX_LIST_ITEMS = 1_000;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Slot process trees (process group and own uid, `processes.ts`) started and not yet
 * confirmed gone; SIGKILLed synchronously on process exit.
 */
export class ProcessGroups {
  /** By process group id: the tree of the slot process that leads it. */
  private readonly trees = new Map<number, SlotTree>();
  private exitHookInstalled = false;

  constructor(private readonly graceMs: () => number) {}

  /** Tracks a started tree (the reaper covers hard crashes of the server itself). */
  add(tree: SlotTree): void {
    if (tree.pgid) this.trees.set(tree.pgid, tree);
    if (this.exitHookInstalled) return;
    this.exitHookInstalled = true;
    process.once("exit", () => {
      for (const t of this.trees.values()) killSlotTreeNow(t);
    });
  }

  /**
   * SIGTERM → SIGKILL after the grace period to the group, every process of the slot's own
   * uid and of its cgroup; resolves when none is left.
   */
  async terminate(tree: SlotTree): Promise<void> {
    const known = tree.pgid ? this.trees.get(tree.pgid) : undefined;
    const full: SlotTree = {
      pgid: tree.pgid,
      uid: tree.uid ?? known?.uid ?? null,
      cgroup: tree.cgroup ?? known?.cgroup ?? null,
    };
    try {
      await terminateSlotTree(full, this.graceMs());
    } finally {
      if (tree.pgid) this.trees.delete(tree.pgid);
    }
  }

  /** `terminate` in the background; a failure is logged against `owner`. */
  kill(tree: SlotTree, owner: { rowId: string | null }): void {
    if (!tree.pgid && tree.uid === null && !tree.cgroup) return;
    this.terminate(tree).catch((err) => logError("runtime.kill_failed", err, { slotId: owner.rowId }));
  }
}

/** Removes the slot's cgroup when no process was started in it. */
function dropCgroup(slot: Slot): void {
  if (slot.cgroup) removeCgroup(slot.cgroup);
  slot.cgroup = null;
}

/** What a launch needs from its supervisor. */
export interface LaunchDeps {
  config: RuntimeConfig;
  host: string;
  supervisorId: string;
  groups: ProcessGroups;
  /** How slots are isolated on this host now (read on every start). */
  isolation: () => IsolationPlan;
  /** Marks `generation` of the slot crashed (once) and decides on suppression. */
  recordCrash: (slot: Slot, generation: number, reason: string) => void;
  onExit: (
    slot: Slot,
    generation: number,
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
  ) => void;
}

/**
 * Starts process `generation` of `slot` and completes the MCP handshake; the slot is
 * `running` when this resolves. A failure is recorded on the slot as a crash and thrown
 * (`runtime_start_failed`, or `runtime_stopped` when the slot was stopped meanwhile).
 */
export async function launchSlot(
  slot: Slot,
  generation: number,
  restarting: boolean,
  deps: LaunchDeps,
): Promise<Client> {
  const cfg = deps.config;
  const aborted = () => slot.generation !== generation || slot.stopReason !== null;
  const now = new Date();
  if (!slot.rowId) {
    await slot.insertRow(deps.host, deps.supervisorId, slot.spec.launch.idleTtlMs ?? cfg.idleMs, now);
  } else {
    await slot.write({
      status: "starting",
      restartCount: slot.restartCount,
      pid: null,
      processGroupId: null,
      idleTtlMs: slot.spec.launch.idleTtlMs ?? cfg.idleMs,
      supervisorId: deps.supervisorId,
      stoppedAt: null,
      // The previous process's uid is released: a new one is claimed below.
      slotUid: null,
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
    ({ env, cwd, plan } = await prepareLaunch(slot, { host: deps.host, isolation: deps.isolation() }));
  } catch (err) {
    slot.removeCwd();
    // Refused, not crashed: nothing was started.
    if (isServiceError(err) && err.code === "slot_isolation_unavailable") throw err;
    const e = fail(messageOf(err));
    deps.recordCrash(slot, generation, e.message);
    await slot.flush();
    throw e;
  }
  if (aborted()) {
    slot.removeCwd();
    throw new ServiceError("runtime_stopped", "the runtime slot was stopped while starting");
  }

  if (restarting) slot.ring.write("[paperclip] restarting after a crash\n");
  const cgroupBase = slotCgroupBase();
  slot.cgroup = cgroupBase ? createSlotCgroup(cgroupBase) : null;
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
      // Root server: the slot runs as its own unprivileged uid and gid (libuv also drops the
      // supplementary groups).
      ...(plan.uid !== undefined ? { uid: plan.uid, gid: plan.gid } : {}),
    });
  } catch (err) {
    dropCgroup(slot);
    const e = fail(`could not start the command: ${messageOf(err)}`);
    deps.recordCrash(slot, generation, e.message);
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
    dropCgroup(slot);
    const e = fail(`could not start the command: ${messageOf(err)}`);
    deps.recordCrash(slot, generation, e.message);
    await slot.flush();
    throw e;
  }
  child.on("error", (err) => {
    logWarn("runtime.child_error", { slotId: slot.rowId, message: slot.scrub(messageOf(err)) });
  });
  slot.pid = child.pid ?? null;
  slot.pgid = child.pid ?? null;
  // This process's own uid (null when shared): what finds descendants that left the group.
  const uid = slot.uid;
  slot.startedAt = Date.now();
  // Its own cgroup, where the host delegates one (cgroup.ts): every descendant stays in it.
  const cgroup = slot.cgroup;
  if (cgroup && child.pid && !joinCgroup(cgroup, child.pid)) {
    logWarn("runtime.slot_cgroup_failed", { slotId: slot.rowId });
    removeCgroup(cgroup);
    slot.cgroup = null;
  }
  const tree: SlotTree = { pgid: slot.pgid, uid, cgroup: slot.cgroup };
  deps.groups.add(tree);
  const ring = slot.ring;
  child.stderr?.on("data", (chunk: Buffer) => ring.write(chunk));
  child.stderr?.on("error", () => {});
  child.once("exit", (code, signal) => deps.onExit(slot, generation, child, code, signal));
  void slot.write({ pid: slot.pid, processGroupId: slot.pgid, startedAt: new Date(slot.startedAt) });

  const transport = new ChildStdioTransport(child, cfg.maxMessageBytes, (err) => {
    if (slot.generation !== generation) return;
    slot.failureHint = `the server broke the protocol stream: ${messageOf(err)}`;
    deps.groups.kill(tree, slot);
  });
  const client = new Client(
    { name: "paperclip-tools-gateway", version: "1.0.0" },
    { capabilities: SLOT_CLIENT_CAPABILITIES, jsonSchemaValidator: passThroughValidator },
  );
  attachSlotRelay(client, slot, generation);
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
    if (child.pid && isProcessAlive(child.pid)) slot.failureHint ??= "the server closed its protocol stream";
    deps.recordCrash(slot, generation, slot.failureHint ?? "the process exited");
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
      // INVARIANT: a start that gives up ends the process it spawned — whoever aborted it may
      // have ended the slot's process before this one existed.
      deps.groups.kill(tree, slot);
      throw new ServiceError("runtime_stopped", "the runtime slot was stopped while starting");
    }
    const reason =
      err instanceof McpError && err.code === ErrorCode.ConnectionClosed
        ? "the server exited before completing initialization"
        : messageOf(err);
    // Stop this attempt's process group; the exit handler would also record it.
    deps.recordCrash(slot, generation, `start failed: ${reason}`);
    deps.groups.kill(tree, slot);
    await slot.flush();
    throw fail(`the local tool server did not start: ${reason}`);
  }
  if (aborted()) {
    deps.groups.kill(tree, slot);
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
 * this host: a fresh directory owned by the slot's own uid (never the server's own
 * directory, never under PAPERCLIP_HOME), a uid and gid of its own claimed in the database when
 * the server is root, bwrap when configured. Fixtures run from the read-only bundle.
 */
export async function prepareLaunch(
  slot: Slot,
  opts: { host: string; isolation: IsolationPlan },
): Promise<{
  env: Record<string, string>;
  cwd: string;
  plan: { command: string; args: string[]; uid?: number; gid?: number };
}> {
  const { launch } = slot.spec;
  const iso = opts.isolation;
  if (!iso.ok) throw new Error(`slots cannot be isolated on this host: ${iso.message}`);
  // Backstop of the audited refusal in `refuseSharedUid` (the plan may change in between).
  const shared = sharedUidProblem(iso, Object.keys(slot.spec.secretEnv).length > 0);
  if (shared) throw slotIsolationUnavailable(shared);
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
  // Root server: a uid and gid of its own, unique among the live slots of this host (claimed
  // on its row), so no other slot can read its /proc/<pid>/environ, files or signal it.
  let user: SlotUser | null = null;
  slot.uid = null;
  if (iso.uidRange) {
    if (!slot.rowId) throw new Error("the slot has no row to record its uid on");
    const uid = await claimSlotUid(slot.db, { rowId: slot.rowId, host: opts.host, range: iso.uidRange });
    user = { uid, gid: uid, user: String(uid), group: String(uid) };
    slot.uid = uid;
  }
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

/**
 * Refuses (audited, `command_not_approved`) secret environment variables the catalogue
 * command has no secret slot for: the operator's catalogue decides on every call.
 */
export async function refuseUnslottedEnv(db: Db, target: StdioTarget, launch: LaunchSpec): Promise<void> {
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
}

/**
 * Refuses (audited, `slot_isolation_unavailable`) a slot with bound secrets on a host that
 * cannot keep it apart from other slots (`sharedUidProblem`): fail closed before any process
 * holds the secrets.
 */
export async function refuseSharedUid(
  db: Db,
  target: StdioTarget,
  launch: LaunchSpec,
  plan: IsolationPlan,
): Promise<void> {
  const problem = sharedUidProblem(plan, Object.keys(target.env ?? {}).length > 0);
  if (!problem) return;
  throw await auditRefusal(
    db,
    { db, actor: { type: "system", reason: "runtime" }, requestId: "sys_runtime", now: () => new Date() },
    target.companyId,
    "tool_runtime_slot.refused",
    slotIsolationUnavailable(problem),
    { templateId: target.template.id, catalogCommand: launch.catalogCommand },
  );
}

/** Every tool of a slot's server, paging through at most 50 pages and 1,000 tools. */
export function listAllTools(client: Client, timeout: number): Promise<Tool[]> {
  return listAll(async (cursor) => {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    return { items: page.tools, nextCursor: page.nextCursor };
  });
}

/** Every item of a paginated list, at most 50 pages and 1,000 items. */
async function listAll<I>(
  page: (cursor: string | undefined) => Promise<{ items: I[]; nextCursor?: string }>,
): Promise<I[]> {
  const items: I[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < MAX_LIST_PAGES; i++) {
    const p = await page(cursor);
    items.push(...p.items);
    if (items.length >= MAX_LIST_ITEMS) return items.slice(0, MAX_LIST_ITEMS);
    cursor = p.nextCursor;
    if (!cursor || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return items;
}

/** What a slot's server offers beside tools; each `[]` when it lacks the capability. */
export type SlotSurface = Awaited<ReturnType<typeof listSurface>>;

/** The resources, resource templates and prompts of a slot's server (bounded like its tools). */
export async function listSurface(client: Client, timeout: number) {
  const caps = client.getServerCapabilities() ?? {};
  const opts = { timeout };
  const [resources, templates, prompts] = await Promise.all([
    caps.resources
      ? listAll(async (cursor) => {
          const p = await client.listResources(cursor ? { cursor } : undefined, opts);
          return { items: p.resources, nextCursor: p.nextCursor };
        })
      : [],
    caps.resources
      ? listAll(async (cursor) => {
          const p = await client.listResourceTemplates(cursor ? { cursor } : undefined, opts);
          return { items: p.resourceTemplates, nextCursor: p.nextCursor };
        })
      : [],
    caps.prompts
      ? listAll(async (cursor) => {
          const p = await client.listPrompts(cursor ? { cursor } : undefined, opts);
          return { items: p.prompts, nextCursor: p.nextCursor };
        })
      : [],
  ]);
  return { resources, templates, prompts };
}
