/**
 * Issue 35, item 5: no slot process is ever left behind. Every descendant of a slot is found
 * by its process group and, on a root server, by the slot's own uid — also one that left the
 * group and ignores SIGTERM — and ended on stop, crash and restart; an administrator's restart
 * racing with calls never loses track of the process it starts; at server start, processes a
 * dead server's slots left behind are reaped by their recorded uid. The soak runs 2 × 100
 * calls with crashes and restarts (`PAPERCLIP_SOAK_CALLS=1000`, or `npm run test:faults -- --full`,
 * for the 2 × 1,000).
 * Real slot processes (the `lab` fixture), real signals, real PostgreSQL.
 */

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as restartRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/[slotId]/restart/route";
import * as stopRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/[slotId]/stop/route";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import { type toolConnections, toolRuntimeSlots, toolStdioTemplates } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { isServiceError } from "@/server/errors";
import { call } from "@/server/testing/api";
import { insertApplication, insertStdioConnection } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { systemContext } from "../context";
import { CreateStdioCommandInput, createStdioCommand } from "./catalog";
import { DEFAULT_SLOT_UID_RANGE } from "./host";
import {
  isDeferred,
  reapOrphanedSlots,
  runtimeSupervisor,
  type StdioTarget,
  shutdownAllSlots,
  stdioCallTool,
} from "./index";
import { isProcessAlive, procStat } from "./processes";
import { liveUids } from "./slot-uids";

const isRoot = process.getuid?.() === 0;
const SOAK_CALLS =
  Number(process.env.PAPERCLIP_SOAK_CALLS) || (process.env.PAPERCLIP_FAULTS_FULL ? 1000 : 100);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let applicationId: string;
type TemplateRow = typeof toolStdioTemplates.$inferSelect;
type ConnectionRow = typeof toolConnections.$inferSelect;
let template: TemplateRow;
const board = () => ({ token: demo.boardApiKey });
/** Every process a test saw (slot processes, grandchildren): all must be gone at the end. */
const seenPids = new Set<number>();
let counter = 0;

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

async function makeConnection(): Promise<ConnectionRow> {
  return insertStdioConnection(database.db, {
    companyId,
    applicationId,
    templateId: template.id,
    name: `lab leaks ${++counter}`,
  });
}

const target = (conn: ConnectionRow): StdioTarget => ({
  companyId: conn.companyId,
  connection: conn,
  template,
  env: {},
  secretValues: [],
});

async function lab(conn: ConnectionRow, tool: string, args: Record<string, unknown> = {}) {
  const out = await stdioCallTool(database.db, target(conn), tool, args, { timeoutMs: 15_000 });
  if (isDeferred(out)) throw new Error(`deferred: ${JSON.stringify(out)}`);
  const result = out as CallToolResult;
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

const slotOf = (conn: ConnectionRow) =>
  runtimeSupervisor()
    .allSlots()
    .find((s) => s.identity.connectionId === conn.id && s.state !== "stopped");

async function rowsOf(conns: ConnectionRow[]) {
  return database.db
    .select()
    .from(toolRuntimeSlots)
    .where(
      inArray(
        toolRuntimeSlots.connectionId,
        conns.map((c) => c.id),
      ),
    );
}

/** Processes of this host running as `uid` (real, effective or saved; read here, not by the code under test). */
function processesOfUid(uid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${name}/status`, "utf8");
    } catch {
      continue;
    }
    if (/^State:\s+[ZX]/m.test(status)) continue;
    const ids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status)?.slice(1).map(Number) ?? [];
    if (ids.includes(uid)) out.push(Number(name));
  }
  return out;
}

async function spawnEscapee(conn: ConnectionRow): Promise<number> {
  const { pid } = (await lab(conn, "spawn_grandchild", { ignoreSigterm: true, leaveGroup: true })) as {
    pid: number;
  };
  seenPids.add(pid);
  return pid;
}

beforeAll(async () => {
  runtimeSupervisor().configure({
    idleMs: 60_000,
    graceMs: 300,
    backoffBaseMs: 50,
    capPerCompany: 8,
    capPerHost: 16,
    startTimeoutMs: 20_000,
  });
  ({ database, demo } = await demoWorld());
  companyId = demo.companyId;
  applicationId = await insertApplication(database.db, companyId, "lab", "Lab", "mcp_stdio");
  await createStdioCommand(
    systemContext(database.db, "test"),
    CreateStdioCommandInput.parse({ key: "test.lab", name: "Lab (tests)", fixture: "lab" }),
  );
  const res = await call<{ id: string }>(templatesRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { name: "lab leaks", catalogCommand: "test.lab" },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const [row] = await database.db
    .select()
    .from(toolStdioTemplates)
    .where(eq(toolStdioTemplates.id, res.json.id));
  template = row!;
}, 60_000);

afterAll(async () => {
  await shutdownAllSlots();
  await closeDemoWorld(database);
});

describe.runIf(isRoot)(
  "descendants that leave the process group (root: each slot its own uid)",
  {
    timeout: 60_000,
  },
  () => {
    it("an admin stop ends a grandchild that left the group and ignores SIGTERM", async () => {
      const conn = await makeConnection();
      const { pid } = (await lab(conn, "pid")) as { pid: number };
      seenPids.add(pid);
      const escapee = await spawnEscapee(conn);
      expect(procStat(escapee)!.pgrp).not.toBe(pid); // out of the slot's process group
      const slot = slotOf(conn)!;
      const res = await call(stopRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId, slotId: slot.rowId! },
      });
      expect(res.status).toBe(200);
      expect(isProcessAlive(pid)).toBe(false);
      expect(isProcessAlive(escapee)).toBe(false);
    });

    it("a crash ends it too, before the restarted process runs", async () => {
      const conn = await makeConnection();
      const escapee = await spawnEscapee(conn);
      await expect(lab(conn, "crash")).rejects.toMatchObject({ code: "runtime_crashed" });
      await until(
        () => isProcessAlive(escapee),
        (alive) => !alive,
        5_000,
      );
    });

    it("an admin restart ends it", async () => {
      const conn = await makeConnection();
      const escapee = await spawnEscapee(conn);
      const slot = slotOf(conn)!;
      const res = await call(restartRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId, slotId: slot.rowId! },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(isProcessAlive(escapee)).toBe(false);
      seenPids.add((await lab(conn, "pid")).pid as number);
    });
  },
);

describe("admin restarts racing with calls", { timeout: 90_000 }, () => {
  it("never leave a running slot without its pid, nor a process nobody tracks", async () => {
    const conn = await makeConnection();
    const mine = new Set<number>();
    mine.add((await lab(conn, "pid")).pid as number);
    // As in production (3 s by default), the end of the old process takes long enough for
    // calls to arrive during it.
    runtimeSupervisor().configure({ graceMs: 1_500 });
    for (let round = 0; round < 4; round++) {
      // A SIGTERM-ignoring grandchild holds the old process's end open for the grace period:
      // calls arriving meanwhile must wait for the restart, not start a process beside it.
      mine.add((await lab(conn, "spawn_grandchild", { ignoreSigterm: true })).pid as number);
      const slot = slotOf(conn)!;
      const restart = call<{ pid: number | null; status: string }>(restartRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId, slotId: slot.rowId! },
      });
      let settled = false;
      void restart.finally(() => {
        settled = true;
      });
      // Calls arriving while the old process is being ended.
      await until(
        () => settled || slot.stopReason !== null,
        (v) => v,
      );
      const calls = Array.from({ length: 8 }, async (_, i) => {
        await sleep(i * 100);
        // A call that arrives during the restart waits for it: answered by the new process.
        mine.add((await lab(conn, "pid")).pid as number);
      });
      const [res] = await Promise.all([restart, ...calls]);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      const after = slotOf(conn)!;
      expect(after.state).toBe("running");
      // The process that answers is the one the slot (and its row) records.
      const { pid } = (await lab(conn, "pid")) as { pid: number };
      mine.add(pid);
      expect(after.pid).toBe(pid);
      await after.flush();
      const [row] = await database.db
        .select()
        .from(toolRuntimeSlots)
        .where(eq(toolRuntimeSlots.id, after.rowId!));
      expect(row!.pid).toBe(pid);
    }
    await shutdownAllSlots();
    runtimeSupervisor().configure({ graceMs: 300 });
    for (const pid of mine) expect(isProcessAlive(pid), `pid ${pid}`).toBe(false);
  });
});

describe.runIf(isRoot)("reaping at server start by recorded uid", { timeout: 60_000 }, () => {
  it("ends a dead server's leftover that escaped its group (reparented to init); a live server's slots stay", async () => {
    const conn = await makeConnection();
    // A live slot of this server keeps running.
    const mine = (await lab(conn, "pid")).pid as number;
    const mineUid = slotOf(conn)!.uid!;
    // A uid no process holds, recorded on a stopped row of a server process that is gone.
    const taken = liveUids();
    const [lo, hi] = DEFAULT_SLOT_UID_RANGE;
    let uid = lo + Math.floor(Math.random() * (hi - lo));
    while (taken.has(uid)) uid++;
    await database.db.insert(toolRuntimeSlots).values({
      companyId,
      connectionId: conn.id,
      templateId: template.id,
      slotKey: `dead-${randomUUID()}`,
      workspaceScope: "none",
      credentialScope: "none",
      trustScope: "company",
      host: os.hostname(),
      idleTtlMs: 60_000,
      status: "stopped",
      slotUid: uid,
      startedAt: new Date(Date.now() - 60_000),
      stoppedAt: new Date(),
      supervisorId: `${os.hostname()}/999999999/12345`,
    });
    // What it left: a SIGTERM-ignoring daemon (double fork, so init is its parent) as that uid.
    const script =
      "const c = require('node:child_process').spawn(process.execPath, ['-e', \"process.on('SIGTERM', () => {}); setInterval(() => {}, 1 << 30)\"], { detached: true, stdio: 'ignore' }); c.unref(); console.log(c.pid);";
    const launcher = spawn(process.execPath, ["-e", script], {
      uid,
      gid: uid,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const daemon = await new Promise<number>((resolve) =>
      launcher.stdout!.once("data", (d) => resolve(Number(String(d).trim()))),
    );
    seenPids.add(daemon);
    await until(
      () => procStat(daemon)?.ppid ?? 0,
      (ppid) => ppid !== launcher.pid && ppid !== 0,
    );
    expect(processesOfUid(uid)).toEqual([daemon]);

    await reapOrphanedSlots(database.db);
    expect(isProcessAlive(daemon)).toBe(false);
    expect(processesOfUid(uid)).toEqual([]);
    expect(isProcessAlive(mine)).toBe(true);
    expect(processesOfUid(mineUid)).toContain(mine);
    await shutdownAllSlots();
  });
});

describe("soak: calls with crashes and admin restarts", { timeout: 20 * 60_000 }, () => {
  it(`2 × ${SOAK_CALLS} calls leave 0 processes behind`, async () => {
    const conns = [await makeConnection(), await makeConnection()];
    const grandchildren = new Set<number>();
    const outcomes: Record<string, number> = {};
    const count = (k: string) => {
      outcomes[k] = (outcomes[k] ?? 0) + 1;
    };
    const restarts: Promise<unknown>[] = [];
    const soakUids = new Set<number>();
    const run = async (conn: ConnectionRow, lane: number) => {
      for (let i = 0; i < SOAK_CALLS; i++) {
        try {
          if (i % 10 === 3) {
            const { pid } = (await lab(conn, "spawn_grandchild", {
              ignoreSigterm: true,
              leaveGroup: i % 20 === 3,
            })) as { pid: number };
            grandchildren.add(pid);
          } else if (i % 25 === 24) {
            await lab(conn, "crash");
          } else {
            seenPids.add((await lab(conn, "pid")).pid as number);
          }
          count("ok");
        } catch (err) {
          const code = isServiceError(err) ? err.code : String(err);
          count(code);
          if (code === "runtime_suppressed") {
            // An administrator's restart of the suppressed slot, racing with this lane's calls.
            const slot = slotOf(conn);
            if (slot)
              restarts.push(
                runtimeSupervisor()
                  .restart(slot)
                  .catch((e) => count(`restart:${String(e.code ?? e)}`)),
              );
          }
        }
        // Every uid a process of the soak ran as (each restart claims a new one).
        const uid = slotOf(conn)?.uid;
        if (uid !== null && uid !== undefined) soakUids.add(uid);
        // Now and then an admin restart while calls run.
        if (i % 33 === 16 + lane) {
          const slot = slotOf(conn);
          if (slot?.state === "running")
            restarts.push(
              runtimeSupervisor()
                .restart(slot)
                .catch((e) => count(`restart:${String(e.code ?? e)}`)),
            );
        }
      }
    };
    await Promise.all(conns.map((c, lane) => run(c, lane)));
    await Promise.all(restarts);
    const uids = new Set(soakUids);
    for (const r of await rowsOf(conns)) if (r.slotUid !== null) uids.add(r.slotUid);
    for (const s of runtimeSupervisor().allSlots()) if (s.uid !== null) uids.add(s.uid);
    await shutdownAllSlots();
    const leaked = [
      ...[...grandchildren, ...seenPids].filter((pid) => isProcessAlive(pid)),
      ...(isRoot ? [...uids].flatMap((u) => processesOfUid(u)) : []),
    ];
    console.log(
      JSON.stringify({
        soak: `2 x ${SOAK_CALLS}`,
        outcomes,
        restarts: restarts.length,
        grandchildren: grandchildren.size,
        uids: uids.size,
        leaked: new Set(leaked).size,
      }),
    );
    expect(outcomes.ok).toBeGreaterThan(SOAK_CALLS);
    expect(outcomes.runtime_crashed ?? 0).toBeGreaterThan(0);
    expect([...new Set(leaked)]).toEqual([]);
  });
});
