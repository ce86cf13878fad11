import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/me/assistant-connections/[grantId]/receipts/route";
import * as resolveRoute from "@/app/api/me/assistant-connections/receipts/[receiptId]/resolve/route";
import { activityLog, agents, companyMemberships, issues, mcpWriteReceipts, users } from "@/db/schema";
import { hashPassword } from "../auth/password";
import { notFound, ServiceError } from "../errors";
import { call, sessionCookie } from "../testing/api";
import { connectAssistant, type TestConnection } from "../testing/public-mcp";
import { PROBE_EXECUTED, probeOperation } from "../testing/receipt-probe";
import {
  closeDemoWorld,
  demoWorld,
  ownerSession,
  strangerCompany,
  type TestDatabase,
} from "../testing/world";
import { listMyUndecidedReceipts } from "./receipt-admin";
import { receiptArgsHash, withReceipt } from "./receipts";
import type { McpSession } from "./registry";
import { runOperation } from "./tools";

let database: TestDatabase;
let companyId: string;
let owner: { id: string; cookie: string };
let conn: TestConnection;

/** How the test verb behaves for one call: wait on a gate, fail, or succeed. */
type Behaviour = { gate?: Promise<void>; fail?: "4xx" | "5xx" };
const behaviours = new Map<string, Behaviour>();

const noteOp = probeOperation({
  async before(args) {
    const b = behaviours.get(args.requestId) ?? {};
    await b.gate;
    if (b.fail === "4xx") throw notFound("task");
    if (b.fail === "5xx") throw new Error("database went away after the commit");
  },
});

const executions = async (requestId: string) =>
  (
    await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(activityLog)
      .where(and(eq(activityLog.action, PROBE_EXECUTED), eq(activityLog.entityId, requestId)))
  )[0]!.n;

type Answer = { outcome: string; message?: string; manageUrl?: string; result?: unknown; replayed?: boolean };
const structured = (r: { structuredContent?: unknown }) => r.structuredContent as Answer;
const note = async (c: TestConnection | McpSession, args: Record<string, unknown>) =>
  structured(await runOperation("live" in c ? c : await c.session(), noteOp, { companyId, ...args }));

const activityOf = (action: string, entityId: string) =>
  database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.action, action), eq(activityLog.entityId, entityId)));

const receiptOf = async (requestId: string) =>
  (await database.db.select().from(mcpWriteReceipts).where(eq(mcpWriteReceipts.requestId, requestId)))[0]!;

async function person(email: string, role: "member" | "admin" | null) {
  const [u] = await database.db
    .insert(users)
    .values({ email, passwordHash: await hashPassword("x") })
    .returning();
  if (role) await database.db.insert(companyMemberships).values({ companyId, userId: u!.id, role });
  return { id: u!.id, cookie: await sessionCookie(database.db, u!.id, u!.email) };
}

const resolve = (cookie: string, receiptId: string, body: Record<string, unknown>) =>
  call(resolveRoute.POST, "POST", "/", { cookie, params: { receiptId }, body });

beforeAll(async () => {
  const world = await demoWorld();
  database = world.database;
  companyId = world.demo.companyId;
  owner = await ownerSession(database.db, world.demo);
  conn = await connectAssistant(database.db, { userId: owner.id, companyId });
});
afterAll(() => closeDemoWorld(database));

describe("write receipts", () => {
  it("runs the same requestId and arguments once when 20 calls race", async () => {
    const requestId = randomUUID();
    let open!: () => void;
    behaviours.set(requestId, { gate: new Promise<void>((r) => (open = r)) });
    const session = await conn.session();
    const calls = Array.from({ length: 20 }, () => note(session, { requestId, text: "hello" }));
    await new Promise((r) => setTimeout(r, 200));
    open();
    const answers = await Promise.all(calls);
    expect(await executions(requestId)).toBe(1);
    // One executed; the others arrived while it ran (in flight: unknown) or after (a replay).
    expect(answers.filter((a) => a.outcome === "succeeded" && !a.replayed)).toHaveLength(1);
    expect(answers.filter((a) => a.outcome === "unknown").length).toBeGreaterThan(0);
    expect(answers.every((a) => a.outcome === "unknown" || a.replayed !== undefined)).toBe(true);
    const again = await note(conn, { requestId, text: "hello" });
    expect(again).toMatchObject({ outcome: "succeeded", result: { noted: "hello" }, replayed: true });
    expect(await executions(requestId)).toBe(1);
    const r = await receiptOf(requestId);
    expect(r).toMatchObject({
      status: "succeeded",
      attempts: 21,
      grantId: conn.grantId,
      operation: noteOp.name,
    });
    expect(r.argsHash).toBe(receiptArgsHash({ companyId, requestId, text: "hello" }));
  });

  it("refuses the same requestId with changed arguments as request_id_reused, running nothing", async () => {
    const requestId = randomUUID();
    expect((await note(conn, { requestId, text: "a" })).outcome).toBe("succeeded");
    const reused = await note(conn, { requestId, text: "b" });
    expect(reused).toMatchObject({ outcome: "rejected", error: { code: "request_id_reused" } });
    expect(await executions(requestId)).toBe(1);
    expect((await receiptOf(requestId)).result).toEqual({ noted: "a" });
  });

  it("replays the result to the same person under a newer grant", async () => {
    const requestId = randomUUID();
    await note(conn, { requestId, text: "x" });
    const newer = await connectAssistant(database.db, { userId: owner.id, companyId, clientName: "Other" });
    expect(newer.grantId).not.toBe(conn.grantId);
    const replayed = await note(newer, { requestId, text: "x" });
    expect(replayed).toMatchObject({ outcome: "succeeded", result: { noted: "x" }, replayed: true });
    expect(await executions(requestId)).toBe(1);
    // The receipt keeps the grant that reserved it.
    expect((await receiptOf(requestId)).grantId).toBe(conn.grantId);
  });

  it("keeps another person's same requestId apart (the key is per person)", async () => {
    const requestId = randomUUID();
    const other = await person(`member-${randomUUID()}@example.com`, "member");
    const theirs = await connectAssistant(database.db, { userId: other.id, companyId });
    await note(conn, { requestId, text: "mine" });
    expect(await note(theirs, { requestId, text: "theirs" })).toMatchObject({ outcome: "succeeded" });
    expect(await executions(requestId)).toBe(2);
  });

  it("records a 4xx rejection and replays it without running again", async () => {
    const requestId = randomUUID();
    behaviours.set(requestId, { fail: "4xx" });
    const first = await note(conn, { requestId, text: "t" });
    expect(first).toMatchObject({ outcome: "rejected", error: { code: "not_found" } });
    behaviours.delete(requestId); // a second run would now succeed: the replay proves none happens
    const again = await note(conn, { requestId, text: "t" });
    expect(again).toMatchObject({ outcome: "rejected", error: { code: "not_found" }, replayed: true });
    expect(await executions(requestId)).toBe(0);
    expect((await receiptOf(requestId)).status).toBe("rejected");
  });

  it("answers unknown, not a 5xx, when the verb fails unexpectedly, and never runs it again", async () => {
    const requestId = randomUUID();
    behaviours.set(requestId, { fail: "5xx" });
    const first = await note(conn, { requestId, text: "t" });
    expect(first).toMatchObject({ outcome: "unknown" });
    expect(first.manageUrl).toMatch(/\/assistant-connections$/);
    behaviours.delete(requestId);
    expect((await note(conn, { requestId, text: "t" })).outcome).toBe("unknown");
    expect(await executions(requestId)).toBe(0);
    const receipt = await receiptOf(requestId);
    expect(receipt.status).toBe("unknown");
    const audited = await activityOf("public_mcp_receipt.outcome_unknown", receipt.id);
    expect(audited.map((a) => a.details)).toMatchObject([{ reason: "verb_failed" }]);
  });

  it("answers unknown while the first call is in flight", async () => {
    const requestId = randomUUID();
    let open!: () => void;
    behaviours.set(requestId, { gate: new Promise<void>((r) => (open = r)) });
    const first = note(conn, { requestId, text: "slow" });
    await new Promise((r) => setTimeout(r, 100));
    const second = await note(conn, { requestId, text: "slow" });
    expect(second).toMatchObject({ outcome: "unknown" });
    expect(second.message).toMatch(/in flight/);
    open();
    expect((await first).outcome).toBe("succeeded");
    expect(await executions(requestId)).toBe(1);
  });

  it("turns a pending receipt whose lease expired into a durable, audited unknown", async () => {
    const requestId = randomUUID();
    const live = await conn.session();
    // The process that reserved this receipt died mid-call: pending, lease long expired.
    const [crashed] = await database.db
      .insert(mcpWriteReceipts)
      .values({
        companyId,
        userId: owner.id,
        operation: noteOp.name,
        requestId,
        argsHash: receiptArgsHash({ companyId, requestId, text: "lost" }),
        grantId: conn.grantId,
        clientId: live.live.clientId,
        status: "pending",
        leaseOwner: randomUUID(),
        leaseExpiresAt: new Date(Date.now() - 60_000),
      })
      .returning();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => note(live, { requestId, text: "lost" })),
    );
    expect(answers.every((a) => a.outcome === "unknown")).toBe(true);
    expect(await executions(requestId)).toBe(0);
    expect((await receiptOf(requestId)).status).toBe("unknown");
    const audited = await activityOf("public_mcp_receipt.outcome_unknown", crashed!.id);
    expect(audited).toHaveLength(1); // one winner among the five
    expect(audited[0]!.details).toMatchObject({ reason: "lease_expired", via: { grantId: conn.grantId } });
  });

  it("lets the person resolve unknown as done or not done; retries answer the resolution", async () => {
    const done = randomUUID();
    const notDone = randomUUID();
    for (const requestId of [done, notDone]) {
      behaviours.set(requestId, { fail: "5xx" });
      await note(conn, { requestId, text: "?" });
      behaviours.delete(requestId);
    }
    const listed = await call<{ receipts: { id: string; requestId: string; argsSummary: object }[] }>(
      listRoute.GET,
      "GET",
      "/",
      { cookie: owner.cookie, params: { grantId: conn.grantId }, query: { status: "unknown" } },
    );
    expect(listed.status).toBe(200);
    const byRequest = new Map(listed.json.receipts.map((r) => [r.requestId, r]));
    // The page's list: mine across connections, with the connection's name.
    const mine = await listMyUndecidedReceipts({
      db: database.db,
      actor: { type: "user", userId: owner.id, email: "owner" },
      requestId: "test",
      now: () => new Date(),
    });
    expect(mine.filter((r) => r.requestId === done || r.requestId === notDone)).toHaveLength(2);
    expect(mine.every((r) => r.status === "unknown" && r.connectionName === "Test Assistant")).toBe(true);
    const doneReceipt = byRequest.get(done)!;
    // Ids only: `text` (a body) is never listed.
    expect(doneReceipt.argsSummary).toEqual({ companyId });

    const ok = await resolve(owner.cookie, doneReceipt.id, { resolution: "done", note: "I saw the task" });
    expect(ok.status).toBe(200);
    expect(await note(conn, { requestId: done, text: "?" })).toMatchObject({
      outcome: "succeeded",
      resolution: "done",
      result: null,
    });
    const nd = await resolve(owner.cookie, byRequest.get(notDone)!.id, { resolution: "not_done" });
    expect(nd.status).toBe(200);
    expect(await note(conn, { requestId: notDone, text: "?" })).toMatchObject({
      outcome: "rejected",
      error: { code: "resolved_not_done" },
    });
    expect(await executions(done)).toBe(0);
    expect(await executions(notDone)).toBe(0);
    const audit = await activityOf("public_mcp_receipt.resolved", doneReceipt.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ resolution: "done", requestId: done });

    // Resolving again, or a receipt that is not unknown, is 409.
    const twice = await resolve(owner.cookie, doneReceipt.id, { resolution: "not_done" });
    expect(twice.status).toBe(409);
    expect(twice.json).toMatchObject({ error: { code: "receipt_not_unknown" } });
    const succeeded = randomUUID();
    await note(conn, { requestId: succeeded, text: "fine" });
    const notUnknown = await resolve(owner.cookie, (await receiptOf(succeeded)).id, { resolution: "done" });
    expect(notUnknown.status).toBe(409);
  });

  it("hides a receipt from another member and another company (404), but lets a company admin resolve", async () => {
    const requestId = randomUUID();
    behaviours.set(requestId, { fail: "5xx" });
    await note(conn, { requestId, text: "?" });
    const receipt = await receiptOf(requestId);
    const member = await person(`m-${randomUUID()}@example.com`, "member");
    const stranger = await strangerCompany(database.db, `Globex ${randomUUID().slice(0, 8)}`);
    for (const cookie of [member.cookie, stranger.cookie]) {
      const r = await resolve(cookie, receipt.id, { resolution: "done" });
      expect(r.status).toBe(404);
      const l = await call(listRoute.GET, "GET", "/", { cookie, params: { grantId: conn.grantId } });
      expect(l.status).toBe(404);
    }
    expect((await receiptOf(requestId)).status).toBe("unknown");
    const admin = await person(`a-${randomUUID()}@example.com`, "admin");
    expect((await resolve(admin.cookie, receipt.id, { resolution: "not_done" })).status).toBe(200);
    expect((await receiptOf(requestId)).resolvedByUserId).toBe(admin.id);
  });

  it("withReceipt passes a verb's ServiceError through as a rejection only below 500", async () => {
    const requestId = randomUUID();
    const session = await conn.session();
    const out = await withReceipt(session, noteOp, { companyId, requestId, text: "z" }, async () => {
      throw new ServiceError("already_exists", "taken");
    });
    expect(out).toMatchObject({ outcome: "rejected", error: { code: "already_exists" } });
  });
});

/** A second server process on this test's database (scripts/receipt-worker.ts). */
async function startWorker(port: number, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(process.cwd(), "scripts", "receipt-worker.ts")],
    {
      env: {
        ...process.env,
        ...env,
        WORKER_DATABASE_URL: database.url,
        WORKER_PORT: String(port),
        PAPERCLIP_TEST_OPERATIONS: "1",
      },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve((JSON.parse(out.split("\n")[0]!) as { origin: string }).origin);
    });
    child.once("exit", (code) => reject(new Error(`receipt worker exited ${code}`)));
  });
  const post = async (args: Record<string, unknown>, operation?: string) => {
    const res = await fetch(origin, {
      method: "POST",
      body: JSON.stringify({ grantId: conn.grantId, args: { companyId, ...args }, operation }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.stdin!.end();
    await exited;
  };
  return { child, origin, post, stop };
}

// Ports: PAPERCLIP_RECEIPT_WORKER_PORTS ("a,b"), else ephemeral ones.
const WORKER_PORTS = (process.env.PAPERCLIP_RECEIPT_WORKER_PORTS ?? "0,0").split(",").map(Number);

describe("write receipts across two server processes", () => {
  let a: Awaited<ReturnType<typeof startWorker>>;
  let b: Awaited<ReturnType<typeof startWorker>>;
  beforeAll(async () => {
    // A short lease, so a killed executor's receipt expires within the test.
    const env = { PROBE_DELAY_MS: "300", PAPERCLIP_EXECUTION_LEASE_MS: "1000" };
    [a, b] = await Promise.all([startWorker(WORKER_PORTS[0]!, env), startWorker(WORKER_PORTS[1]!, env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("runs a requestId once when 20 calls are split across both processes", async () => {
    const requestId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).post({ requestId, text: "both" })),
    );
    expect(await executions(requestId)).toBe(1);
    expect(answers.filter((x) => x.outcome === "succeeded" && !x.replayed)).toHaveLength(1);
    expect(answers.every((x) => x.outcome === "succeeded" || x.outcome === "unknown")).toBe(true);
    expect(await a.post({ requestId, text: "both" })).toMatchObject({ outcome: "succeeded", replayed: true });
    expect(await b.post({ requestId, text: "both" })).toMatchObject({ outcome: "succeeded", replayed: true });
    expect(await executions(requestId)).toBe(1);
  });

  it("creates one task when create_task is sent 20 times across both processes", async () => {
    const requestId = randomUUID();
    const [agent] = await database.db.select().from(agents).where(eq(agents.companyId, companyId)).limit(1);
    const args = { requestId, title: `Across replicas ${requestId}`, assigneeAgentId: agent!.id };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).post(args, "create_task")),
    );
    const made = await database.db.select().from(issues).where(eq(issues.title, args.title));
    expect(made).toHaveLength(1);
    expect(answers.every((x) => x.outcome === "succeeded" || x.outcome === "unknown")).toBe(true);
    const replay = (await a.post(args, "create_task")) as Answer & { result?: { task: { id: string } } };
    expect(replay).toMatchObject({ outcome: "succeeded", result: { task: { id: made[0]!.id } } });
  });

  it("answers unknown and never runs again after the executor is killed between its verb and its receipt", async () => {
    const requestId = randomUUID();
    const victim = a;
    const died = new Promise((r) => victim.child.once("exit", (_code, signal) => r(signal)));
    await expect(victim.post({ requestId, text: "crash" })).rejects.toThrow();
    expect(await died).toBe("SIGKILL");
    expect(await executions(requestId)).toBe(1); // the verb committed
    // While the dead executor's lease is live: in flight.
    expect((await b.post({ requestId, text: "crash" })).outcome).toBe("unknown");
    await new Promise((r) => setTimeout(r, 1300));
    const after = await Promise.all(Array.from({ length: 6 }, () => b.post({ requestId, text: "crash" })));
    expect(after.every((x) => x.outcome === "unknown")).toBe(true);
    const receipt = await receiptOf(requestId);
    expect(receipt.status).toBe("unknown");
    expect(await executions(requestId)).toBe(1);
    const audited = await activityOf("public_mcp_receipt.outcome_unknown", receipt.id);
    expect(audited.map((x) => x.details)).toMatchObject([{ reason: "lease_expired" }]);
  });
});
