/**
 * Issue 34, item 2: one stdio slot must never read another company's secrets. As root, each
 * slot process runs as a uid and gid of its own (by default, no setting needed), unique among
 * the live slots of the host across server processes (the database decides); where slots
 * cannot be kept apart, a slot with bound secrets is refused (`slot_isolation_unavailable`,
 * audited) unless the operator opts in. Real processes (the `sandbox-probe` fixture), real
 * PostgreSQL.
 */

import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import { activityLog, type toolConnections, toolRuntimeSlots, toolStdioTemplates } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { isServiceError } from "@/server/errors";
import { call } from "@/server/testing/api";
import { insertApplication, insertStdioConnection } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld, strangerCompany } from "@/server/testing/world";
import { systemContext } from "../context";
import { CreateStdioCommandInput, createStdioCommand } from "./catalog";
import { runtimeDoctor } from "./doctor";
import { DEFAULT_SLOT_UID_RANGE, isolationPlan } from "./host";
import { isDeferred, shutdownAllSlots, stdioCallTool } from "./index";
import { RuntimeSupervisor, type StdioTarget } from "./supervisor";

const isRoot = process.getuid?.() === 0;
const SECRET_A = `secret-of-company-a-${randomUUID()}`;
const SECRET_B = `secret-of-company-b-${randomUUID()}`;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
type TemplateRow = typeof toolStdioTemplates.$inferSelect;
type ConnectionRow = typeof toolConnections.$inferSelect;
interface Company {
  id: string;
  token: string;
  template: TemplateRow;
  applicationId: string;
}
let a: Company;
let b: Company;

const savedEnv: Record<string, string | undefined> = {};
function setEnv(name: string, value: string | undefined) {
  if (!(name in savedEnv)) savedEnv[name] = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

interface ProbeReport {
  pid: number;
  uid: number;
  gid: number;
  reads: { path: string; ok: boolean; error: string | null }[];
}

async function company(id: string, token: string): Promise<Company> {
  const applicationId = await insertApplication(database.db, id, "probe", "Probe", "mcp_stdio");
  const res = await call<{ id: string }>(templatesRoute.POST, "POST", "/", {
    token,
    params: { companyId: id },
    body: { name: `probe ${randomUUID().slice(0, 8)}`, catalogCommand: "test.secret-probe" },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const [template] = await database.db
    .select()
    .from(toolStdioTemplates)
    .where(eq(toolStdioTemplates.id, res.json.id));
  return { id, token, template: template!, applicationId };
}

const connection = (c: Company) =>
  insertStdioConnection(database.db, {
    companyId: c.id,
    applicationId: c.applicationId,
    templateId: c.template.id,
    name: `c ${randomUUID().slice(0, 8)}`,
  });

/** The target a governed call hands the runtime: the connection's bound secret as its env. */
const target = (c: Company, conn: ConnectionRow, secret: string | null): StdioTarget => ({
  companyId: c.id,
  connection: conn,
  template: c.template,
  env: secret ? { PROBE_TOKEN: secret } : {},
  secretValues: secret ? [secret] : [],
});

async function probe(
  t: StdioTarget,
  read: string[] = [],
  supervisor?: RuntimeSupervisor,
): Promise<ProbeReport> {
  const args = { read, write: [] };
  const out = supervisor
    ? await supervisor.callTool(database.db, t, "probe", args, { timeoutMs: 20_000 })
    : await stdioCallTool(database.db, t, "probe", args, { timeoutMs: 20_000 });
  if (isDeferred(out)) throw new Error("deferred");
  return (out as CallToolResult).structuredContent as unknown as ProbeReport;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return isServiceError(err) ? err.code : String(err);
  }
  return "no error";
}

beforeAll(async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), "pc-separation-home-"));
  writeFileSync(path.join(home, "master.key"), "master-key-canary\n", { mode: 0o600 });
  setEnv("PAPERCLIP_HOME", home);
  for (const k of ["PAPERCLIP_STDIO", "PAPERCLIP_SANDBOX", "HOST", "PAPERCLIP_SLOT_UID_RANGE"])
    setEnv(k, undefined);
  setEnv("PAPERCLIP_SLOT_SHARED_UID", undefined);
  const world = await demoWorld();
  database = world.database;
  // The operator's catalogue: the probe fixture with one secret slot the connection binds.
  await createStdioCommand(
    systemContext(database.db, "test"),
    CreateStdioCommandInput.parse({
      key: "test.secret-probe",
      name: "Secret probe",
      fixture: "sandbox-probe",
      envSlots: [{ name: "PROBE_TOKEN", secret: true }],
    }),
  );
  const other = await strangerCompany(database.db, "Other Corp");
  a = await company(world.demo.companyId, world.demo.boardApiKey);
  b = await company(other.companyId, other.boardKey);
}, 60_000);

afterEach(async () => {
  setEnv("PAPERCLIP_SLOT_UID_RANGE", undefined);
  setEnv("PAPERCLIP_SLOT_SHARED_UID", undefined);
  await shutdownAllSlots();
});

afterAll(async () => {
  await shutdownAllSlots();
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await closeDemoWorld(database);
});

describe.runIf(isRoot)("as root, without any setting", () => {
  it("company B's slot can read neither company A's slot's environment nor the server's (EACCES)", async () => {
    const connA = await connection(a);
    const connB = await connection(b);
    const slotA = await probe(target(a, connA, SECRET_A));
    const environA = `/proc/${slotA.pid}/environ`;
    const environServer = `/proc/${process.pid}/environ`;
    const slotB = await probe(target(b, connB, SECRET_B), [
      environA,
      environServer,
      `/proc/${process.ppid}/environ`,
    ]);
    expect(slotB.reads.map((r) => [r.path, r.ok, r.error])).toEqual([
      [environA, false, "EACCES"],
      [environServer, false, "EACCES"],
      [`/proc/${process.ppid}/environ`, false, "EACCES"],
    ]);
    expect(JSON.stringify(slotB)).not.toContain(SECRET_A);
    // Each a uid and gid of its own from the default range; never root, never shared.
    for (const s of [slotA, slotB]) {
      expect(s.uid).toBeGreaterThanOrEqual(DEFAULT_SLOT_UID_RANGE[0]);
      expect(s.uid).toBeLessThanOrEqual(DEFAULT_SLOT_UID_RANGE[1]);
      expect(s.gid).toBe(s.uid);
    }
    expect(slotB.uid).not.toBe(slotA.uid);
    // The uid is recorded on each live slot's row.
    const rows = await database.db
      .select({ companyId: toolRuntimeSlots.companyId, uid: toolRuntimeSlots.slotUid })
      .from(toolRuntimeSlots)
      .where(and(isNotNull(toolRuntimeSlots.slotUid), eq(toolRuntimeSlots.status, "running")));
    expect(rows).toEqual(
      expect.arrayContaining([
        { companyId: a.id, uid: slotA.uid },
        { companyId: b.id, uid: slotB.uid },
      ]),
    );
  });

  it("two credential scopes of one company get two uids, and neither reads the other", async () => {
    const conn = await connection(a);
    const one = await probe(target(a, conn, SECRET_A));
    const two = await probe(target(a, conn, `${SECRET_A}-rotated`), [`/proc/${one.pid}/environ`]);
    expect(two.pid).not.toBe(one.pid);
    expect(two.uid).not.toBe(one.uid);
    expect(two.reads[0]).toMatchObject({ ok: false, error: "EACCES" });
  });

  it("a uid held by a live slot row of this host is never handed out, even by another server process", async () => {
    setEnv("PAPERCLIP_SLOT_UID_RANGE", "220000-220001");
    const [held, first, second] = [await connection(a), await connection(a), await connection(b)];
    // Another server process on this host holds 220000 (its row is live; its process is not ours).
    const [other] = await database.db
      .insert(toolRuntimeSlots)
      .values({
        companyId: a.id,
        connectionId: held.id,
        templateId: a.template.id,
        slotKey: `other-server-${randomUUID()}`,
        workspaceScope: "none",
        credentialScope: "none",
        trustScope: "standard",
        status: "running",
        host: os.hostname(),
        idleTtlMs: 60_000,
        supervisorId: "another-server",
        slotUid: 220000,
      })
      .returning();
    const got = await probe(target(a, first, SECRET_A));
    expect(got.uid).toBe(220001);
    // The database refuses a second live row of this host on one uid.
    const dup = await database.db
      .update(toolRuntimeSlots)
      .set({ slotUid: 220001 })
      .where(eq(toolRuntimeSlots.id, other!.id))
      .then(
        () => "updated",
        (err: { cause?: { constraint_name?: string } }) => err.cause?.constraint_name,
      );
    expect(dup).toBe("tool_runtime_slots_host_uid_uq");
    // The range is full: the next slot does not start (never on a shared uid).
    expect(await codeOf(probe(target(b, second, SECRET_B)))).toBe("runtime_start_failed");
    // Released when the other server's slot stops: the uid is free again.
    await database.db
      .update(toolRuntimeSlots)
      .set({ status: "stopped" })
      .where(eq(toolRuntimeSlots.id, other!.id));
    expect((await probe(target(b, second, SECRET_B))).uid).toBe(220000);
  });

  it("replicas on one host starting slots at once never share a uid", async () => {
    setEnv("PAPERCLIP_SLOT_UID_RANGE", "221000-221005");
    const replicas = [new RuntimeSupervisor(), new RuntimeSupervisor()];
    try {
      const conns = await Promise.all([a, a, b, b, a, b].map(connection));
      const reports = await Promise.all(
        conns.map((conn, i) => {
          const c = conn.companyId === a.id ? a : b;
          return probe(target(c, conn, `${SECRET_A}-${i}`), [], replicas[i % 2]);
        }),
      );
      const uids = reports.map((r) => r.uid);
      expect(new Set(uids).size).toBe(6);
      for (const u of uids) expect(u >= 221000 && u <= 221005, String(u)).toBe(true);
    } finally {
      await Promise.all(replicas.map((r) => r.shutdown()));
    }
  });
});

describe("a host that cannot keep slots apart (not root, no bwrap)", () => {
  const notRoot = () => isolationPlan(process.env, 1000);

  it("refuses a slot with bound secrets before any process holds them (slot_isolation_unavailable, audited)", async () => {
    const supervisor = new RuntimeSupervisor({}, { isolation: notRoot });
    try {
      const conn = await connection(b);
      expect(await codeOf(probe(target(b, conn, SECRET_B), [], supervisor))).toBe(
        "slot_isolation_unavailable",
      );
      const refusals = await database.db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.action, "tool_runtime_slot.refused"), eq(activityLog.companyId, b.id)));
      expect(refusals.map((r) => (r.details as { code: string }).code)).toContain(
        "slot_isolation_unavailable",
      );
      expect(JSON.stringify(refusals)).not.toContain(SECRET_B);
      const rows = await database.db
        .select()
        .from(toolRuntimeSlots)
        .where(eq(toolRuntimeSlots.connectionId, conn.id));
      expect(rows).toEqual([]);
    } finally {
      await supervisor.shutdown();
    }
  });

  it("starts it only when the operator opts in with PAPERCLIP_SLOT_SHARED_UID=allow", async () => {
    const supervisor = new RuntimeSupervisor({}, { isolation: notRoot });
    try {
      const conn = await connection(b);
      setEnv("PAPERCLIP_SLOT_SHARED_UID", "allow");
      const report = await probe(target(b, conn, SECRET_B), [], supervisor);
      expect(report.pid).toBeGreaterThan(0);
    } finally {
      await supervisor.shutdown();
    }
  });

  it("doctor reports it as a problem, opted in or not; a root server's per-slot uids are fine", async () => {
    const lines: string[] = [];
    const refused = await runtimeDoctor(database.db, (l) => lines.push(l), notRoot());
    expect(refused.problems.join("\n")).toContain("slot_isolation_unavailable");
    expect(lines.some((l) => l.startsWith("✖ slot users"))).toBe(true);
    setEnv("PAPERCLIP_SLOT_SHARED_UID", "allow");
    const allowed = await runtimeDoctor(database.db, () => {}, notRoot());
    expect(allowed.problems.join("\n")).toContain("PAPERCLIP_SLOT_SHARED_UID=allow");
    const root = await runtimeDoctor(database.db, () => {}, isolationPlan(process.env, 0));
    expect(root.problems.filter((p) => p.includes("share"))).toEqual([]);
  });
});
