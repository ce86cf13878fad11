// long-file: one suite over one shared set of real slot processes and rows; split, each part would repeat the setup
/**
 * Runtime slots end to end: real slot processes (the `lab` fixture over stdio), real process
 * groups and signals, real PostgreSQL rows, the admin routes.
 */

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as restartRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/[slotId]/restart/route";
import * as slotRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/[slotId]/route";
import * as stopRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/[slotId]/stop/route";
import * as slotsRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/route";
import * as disableTemplateRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/[templateId]/disable/route";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import {
  activityLog,
  companies,
  heartbeatRuns,
  type toolConnections,
  toolRuntimeSlots,
  toolStdioTemplates,
} from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { isServiceError } from "@/server/errors";
import { call } from "@/server/testing/api";
import { insertApplication, insertStdioConnection } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { systemContext } from "../context";
import { CreateStdioCommandInput, createStdioCommand } from "./catalog";
import { safePath } from "./env";
import {
  isDeferred,
  reapOrphanedSlots,
  runtimeCapacity,
  runtimeSupervisor,
  type StdioTarget,
  shutdownAllSlots,
  stdioCallTool,
  stdioListTools,
  stopRunSlots,
} from "./index";
import { childProcesses, isProcessAlive, processGroupMembers, processIdentity } from "./processes";

const SECRET = "sekret-value-7f3a9c21-do-not-leak";
const CANARY = "runtime-canary-value-4b1d";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let applicationId: string;
type TemplateRow = typeof toolStdioTemplates.$inferSelect;
type ConnectionRow = typeof toolConnections.$inferSelect;
let template: TemplateRow;
const board = () => ({ token: demo.boardApiKey });
const baselineChildren = new Set<number>();
/** Every process a test saw (slot processes, grandchildren): all must be gone at the end. */
const seenPids = new Set<number>();
let connectionCounter = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(v)}`);
    await sleep(50);
  }
}

async function makeTemplate(
  body: Record<string, unknown>,
  catalogCommand = "test.lab",
): Promise<TemplateRow> {
  const res = await call<{ id: string }>(templatesRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { name: `lab ${randomUUID().slice(0, 8)}`, catalogCommand, ...body },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const [row] = await database.db
    .select()
    .from(toolStdioTemplates)
    .where(eq(toolStdioTemplates.id, res.json.id));
  return row!;
}

async function makeConnection(t: TemplateRow = template, company = companyId, appId = applicationId) {
  return insertStdioConnection(database.db, {
    companyId: company,
    applicationId: appId,
    templateId: t.id,
    name: `lab ${++connectionCounter}`,
  });
}

function target(
  conn: ConnectionRow,
  t: TemplateRow = template,
  extra: Partial<StdioTarget> = {},
): StdioTarget {
  return { companyId: conn.companyId, connection: conn, template: t, env: {}, secretValues: [], ...extra };
}

async function lab(
  conn: ConnectionRow,
  tool: string,
  args: Record<string, unknown> = {},
  extra: Partial<StdioTarget> = {},
  t: TemplateRow = template,
): Promise<Record<string, unknown>> {
  const out = await stdioCallTool(database.db, target(conn, t, extra), tool, args, { timeoutMs: 15_000 });
  if (isDeferred(out)) throw new Error(`deferred: ${JSON.stringify(out)}`);
  const result = out as CallToolResult;
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

async function slotRows(conn: ConnectionRow) {
  return database.db.select().from(toolRuntimeSlots).where(eq(toolRuntimeSlots.connectionId, conn.id));
}

async function liveRow(conn: ConnectionRow) {
  const rows = await slotRows(conn);
  return rows.find((r) => !["stopped", "crashed"].includes(r.status)) ?? null;
}

async function labPid(conn: ConnectionRow, extra: Partial<StdioTarget> = {}): Promise<number> {
  const { pid } = (await lab(conn, "pid", {}, extra)) as { pid: number };
  seenPids.add(pid);
  return pid;
}

const newChildren = () => childProcesses(process.pid).filter((p) => !baselineChildren.has(p.pid));

async function expectError(p: Promise<unknown>, code: string) {
  try {
    await p;
  } catch (err) {
    expect(isServiceError(err) ? err.code : String(err)).toBe(code);
    return err;
  }
  throw new Error(`expected ${code}`);
}

beforeAll(async () => {
  for (const c of childProcesses(process.pid)) baselineChildren.add(c.pid);
  process.env.RUNTIME_CANARY = CANARY;
  process.env.LAB_ALLOWED = "allowed-value";
  runtimeSupervisor().configure({
    idleMs: 60_000,
    graceMs: 500,
    backoffBaseMs: 300,
    capPerCompany: 4,
    capPerHost: 16,
    startTimeoutMs: 20_000,
  });
  ({ database, demo } = await demoWorld());
  companyId = demo.companyId;
  applicationId = await insertApplication(database.db, companyId, "lab", "Lab", "mcp_stdio");
  // The operator's catalogue: the lab fixture with host variables it may pass and a secret slot.
  const operator = systemContext(database.db, "test");
  await createStdioCommand(
    operator,
    CreateStdioCommandInput.parse({
      key: "test.lab",
      name: "Lab (tests)",
      fixture: "lab",
      passEnv: ["LAB_ALLOWED", "HOME_NOT_SET_ANYWHERE"],
      envSlots: [{ name: "LAB_SECRET_TOKEN", secret: true }],
    }),
  );
  await createStdioCommand(
    operator,
    CreateStdioCommandInput.parse({
      key: "test.broken",
      name: "Exits at once",
      command: "node",
      args: ["-e", "process.exit(7)"],
    }),
  );
  template = await makeTemplate({});
}, 60_000);

afterAll(async () => {
  await shutdownAllSlots();
  delete process.env.RUNTIME_CANARY;
  delete process.env.LAB_ALLOWED;
  await closeDemoWorld(database);
});

describe("stdio command templates", () => {
  it("records the catalogue command it starts, and an activity row", async () => {
    expect(template.catalogCommandId).not.toBeNull();
    expect(template.command).toBe("fixture:lab");
    const list = await call<{ templates: { id: string; catalogCommandId: string }[] }>(
      templatesRoute.GET,
      "GET",
      "/",
      { ...board(), params: { companyId } },
    );
    expect(list.status).toBe(200);
    expect(list.json.templates.find((t) => t.id === template.id)?.catalogCommandId).toBe(
      template.catalogCommandId,
    );
    const [activity] = await database.db
      .select()
      .from(activityLog)
      .where(
        and(eq(activityLog.entityId, template.id), eq(activityLog.action, "tool_stdio_template.create")),
      );
    expect(activity?.details).toMatchObject({ catalogCommand: "test.lab" });
  });

  it.each([
    [{ cwdPolicy: "anywhere" }, "cwdPolicy"],
    [{ env: { A: "b" } }, "env"],
    [{ cwd: "/tmp" }, "cwd"],
    [{ catalogCommand: undefined }, "catalogCommand"],
    [{ slotValues: { args: { a: 1 } } }, "slotValues"],
  ])("refuses the malformed %j (400)", async (body, why) => {
    const res = await call<{ error: { code: string; message: string; details?: unknown } }>(
      templatesRoute.POST,
      "POST",
      "/",
      { ...board(), params: { companyId }, body: { name: "bad", catalogCommand: "test.lab", ...body } },
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json.error)).toContain(why);
  });
  it("agent keys cannot create templates or use the runtime admin routes", async () => {
    const agent = { token: demo.agents[0]!.apiKey };
    const create = await call(templatesRoute.POST, "POST", "/", {
      ...agent,
      params: { companyId },
      body: { name: "agent", catalogCommand: "test.lab" },
    });
    expect(create.status).toBe(403);
    const slots = await call(slotsRoute.GET, "GET", "/", { ...agent, params: { companyId } });
    expect(slots.status).toBe(403);
  });
});

describe("lifecycle", { timeout: 90_000 }, () => {
  it("starts lazily on the first call and reuses one process: increment gives 1 then 2", async () => {
    const conn = await makeConnection();
    expect(await slotRows(conn)).toHaveLength(0);
    expect(newChildren()).toHaveLength(0);
    expect(await lab(conn, "increment")).toEqual({ value: 1 });
    expect(await lab(conn, "increment")).toEqual({ value: 2 });
    const rows = await slotRows(conn);
    expect(rows).toHaveLength(1);
    const row = await until(
      () => liveRow(conn),
      (r) => r?.status === "running" && r.pid !== null,
    );
    expect(row!.host).toBe(os.hostname());
    expect(row!.processGroupId).toBe(row!.pid);
    expect(row!.supervisorId).toBe(processIdentity(os.hostname()));
    expect(isProcessAlive(row!.pid)).toBe(true);
    seenPids.add(row!.pid!);
    const tools = await stdioListTools(database.db, target(conn));
    expect(tools.map((t) => t.name)).toContain("increment");
    expect(await slotRows(conn)).toHaveLength(1);
  });

  it("20 concurrent first calls share one start and exactly one OS process", async () => {
    await shutdownAllSlots();
    expect(newChildren()).toHaveLength(0);
    const conn = await makeConnection();
    const results = await Promise.all(Array.from({ length: 20 }, () => lab(conn, "increment")));
    expect(results.map((r) => r.value as number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const pids = await Promise.all(Array.from({ length: 20 }, () => labPid(conn)));
    expect(new Set(pids).size).toBe(1);
    const children = newChildren();
    expect(children.map((c) => c.pid)).toEqual([pids[0]]);
    expect(processGroupMembers(pids[0]!).map((m) => m.pid)).toEqual([pids[0]]);
    expect(await slotRows(conn)).toHaveLength(1);
  });

  it("an idle slot stops after the idle TTL and its process is gone; the next call starts over", async () => {
    const supervisor = runtimeSupervisor();
    supervisor.configure({ idleMs: 1_000 });
    try {
      const conn = await makeConnection();
      expect(await lab(conn, "increment")).toEqual({ value: 1 });
      const pid = await labPid(conn);
      const started = Date.now();
      await until(
        () => isProcessAlive(pid),
        (alive) => !alive,
        8_000,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(800);
      const rows = await until(
        () => slotRows(conn),
        (r) => r.every((x) => x.status === "stopped"),
      );
      expect(rows[0]!.stoppedAt).not.toBeNull();
      expect(rows[0]!.pid).toBeNull();
      expect(await lab(conn, "increment")).toEqual({ value: 1 });
      expect(await labPid(conn)).not.toBe(pid);
    } finally {
      supervisor.configure({ idleMs: 60_000 });
    }
  });

  it("per-run templates get one slot per run; stopRunSlots stops them", async () => {
    const perRun = await makeTemplate({ perRunSlot: true, trustScope: "run" });
    const conn = await makeConnection(perRun);
    const runs = await database.db
      .insert(heartbeatRuns)
      .values(
        [0, 1].map(() => ({
          companyId,
          agentId: demo.agents[0]!.id,
          status: "running" as const,
          startedByActorType: "system" as const,
          startedByActorId: "test",
        })),
      )
      .returning();
    const [a, b] = runs.map((r) => r.id);
    expect(await lab(conn, "increment", {}, { runId: a }, perRun)).toEqual({ value: 1 });
    expect(await lab(conn, "increment", {}, { runId: a }, perRun)).toEqual({ value: 2 });
    expect(await lab(conn, "increment", {}, { runId: b }, perRun)).toEqual({ value: 1 });
    const rows = await slotRows(conn);
    expect(rows.map((r) => r.runId).sort()).toEqual([a, b].sort());
    expect(new Set(rows.map((r) => r.slotKey)).size).toBe(2);
    expect(await stopRunSlots(a!)).toBe(1);
    const after = await slotRows(conn);
    expect(after.find((r) => r.runId === a)!.status).toBe("stopped");
    expect(after.find((r) => r.runId === b)!.status).not.toBe("stopped");
  });
});

describe("capacity", { timeout: 90_000 }, () => {
  it("at the company and host caps, calls are deferred; an idle slot is evicted to make room", async () => {
    await shutdownAllSlots();
    const supervisor = runtimeSupervisor();
    supervisor.configure({ capPerCompany: 2, capPerHost: 3 });
    try {
      const [c1, c2, c3] = [await makeConnection(), await makeConnection(), await makeConnection()];
      const busy = [lab(c1, "sleep", { ms: 2_500 }), lab(c2, "sleep", { ms: 2_500 })];
      await sleep(50);
      const deferred = await stdioCallTool(database.db, target(c3), "increment", {}, { timeoutMs: 5_000 });
      expect(deferred).toEqual({ deferred: true, retryAfterMs: expect.any(Number) });
      expect((deferred as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
      expect(runtimeCapacity(companyId)).toMatchObject({ available: false });
      expect(runtimeCapacity(companyId, c1.id)).toEqual({ available: true });
      await expectError(stdioListTools(database.db, target(c3)), "runtime_deferred");
      expect(await slotRows(c3)).toHaveLength(0);

      // Another company: one more slot fits the host cap (3), the next does not.
      const [other] = await database.db
        .insert(companies)
        .values({ name: "Other Co", slug: `other-${randomUUID().slice(0, 8)}`, issuePrefix: "OTH" })
        .returning();
      const otherAppId = await insertApplication(database.db, other!.id, "lab", "Lab", "mcp_stdio");
      const [otherTemplate] = await database.db
        .insert(toolStdioTemplates)
        .values({
          companyId: other!.id,
          name: "lab",
          command: template.command,
          catalogCommandId: template.catalogCommandId,
        })
        .returning();
      const o1 = await makeConnection(otherTemplate!, other!.id, otherAppId);
      const o2 = await makeConnection(otherTemplate!, other!.id, otherAppId);
      const o1Busy = lab(o1, "sleep", { ms: 1_500 }, {}, otherTemplate!);
      await sleep(50);
      expect(await stdioCallTool(database.db, target(o2, otherTemplate!), "increment", {})).toMatchObject({
        deferred: true,
      });
      await Promise.all([...busy, o1Busy]);

      // Nothing in flight now: the least recently used slot of the company makes room.
      expect(runtimeCapacity(companyId)).toEqual({ available: true });
      expect(await lab(c3, "increment")).toEqual({ value: 1 });
      const stopped = await until(
        async () => [...(await slotRows(c1)), ...(await slotRows(c2))].filter((r) => r.status === "stopped"),
        (r) => r.length === 1,
      );
      expect(stopped).toHaveLength(1);
      expect(
        supervisor.allSlots().filter((s) => s.holdsProcess && s.identity.companyId === companyId),
      ).toHaveLength(2);
    } finally {
      supervisor.configure({ capPerCompany: 4, capPerHost: 16 });
      await shutdownAllSlots();
    }
  });
});

describe("crashes", { timeout: 90_000 }, () => {
  it("a crash restarts on the next call with backoff; 3 crashes in 60 s suppress; an admin restart clears it", async () => {
    const conn = await makeConnection();
    expect(await lab(conn, "increment")).toEqual({ value: 1 });
    const pid1 = await labPid(conn);
    const row1 = (await liveRow(conn))!;

    await expectError(lab(conn, "crash", { code: 3 }), "runtime_crashed");
    let crashedAt = Date.now();
    const crashed = await until(
      async () =>
        (await database.db.select().from(toolRuntimeSlots).where(eq(toolRuntimeSlots.id, row1.id)))[0]!,
      (r) => r.status === "crashed" && (r.lastError ?? "").includes("exited with code 3"),
    );
    expect(crashed.health).toBe("degraded");
    expect(crashed.recentRestarts).toHaveLength(1);
    expect(isProcessAlive(pid1)).toBe(false);

    // Restart 1: after the first backoff step (300 ms); the counter starts over.
    expect(await lab(conn, "increment")).toEqual({ value: 1 });
    expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(250);
    const pid2 = await labPid(conn);
    expect(pid2).not.toBe(pid1);
    const restarted = (await liveRow(conn))!;
    expect(restarted.id).toBe(row1.id);
    expect(restarted.restartCount).toBe(1);

    // Crash 2: the backoff doubles (600 ms).
    await expectError(lab(conn, "crash"), "runtime_crashed");
    crashedAt = Date.now();
    expect(await lab(conn, "increment")).toEqual({ value: 1 });
    expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(550);

    // Crash 3 within 60 s: suppressed.
    await expectError(lab(conn, "crash"), "runtime_crashed");
    const suppressed = await until(
      async () =>
        (await database.db.select().from(toolRuntimeSlots).where(eq(toolRuntimeSlots.id, row1.id)))[0]!,
      (r) => r.status === "suppressed",
    );
    expect(suppressed.recentRestarts).toHaveLength(3);
    expect(suppressed.health).toBe("failed");
    await expectError(lab(conn, "increment"), "runtime_suppressed");
    expect(
      runtimeSupervisor()
        .allSlots()
        .find((s) => s.rowId === row1.id)?.holdsProcess,
    ).toBe(false);

    // An admin restart clears the suppression and starts it again now.
    const res = await call<{ status: string; recentRestarts: string[]; pid: number }>(
      restartRoute.POST,
      "POST",
      "/",
      {
        ...board(),
        params: { companyId, slotId: row1.id },
      },
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.status).toBe("running");
    expect(res.json.recentRestarts).toEqual([]);
    expect(await lab(conn, "increment")).toEqual({ value: 1 });
    const [activity] = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, row1.id), eq(activityLog.action, "tool_runtime_slot.restart")));
    expect(activity).toBeDefined();
  });

  it("a command that cannot start fails the call with runtime_start_failed and is suppressed after 3 tries", async () => {
    const broken = await makeTemplate({}, "test.broken");
    const conn = await makeConnection(broken);
    for (let i = 0; i < 3; i++) {
      await expectError(lab(conn, "increment", {}, {}, broken), "runtime_start_failed");
    }
    await expectError(lab(conn, "increment", {}, {}, broken), "runtime_suppressed");
    const [row] = await slotRows(conn);
    expect(row!.status).toBe("suppressed");
    expect(row!.lastError).toContain("exited");
  });
});

describe("process groups", { timeout: 90_000 }, () => {
  it("an admin stop kills the whole process group, including a grandchild that ignores SIGTERM", async () => {
    const conn = await makeConnection();
    const pid = await labPid(conn);
    const { pid: grandchild } = (await lab(conn, "spawn_grandchild", { ignoreSigterm: true })) as {
      pid: number;
    };
    seenPids.add(grandchild);
    expect(isProcessAlive(grandchild)).toBe(true);
    expect(
      processGroupMembers(pid)
        .map((m) => m.pid)
        .sort(),
    ).toEqual([pid, grandchild].sort());
    const row = (await liveRow(conn))!;
    const started = Date.now();
    const res = await call<{ status: string; pid: number | null }>(stopRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, slotId: row.id },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "stopped", pid: null });
    // The grandchild ignored SIGTERM: only SIGKILL after the grace period (500 ms) ended it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(grandchild)).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(processGroupMembers(pid)).toEqual([]);
    // Stopping again is a no-op.
    const again = await call(stopRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, slotId: row.id },
    });
    expect(again.status).toBe(200);
  });

  it("a crash also takes the crashed process's grandchildren down", async () => {
    const conn = await makeConnection();
    const { pid: grandchild } = (await lab(conn, "spawn_grandchild")) as { pid: number };
    seenPids.add(grandchild);
    await expectError(lab(conn, "crash"), "runtime_crashed");
    await until(
      () => isProcessAlive(grandchild),
      (alive) => !alive,
    );
  });

  it("orphan reaping at start stops live process groups of rows whose server is gone", async () => {
    const conn = await makeConnection();
    // A slot process left behind by a dead server: its own process group, with a grandchild.
    const script =
      "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' }); setInterval(() => {}, 1 << 30);";
    const orphan = spawn(process.execPath, ["-e", script], { detached: true, stdio: "ignore" });
    orphan.unref();
    const pid = orphan.pid!;
    seenPids.add(pid);
    const grandchild = await until(
      () => childProcesses(pid),
      (c) => c.length === 1,
    );
    seenPids.add(grandchild[0]!.pid);
    const base = {
      companyId,
      connectionId: conn.id,
      templateId: template.id,
      workspaceScope: "none",
      credentialScope: "none",
      trustScope: "company",
      host: os.hostname(),
      idleTtlMs: 60_000,
    };
    const [orphanRow] = await database.db
      .insert(toolRuntimeSlots)
      .values({
        ...base,
        slotKey: `orphan-${randomUUID()}`,
        status: "running",
        pid,
        processGroupId: pid,
        startedAt: new Date(),
        supervisorId: `${os.hostname()}/999999999/12345`, // a server process that no longer exists
      })
      .returning();
    // A live row of another server process on this host (the vitest main process) is left alone.
    const [foreignRow] = await database.db
      .insert(toolRuntimeSlots)
      .values({
        ...base,
        slotKey: `foreign-${randomUUID()}`,
        status: "running",
        startedAt: new Date(),
        supervisorId: processIdentity(os.hostname(), process.ppid),
      })
      .returning();
    // This process's own live slot keeps working.
    const mine = await makeConnection();
    const minePid = await labPid(mine);

    const out = await reapOrphanedSlots(database.db);
    expect(out.reaped).toBeGreaterThanOrEqual(1);
    expect(out.killed).toBe(1);
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(grandchild[0]!.pid)).toBe(false);
    const [after] = await database.db
      .select()
      .from(toolRuntimeSlots)
      .where(eq(toolRuntimeSlots.id, orphanRow!.id));
    expect(after).toMatchObject({ status: "stopped", pid: null });
    expect(after!.lastError).toContain("reaped");
    const [foreign] = await database.db
      .select()
      .from(toolRuntimeSlots)
      .where(eq(toolRuntimeSlots.id, foreignRow!.id));
    expect(foreign!.status).toBe("running");
    expect(await labPid(mine)).toBe(minePid);
    await database.db
      .update(toolRuntimeSlots)
      .set({ status: "stopped" })
      .where(eq(toolRuntimeSlots.id, foreignRow!.id));
  });
});

describe("environment and stderr", { timeout: 90_000 }, () => {
  it("the child sees only the allowed keys, its secrets and a fixed PATH — never the server's environment", async () => {
    const conn = await makeConnection();
    const extra = { env: { LAB_SECRET_TOKEN: SECRET }, secretValues: [SECRET] };
    const probe = async (name: string) =>
      ((await lab(conn, "env_probe", { name }, extra)) as { set: boolean }).set;
    expect(process.env.RUNTIME_CANARY).toBe(CANARY);
    expect(await probe("RUNTIME_CANARY")).toBe(false);
    expect(await probe("LAB_ALLOWED")).toBe(true);
    expect(await probe("LAB_SECRET_TOKEN")).toBe(true);
    expect(await probe("PATH")).toBe(true);
    expect(await probe("HOME_NOT_SET_ANYWHERE")).toBe(false);
    for (const name of ["HOME", "DATABASE_URL", "AUTH_SECRET", "PAPERCLIP_HOME", "NODE_OPTIONS", "VITEST"]) {
      expect(await probe(name), name).toBe(false);
    }
    const pid = await labPid(conn, extra);
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
    const keys = environ.map((e) => e.slice(0, e.indexOf("="))).sort();
    // TMPDIR is the slot's own directory (temporary files stay inside it).
    expect(keys).toEqual(["LAB_ALLOWED", "LAB_SECRET_TOKEN", "PATH", "TMPDIR"]);
    expect(environ).toContain(`PATH=${safePath(process.execPath)}`);
    expect(environ.join("\n")).not.toContain(CANARY);
    // A different secret set never shares the process.
    const otherPid = await labPid(conn, { env: { LAB_SECRET_TOKEN: "another-secret-value" } });
    expect(otherPid).not.toBe(pid);
  });

  it("stderr goes to a bounded, redacted ring buffer shown on the slot, never into results", async () => {
    const conn = await makeConnection();
    const extra = { env: { LAB_SECRET_TOKEN: SECRET }, secretValues: [SECRET] };
    const line = `token=${SECRET} auth=Bearer abcdefghijklmnopqrstuvwxyz key=pcb_0123456789abcdef`;
    // 120 KB of filler first (the buffer keeps 64 KB), then the lines that must stay redacted.
    await stdioCallTool(database.db, target(conn, template, extra), "stderr", {
      text: "y".repeat(3_000),
      repeat: 40,
    });
    const out = await stdioCallTool(database.db, target(conn, template, extra), "stderr", {
      text: line,
      repeat: 5,
    });
    expect(JSON.stringify(out)).not.toContain("token=");
    await stdioCallTool(database.db, target(conn, template, extra), "stderr", { text: "z".repeat(60_000) });
    await stdioCallTool(database.db, target(conn, template, extra), "stderr", { text: "last line" });
    const row = (await liveRow(conn))!;
    const res = await until(
      () =>
        call<{ stderr: { source: string; lines: string[]; bytes: number; droppedLines: number } }>(
          slotRoute.GET,
          "GET",
          "/",
          { ...board(), params: { companyId, slotId: row.id } },
        ),
      (r) => r.json.stderr?.lines.at(-1) === "last line",
    );
    expect(res.status).toBe(200);
    const { stderr } = res.json;
    expect(stderr.source).toBe("live");
    expect(stderr.lines.length).toBeLessThanOrEqual(200);
    expect(stderr.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(stderr.droppedLines).toBeGreaterThan(0);
    const all = stderr.lines.join("\n");
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain("abcdefghijklmnopqrstuvwxyz");
    expect(Math.max(...stderr.lines.map((l) => Buffer.byteLength(l)))).toBeLessThanOrEqual(4096 + 20);
    expect(all).toContain("[line cut]");
    expect(all).toContain("token=[redacted]");
    expect(stderr.lines.filter((l) => l.startsWith("token=")).length).toBe(5);

    // The list view does not carry stderr; after a stop the saved tail is redacted too.
    const list = await call<{ slots: { id: string }[] }>(slotsRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
      query: { status: "live" },
    });
    expect(list.json.slots.some((s) => s.id === row.id)).toBe(true);
    expect(JSON.stringify(list.json)).not.toContain("last line");
    await call(stopRoute.POST, "POST", "/", { ...board(), params: { companyId, slotId: row.id } });
    const saved = await call<{ stderr: { source: string; lines: string[] } }>(slotRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId, slotId: row.id },
    });
    expect(saved.json.stderr.source).toBe("saved");
    expect(saved.json.stderr.lines).toContain("last line");
    expect(saved.json.stderr.lines.join("\n")).not.toContain(SECRET);
  });
});

describe("admin API and template disable", { timeout: 90_000 }, () => {
  it("lists and shows slots; unknown ids are 404", async () => {
    const list = await call<{ slots: { id: string; status: string }[] }>(slotsRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
    });
    expect(list.status).toBe(200);
    expect(list.json.slots.length).toBeGreaterThan(0);
    const missing = await call(slotRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId, slotId: randomUUID() },
    });
    expect(missing.status).toBe(404);
    const malformed = await call(slotRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId, slotId: "nope" },
    });
    expect(malformed.status).toBe(404);
  });

  it("disabling a template stops its slots and refuses further calls", async () => {
    const t = await makeTemplate({});
    const conn = await makeConnection(t);
    const pid = await (async () => {
      const { pid } = (await lab(conn, "pid", {}, {}, t)) as { pid: number };
      seenPids.add(pid);
      return pid;
    })();
    const res = await call<{ status: string; stoppedSlots: number }>(disableTemplateRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId, templateId: t.id },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "disabled", stoppedSlots: 1 });
    expect(isProcessAlive(pid)).toBe(false);
    const [disabled] = await database.db
      .select()
      .from(toolStdioTemplates)
      .where(eq(toolStdioTemplates.id, t.id));
    await expectError(lab(conn, "pid", {}, {}, disabled!), "unsafe_command_template");
  });
});

describe("no leaks", () => {
  it("after shutdown no slot process, grandchild or child of this process is left", async () => {
    await shutdownAllSlots();
    expect(
      runtimeSupervisor()
        .allSlots()
        .filter((s) => s.holdsProcess),
    ).toHaveLength(0);
    expect(newChildren()).toEqual([]);
    for (const pid of seenPids) expect(isProcessAlive(pid), `pid ${pid}`).toBe(false);
  });
});
