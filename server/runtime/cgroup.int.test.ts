/**
 * Issue 35, item 5, where the host delegates cgroup v2: each slot process runs in a cgroup of
 * its own, which its descendants cannot leave; stopping the slot ends every member and removes
 * the cgroup, and at start-up the cgroups of a dead server are reaped. This host's
 * /sys/fs/cgroup is the v1/hybrid layout (slots there use the group and uid only), so the test
 * points `PAPERCLIP_SLOT_CGROUP` at the unified (v2) mount when there is one it may write.
 * Real processes, real cgroups, real PostgreSQL.
 */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as stopRoute from "@/app/api/companies/[companyId]/tools/runtime-slots/[slotId]/stop/route";
import type { toolConnections, toolStdioTemplates } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { labStdioConnection } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld } from "@/server/testing/world";
import { cgroupMembers, createSlotCgroup, joinCgroup, slotCgroupBase } from "./cgroup";
import { isDeferred, reapOrphanedSlots, runtimeSupervisor, shutdownAllSlots, stdioCallTool } from "./index";
import { isProcessAlive, terminateSlotTree } from "./processes";

const UNIFIED = "/sys/fs/cgroup/unified";
const usable = slotCgroupBase({ PAPERCLIP_SLOT_CGROUP: UNIFIED }) !== null;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let conn: typeof toolConnections.$inferSelect;
let template: typeof toolStdioTemplates.$inferSelect;
const started: number[] = [];

const cgroupOf = (pid: number) => /^0::(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, "utf8"))?.[1] ?? "";

/** A SIGTERM-ignoring process in a session of its own (no group kill, root's uid), once ready. */
async function stubborn(): Promise<number> {
  const child = spawn(
    process.execPath,
    ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1 << 30); process.stdout.write('ready')"],
    { detached: true, stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise((resolve) => child.stdout!.once("data", resolve));
  child.stdout!.destroy();
  child.unref();
  started.push(child.pid!);
  return child.pid!;
}

async function lab(tool: string, args: Record<string, unknown> = {}) {
  const out = await stdioCallTool(
    database.db,
    { companyId: demo.companyId, connection: conn, template, env: {}, secretValues: [] },
    tool,
    args,
    { timeoutMs: 15_000 },
  );
  if (isDeferred(out)) throw new Error("deferred");
  return (out as CallToolResult).structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  process.env.PAPERCLIP_SLOT_CGROUP = UNIFIED;
  runtimeSupervisor().configure({ idleMs: 60_000, graceMs: 300, startTimeoutMs: 20_000 });
  ({ database, demo } = await demoWorld());
  ({ template, connection: conn } = await labStdioConnection(database.db, demo, "lab cgroup"));
}, 60_000);

afterAll(async () => {
  await shutdownAllSlots();
  delete process.env.PAPERCLIP_SLOT_CGROUP;
  for (const pid of started) if (isProcessAlive(pid)) process.kill(pid, "SIGKILL");
  await closeDemoWorld(database);
});

describe("slot cgroups", () => {
  it("/sys/fs/cgroup as it is on a v1/hybrid host gives no slot cgroup (group and uid only)", () => {
    if (existsSync("/sys/fs/cgroup/cgroup.controllers")) return; // a v2 host: nothing to show
    expect(slotCgroupBase({})).toBeNull();
    expect(slotCgroupBase({ PAPERCLIP_SLOT_CGROUP: "off" })).toBeNull();
  });
});

describe.runIf(usable)("slot cgroups (cgroup v2 delegated)", { timeout: 60_000 }, () => {
  it("a slot and its descendants run in a cgroup of its own; a stop ends them and removes it", async () => {
    const { pid } = (await lab("pid")) as { pid: number };
    const { pid: escapee } = (await lab("spawn_grandchild", { ignoreSigterm: true, leaveGroup: true })) as {
      pid: number;
    };
    started.push(pid, escapee);
    const group = cgroupOf(pid);
    expect(path.basename(group)).toMatch(/^paperclip-slot-\d+-[0-9a-f]+$/);
    expect(cgroupOf(escapee)).toBe(group);
    const slot = runtimeSupervisor()
      .allSlots()
      .find((s) => s.identity.connectionId === conn.id)!;
    expect(slot.cgroup).toBe(path.join(UNIFIED, group));
    const res = await call(stopRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId, slotId: slot.rowId! },
    });
    expect(res.status).toBe(200);
    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(escapee)).toBe(false);
    expect(existsSync(path.join(UNIFIED, group))).toBe(false);
  });

  it("the cgroup alone finds what it holds: SIGTERM, then cgroup.kill after the grace", async () => {
    const dir = createSlotCgroup(slotCgroupBase({ PAPERCLIP_SLOT_CGROUP: UNIFIED })!)!;
    const pid = await stubborn();
    expect(joinCgroup(dir, pid)).toBe(true);
    expect(cgroupMembers(dir)).toEqual([pid]);
    const out = await terminateSlotTree({ pgid: null, uid: null, cgroup: dir }, 300);
    expect(out).toEqual({ signalled: true, killed: true });
    expect(isProcessAlive(pid)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it("at server start, a dead server's slot cgroups are ended and removed", async () => {
    const base = slotCgroupBase({ PAPERCLIP_SLOT_CGROUP: UNIFIED })!;
    const dir = path.join(base, `paperclip-slot-999999999-${Date.now().toString(16)}`);
    mkdirSync(dir);
    const pid = await stubborn();
    expect(joinCgroup(dir, pid)).toBe(true);
    await reapOrphanedSlots(database.db);
    expect(isProcessAlive(pid)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});
