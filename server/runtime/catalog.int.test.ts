/**
 * The operator boundary for local stdio servers (issue 12): templates only from the operator's
 * catalogue, slot values validated, a disabled command stops launching, PAPERCLIP_STDIO=off
 * refuses, and — as root — a slot runs as an unprivileged uid of its own that can neither read
 * PAPERCLIP_HOME/master.key nor write outside its own directory. Real processes, real
 * PostgreSQL, the real routes.
 */

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as approvedRoute from "@/app/api/companies/[companyId]/tools/stdio-commands/route";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import * as commandRoute from "@/app/api/instance/stdio-commands/[commandId]/route";
import * as commandsRoute from "@/app/api/instance/stdio-commands/route";
import { activityLog, instanceStdioCommands, type toolConnections, toolStdioTemplates } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { DemoCredentials } from "@/server/core/seed";
import { isServiceError } from "@/server/errors";
import { call } from "@/server/testing/api";
import { insertApplication, insertStdioConnection } from "@/server/testing/catalog";
import { closeDemoWorld, demoWorld, ownerSession } from "@/server/testing/world";
import { systemContext } from "../context";
import { CreateStdioCommandInput, createStdioCommand, updateStdioCommand } from "./catalog";
import { DEFAULT_SLOT_UID_RANGE, probeBwrap, resetHostCaches, stdioHostState } from "./host";
import { isDeferred, shutdownAllSlots, stdioCallTool } from "./index";
import { isProcessAlive } from "./processes";
import { pruneRuntimeDir, runtimeDir, writeSlotOwner } from "./sandbox";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MASTER_KEY_CANARY = "master-key-canary-9d41e7";
const isRoot = process.getuid?.() === 0;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let applicationId: string;
let home: string;
const board = () => ({ token: demo.boardApiKey });
const operator = () => systemContext(database.db, "test");
type TemplateRow = typeof toolStdioTemplates.$inferSelect;
type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };

const envOf = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv;
const savedEnv: Record<string, string | undefined> = {};
function setEnv(name: string, value: string | undefined) {
  if (!(name in savedEnv)) savedEnv[name] = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

async function addCommand(body: Record<string, unknown>) {
  return createStdioCommand(operator(), CreateStdioCommandInput.parse({ name: String(body.key), ...body }));
}

async function postTemplate(body: Record<string, unknown>) {
  return call<{ id: string; args: string[] } & ErrorBody>(templatesRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { name: `t ${randomUUID().slice(0, 8)}`, ...body },
  });
}

async function templateRow(id: string): Promise<TemplateRow> {
  const [row] = await database.db.select().from(toolStdioTemplates).where(eq(toolStdioTemplates.id, id));
  return row!;
}

async function makeConnection(t: TemplateRow) {
  return insertStdioConnection(database.db, {
    companyId,
    applicationId,
    templateId: t.id,
    name: `c ${randomUUID().slice(0, 8)}`,
  });
}

async function callTool(t: TemplateRow, conn: typeof toolConnections.$inferSelect, name: string, args = {}) {
  const out = await stdioCallTool(
    database.db,
    { companyId, connection: conn, template: t, env: {}, secretValues: [] },
    name,
    args,
    { timeoutMs: 20_000 },
  );
  if (isDeferred(out)) throw new Error("deferred");
  return out as CallToolResult;
}

async function expectCode(p: Promise<unknown>, code: string) {
  try {
    await p;
  } catch (err) {
    expect(isServiceError(err) ? err.code : String(err)).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
}

async function activity(action: string, where: (d: Record<string, unknown>) => boolean) {
  const rows = await database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.action, action), eq(activityLog.companyId, companyId)));
  return rows.filter((r) => where(r.details as Record<string, unknown>));
}

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), "pc-catalog-home-"));
  writeFileSync(path.join(home, "master.key"), `${MASTER_KEY_CANARY}\n`, { mode: 0o600 });
  setEnv("PAPERCLIP_HOME", home);
  setEnv("PAPERCLIP_STDIO", undefined);
  setEnv("PAPERCLIP_SANDBOX", undefined);
  setEnv("HOST", undefined);
  ({ database, demo } = await demoWorld());
  companyId = demo.companyId;
  applicationId = await insertApplication(database.db, companyId, "cat", "Catalogue tests", "mcp_stdio");
}, 60_000);

afterEach(() => {
  setEnv("PAPERCLIP_STDIO", undefined);
  setEnv("PAPERCLIP_SANDBOX", undefined);
  setEnv("HOST", undefined);
});

afterAll(async () => {
  await shutdownAllSlots();
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await closeDemoWorld(database);
});

describe("the operator's catalogue", () => {
  it("a fresh install holds the product's own fixture servers, enabled", async () => {
    const rows = await database.db.select().from(instanceStdioCommands);
    expect(rows.filter((r) => r.builtin).map((r) => [r.key, r.fixture, r.enabled])).toEqual(
      expect.arrayContaining([
        ["paperclip.lab", "lab", true],
        ["paperclip.fs-sandbox", "fs-sandbox", true],
      ]),
    );
    const approved = await call<{ commands: { key: string }[] }>(approvedRoute.GET, "GET", "/", {
      ...board(),
      params: { companyId },
    });
    expect(approved.status).toBe(200);
    expect(approved.json.commands.map((c) => c.key)).toEqual(
      expect.arrayContaining(["paperclip.lab", "paperclip.fs-sandbox"]),
    );
  });

  it("only instance admins manage it: a company's board key is refused, an admin's session works (audited)", async () => {
    const body = { key: "test.by-route", name: "By route", fixture: "lab" };
    const byKey = await call<ErrorBody>(commandsRoute.POST, "POST", "/", { ...board(), body });
    expect(byKey.status).toBe(403);
    expect(byKey.json.error.code).toBe("instance_admin_required");
    expect((await call<ErrorBody>(commandsRoute.GET, "GET", "/", board())).status).toBe(403);

    const owner = await ownerSession(database.db, demo);
    const cookie = owner.cookie;
    const created = await call<{ id: string; key: string }>(commandsRoute.POST, "POST", "/", {
      cookie,
      headers: { origin: "http://localhost:3100" },
      body,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const patched = await call<{ enabled: boolean }>(commandRoute.PATCH, "PATCH", "/", {
      cookie,
      headers: { origin: "http://localhost:3100" },
      params: { commandId: created.json.id },
      body: { enabled: false },
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json.enabled).toBe(false);
    const rows = await database.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.entityId, created.json.id));
    expect(rows.map((r) => [r.action, r.companyId])).toEqual(
      expect.arrayContaining([
        ["instance_stdio_command.create", null],
        ["instance_stdio_command.update", null],
      ]),
    );
  });
});

describe("company templates", () => {
  it.each([
    ["/bin/sh", { command: "/bin/sh", args: ["-c", "id; cat master.key"] }],
    ["node with arguments", { command: "node", args: ["-e", "1"] }],
    [
      "a catalogue command with extra host variables",
      { catalogCommand: "paperclip.lab", allowedEnvKeys: ["HOME"] },
    ],
    ["an unknown catalogue key", { catalogCommand: "no.such.command" }],
  ])("%s → 403 command_not_approved, audited, nothing created", async (_label, body) => {
    const name = `refused ${randomUUID().slice(0, 8)}`;
    const res = await postTemplate({ name, ...body });
    expect(res.status, JSON.stringify(res.json)).toBe(403);
    expect(res.json.error.code).toBe("command_not_approved");
    const audit = await activity("tool_stdio_template.refused", (d) => d.name === name);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ code: "command_not_approved" });
    expect(JSON.stringify(audit[0]!.details)).not.toContain("master.key");
    const made = await database.db
      .select()
      .from(toolStdioTemplates)
      .where(and(eq(toolStdioTemplates.companyId, companyId), eq(toolStdioTemplates.name, name)));
    expect(made).toHaveLength(0);
  });

  it("slot values must pass the slot's rule", async () => {
    await addCommand({
      key: "test.slots",
      fixture: "lab",
      argSlots: [
        { name: "mode", rule: { kind: "enum", values: ["fast", "slow"] } },
        { name: "dir", flag: "--dir", rule: { kind: "pattern", pattern: "[a-z0-9/]+", maxLength: 40 } },
      ],
      envSlots: [{ name: "LOG_LEVEL", rule: { kind: "enum", values: ["info", "debug"] } }],
    });
    const refused: [Record<string, unknown>, string][] = [
      [{ args: { mode: "medium" } }, "args.mode"],
      [{ args: { dir: "-rf" } }, "args.dir"],
      [{ args: { dir: "../etc" } }, "args.dir"],
      [{ args: { dir: "a".repeat(41) } }, "args.dir"],
      [{ args: { extra: "x" } }, "args.extra"],
      [{ env: { LOG_LEVEL: "trace" } }, "env.LOG_LEVEL"],
      [{ env: { NODE_OPTIONS: "--require /tmp/x.js" } }, "env.NODE_OPTIONS"],
    ];
    for (const [slotValues, slot] of refused) {
      const name = `slots ${randomUUID().slice(0, 8)}`;
      const res = await postTemplate({ name, catalogCommand: "test.slots", slotValues });
      expect(res.status, JSON.stringify(slotValues)).toBe(403);
      expect(res.json.error).toMatchObject({ code: "command_not_approved", details: { slot } });
      expect(await activity("tool_stdio_template.refused", (d) => d.name === name)).toHaveLength(1);
    }
    const ok = await postTemplate({
      catalogCommand: "test.slots",
      slotValues: { args: { mode: "fast", dir: "data/x" }, env: { LOG_LEVEL: "debug" } },
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    expect(ok.json.args).toEqual(["fast", "--dir", "data/x"]);
  });

  it("a disabled command refuses new templates and stops launching (running slots stop; audited)", async () => {
    const cmd = await addCommand({ key: "test.disable-me", fixture: "lab" });
    const res = await postTemplate({ catalogCommand: "test.disable-me" });
    expect(res.status).toBe(201);
    const t = await templateRow(res.json.id);
    const conn = await makeConnection(t);
    const pid = (await callTool(t, conn, "pid")).structuredContent!.pid as number;
    expect(isProcessAlive(pid)).toBe(true);

    const updated = await updateStdioCommand(operator(), cmd.id, { enabled: false });
    expect(updated.stoppedSlots).toBe(1);
    expect(isProcessAlive(pid)).toBe(false);
    await expectCode(callTool(t, conn, "pid"), "command_not_approved");
    expect(await activity("tool_runtime_slot.refused", (d) => d.templateId === t.id)).toHaveLength(1);
    const again = await postTemplate({ catalogCommand: "test.disable-me" });
    expect(again.status).toBe(403);
    expect(again.json.error.code).toBe("command_not_approved");

    // Enabled again, the same template starts again.
    await updateStdioCommand(operator(), cmd.id, { enabled: true });
    expect((await callTool(t, conn, "increment")).structuredContent).toEqual({ value: 1 });
  });

  it("a pre-catalogue template (a free command in the row) never starts", async () => {
    const [legacy] = await database.db
      .insert(toolStdioTemplates)
      .values({
        companyId,
        name: `legacy ${randomUUID().slice(0, 8)}`,
        command: "/bin/sh",
        args: ["-c", "id"],
      })
      .returning();
    const conn = await makeConnection(legacy!);
    await expectCode(callTool(legacy!, conn, "pid"), "command_not_approved");
  });
});

describe("PAPERCLIP_STDIO", () => {
  it("defaults on only on loopback", () => {
    expect(stdioHostState(envOf({})).enabled).toBe(true);
    expect(stdioHostState(envOf({ HOST: "127.0.0.1" })).enabled).toBe(true);
    expect(stdioHostState(envOf({ HOST: "::1" })).enabled).toBe(true);
    expect(stdioHostState(envOf({ HOST: "localhost" })).enabled).toBe(true);
    expect(stdioHostState(envOf({ HOST: "0.0.0.0" }))).toMatchObject({ enabled: false });
    expect(stdioHostState(envOf({ HOST: "0.0.0.0", PAPERCLIP_STDIO: "on" })).enabled).toBe(true);
    expect(stdioHostState(envOf({ PAPERCLIP_STDIO: "off" })).enabled).toBe(false);
    expect(stdioHostState(envOf({ PAPERCLIP_STDIO: "yes" })).enabled).toBe(false);
  });

  it("off: template creation and calls fail closed with runtime_host_untrusted, audited", async () => {
    const res = await postTemplate({ catalogCommand: "paperclip.lab" });
    expect(res.status).toBe(201);
    const t = await templateRow(res.json.id);
    const conn = await makeConnection(t);

    setEnv("HOST", "0.0.0.0"); // not loopback, PAPERCLIP_STDIO unset → off
    const name = `off ${randomUUID().slice(0, 8)}`;
    const refused = await postTemplate({ name, catalogCommand: "paperclip.lab" });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("runtime_host_untrusted");
    expect(refused.json.error.message).toContain("PAPERCLIP_STDIO");
    expect(await activity("tool_stdio_template.refused", (d) => d.name === name)).toHaveLength(1);

    setEnv("PAPERCLIP_STDIO", "off");
    setEnv("HOST", undefined);
    await expectCode(callTool(t, conn, "increment"), "runtime_host_untrusted");
    expect(
      await activity(
        "tool_runtime_slot.refused",
        (d) => d.templateId === t.id && d.code === "runtime_host_untrusted",
      ),
    ).toHaveLength(1);

    setEnv("PAPERCLIP_STDIO", "on");
    setEnv("HOST", "0.0.0.0");
    expect((await callTool(t, conn, "increment")).structuredContent).toEqual({ value: 1 });
  });
});

describe.runIf(isRoot)("slot isolation (the server runs as root)", () => {
  let probeTemplate: TemplateRow | null = null;
  let probeConnection: typeof toolConnections.$inferSelect | null = null;

  beforeAll(async () => {
    await addCommand({ key: "test.probe", fixture: "sandbox-probe", requiresIsolation: true });
    // An operator left PAPERCLIP_HOME open to others: the runtime closes it before a slot starts.
    chmodSync(home, 0o755);
  });

  async function probe(read: string[], write: string[]) {
    if (!probeTemplate) {
      const res = await postTemplate({ catalogCommand: "test.probe" });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      probeTemplate = await templateRow(res.json.id);
      probeConnection = await makeConnection(probeTemplate);
    }
    const out = await callTool(probeTemplate, probeConnection!, "probe", { read, write });
    return out.structuredContent as {
      uid: number;
      gid: number;
      groups: number[];
      cwd: string;
      reads: { path: string; ok: boolean; error: string | null }[];
      writes: { path: string; ok: boolean; error: string | null }[];
    };
  }

  const escapes = () => {
    const tag = randomUUID().slice(0, 8);
    return [
      path.join(home, `written-${tag}`),
      path.join(ROOT, `written-${tag}`),
      path.join(runtimeDir(), "slots", `written-${tag}`),
      path.join(runtimeDir(), `written-${tag}`),
      path.join("/etc", `written-${tag}`),
    ];
  };

  it("runs as an unprivileged uid of its own: cannot read master.key nor write outside its directory", async () => {
    const writes = escapes();
    const report = await probe([path.join(home, "master.key"), home], writes);
    expect(report.uid).not.toBe(0);
    expect(report.gid).not.toBe(0);
    expect(report.uid).toBeGreaterThanOrEqual(DEFAULT_SLOT_UID_RANGE[0]);
    expect(report.uid).toBeLessThanOrEqual(DEFAULT_SLOT_UID_RANGE[1]);
    expect(report.gid).toBe(report.uid);
    expect(report.groups).not.toContain(0);
    expect(report.reads.map((r) => [r.path, r.ok])).toEqual([
      [path.join(home, "master.key"), false],
      [home, false],
    ]);
    expect(JSON.stringify(report)).not.toContain(MASTER_KEY_CANARY);
    expect(report.writes.map((w) => [w.path, w.ok])).toEqual(writes.map((w) => [w, false]));
    for (const w of writes) expect(existsSync(w)).toBe(false);
    // Its own directory: fresh, inside the runtime directory, writable by it.
    expect(report.cwd.startsWith(path.join(runtimeDir(), "slots"))).toBe(true);
    expect(report.cwd.startsWith(home)).toBe(false);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const inside = await probe([], [path.join(report.cwd, "mine.txt")]);
    expect(inside.writes[0]).toMatchObject({ ok: true });
  });

  it("PAPERCLIP_SLOT_UID_RANGE: each slot has a uid of its own from that range, and cannot read another slot's environment", async () => {
    const res = await postTemplate({ catalogCommand: "test.probe" });
    const t = await templateRow(res.json.id);
    const [a, b] = [await makeConnection(t), await makeConnection(t)];
    const run = async (conn: typeof a, read: string[] = []) =>
      (await callTool(t, conn, "probe", { read, write: [] })).structuredContent as {
        pid: number;
        uid: number;
        reads: { ok: boolean; error: string | null }[];
      };
    setEnv("PAPERCLIP_SLOT_UID_RANGE", "210000-210999");
    try {
      const ownA = await run(a);
      const ownB = await run(b, [`/proc/${ownA.pid}/environ`]);
      expect(ownA.uid).toBeGreaterThanOrEqual(210000);
      expect(ownA.uid).toBeLessThanOrEqual(210999);
      expect(ownB.uid).not.toBe(ownA.uid);
      expect(ownB.reads[0]).toMatchObject({ ok: false, error: "EACCES" });
    } finally {
      setEnv("PAPERCLIP_SLOT_UID_RANGE", undefined);
      await shutdownAllSlots();
    }
  });

  it.runIf(probeBwrap(null).ok)(
    "PAPERCLIP_SANDBOX=bwrap: private /tmp, read-only system, nothing of PAPERCLIP_HOME",
    async () => {
      setEnv("PAPERCLIP_SANDBOX", "bwrap");
      resetHostCaches();
      probeTemplate = null; // a new template and connection: a new slot
      probeConnection = null;
      const tmpFile = path.join(os.tmpdir(), `bwrap-escape-${randomUUID().slice(0, 8)}`);
      const varTmpFile = `/var/tmp/bwrap-escape-${randomUUID().slice(0, 8)}`;
      const writes = escapes();
      const report = await probe([path.join(home, "master.key"), home], [...writes, tmpFile, varTmpFile]);
      expect(report.uid).not.toBe(0);
      expect(
        report.reads.every((r) => !r.ok),
        JSON.stringify(report),
      ).toBe(true);
      expect(JSON.stringify(report)).not.toContain(MASTER_KEY_CANARY);
      for (const w of report.writes.slice(0, writes.length)) expect(w.ok, JSON.stringify(w)).toBe(false);
      // /tmp and /var/tmp are private to the sandbox: what it writes there never reaches the host.
      for (const w of [...writes, tmpFile, varTmpFile]) expect(existsSync(w), w).toBe(false);
      const inside = await probe([], [path.join(report.cwd, "mine.txt")]);
      expect(inside.writes[0]).toMatchObject({ ok: true });
      await shutdownAllSlots();
    },
  );
});

describe("runtime directory", () => {
  it("pruning removes day-old slot directories of this host no process works in, and keeps the rest", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pc-runtime-prune-"));
    const runtimeEnv = envOf({ PAPERCLIP_RUNTIME_DIR: dir, PAPERCLIP_HOME: home });
    const slots = path.join(dir, "slots");
    mkdirSync(slots);
    const dayAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    const [stale, fresh, busy] = ["slot-stale", "slot-fresh", "slot-busy"].map((n) => path.join(slots, n));
    // Not provably this host's (fail safe: left and logged): no marker, another host, a live other server.
    const [unmarked, foreign, sibling] = ["slot-unmarked", "slot-foreign", "slot-sibling"].map((n) =>
      path.join(slots, n),
    );
    const all = [stale, fresh, busy, unmarked, foreign, sibling];
    for (const d of all) mkdirSync(d!);
    for (const d of [stale, fresh, busy]) writeSlotOwner(d!);
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    writeSlotOwner(foreign!, { host: "another-host", bootId: boot, pid: process.pid });
    writeSlotOwner(sibling!, { host: os.hostname(), bootId: boot, pid: process.ppid });
    for (const d of all) if (d !== fresh) utimesSync(d!, dayAgo, dayAgo);
    const sleeper = spawn("sleep", ["30"], { cwd: busy!, stdio: "ignore" });
    try {
      await new Promise((r) => sleeper.once("spawn", r));
      expect(pruneRuntimeDir(runtimeEnv)).toBe(1);
      expect(all.map((d) => existsSync(d!))).toEqual([false, true, true, true, true, true]);
    } finally {
      sleeper.kill("SIGKILL");
    }
  });
});
