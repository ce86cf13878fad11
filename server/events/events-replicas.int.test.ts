/**
 * MCP Events across two server processes (scripts/event-replica.ts) on one database: every
 * event reaches an always-200 receiver exactly once while both workers claim deliveries, and
 * across a restart of one process mid-stream; the verification quotas hold exactly when
 * subscribe requests race on both processes. `EVENTS_REPLICA_EVENTS` sets the event count
 * (default 210; `npm run test:events-full` runs 1,000).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { addComment, createIssue } from "../core/issues";
import { localProvider } from "../secrets/local-provider";
import { connectAssistant, setPublicMcpEnabled } from "../testing/public-mcp";
import { startAdmittedReceiver, type WebhookReceiver } from "../testing/webhook-receiver";
import { closeDemoWorld, demoWorld, type TestDatabase } from "../testing/world";

const V = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const EVENTS = Number(process.env.EVENTS_REPLICA_EVENTS ?? 210);
const PUBLIC_URL = "http://paperclip.replicas.test";

let database: TestDatabase;
let receiver: WebhookReceiver;
let companyId: string;
let ownerId: string;

interface Replica {
  origin: string;
  stop(): Promise<void>;
}

async function startReplica(env: Record<string, string> = {}): Promise<Replica & { kill(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(process.cwd(), "scripts", "event-replica.ts")],
    {
      env: {
        ...process.env,
        NODE_ENV: "test",
        REPLICA_DATABASE_URL: database.url,
        PAPERCLIP_PUBLIC_URL: PUBLIC_URL,
        ...env,
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
    child.once("exit", (code) => reject(new Error(`event replica exited ${code}`)));
  });
  return {
    origin,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

async function rpc(origin: string, token: string, method: string, params: Record<string, unknown>) {
  const res = await fetch(`${origin}/mcp/paperclip`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "mcp-protocol-version": V,
      "mcp-method": method,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
  expect(res.status).toBeLessThan(500);
  return (await res.json()) as {
    result?: Record<string, unknown>;
    error?: { code: number; data?: Record<string, unknown> };
  };
}

const CLAIM = { PAPERCLIP_EVENTS_CLAIM_MS: "2000" };

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

beforeAll(async () => {
  const world = await demoWorld({ home: "events-replicas-" });
  database = world.database;
  companyId = world.demo.companyId;
  // The grants' resource and the replicas' origin for links: one public URL for all processes.
  process.env.PAPERCLIP_PUBLIC_URL = PUBLIC_URL;
  await setPublicMcpEnabled(database.db, true);
  // The master key exists before any process encrypts (they share PAPERCLIP_HOME).
  localProvider({ create: true });
  const [owner] = await database.db.select().from(users).where(eq(users.email, world.demo.ownerEmail));
  ownerId = owner!.id;
  receiver = await startAdmittedReceiver();
});

afterAll(async () => {
  delete process.env.PAPERCLIP_PUBLIC_URL;
  await receiver?.close();
  await closeDemoWorld(database);
});

describe("MCP Events across two server processes", () => {
  let a: Awaited<ReturnType<typeof startReplica>>;
  let b: Awaited<ReturnType<typeof startReplica>>;
  beforeAll(async () => {
    // Short claims: a killed worker's deliveries are taken over within the test.
    [a, b] = await Promise.all([startReplica(CLAIM), startReplica(CLAIM)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it(`delivers each of ${EVENTS} events once, across a restart of one process`, async () => {
    receiver.reset();
    const conn = await connectAssistant(database.db, { userId: ownerId, companyId });
    const ctx = (await conn.session()).ctx;
    const task = await createIssue(ctx, companyId, { title: "Busy task", body: "", status: "todo" });
    const secret = newSecret();
    receiver.setSecret(secret);
    const sub = await rpc(a.origin, conn.token, "events/subscribe", {
      name: "paperclip.task.comment_created",
      arguments: { companyId, taskId: task.id },
      delivery: { mode: "webhook", url: receiver.url, secret },
    });
    expect(sub.error).toBeUndefined();

    for (let i = 0; i < EVENTS; i++) {
      await addComment(ctx, task.id, { body: `comment ${i}` });
      if (i === Math.floor(EVENTS / 3)) {
        // One process restarts mid-stream; the other carries on meanwhile.
        await a.stop();
        a = await startReplica(CLAIM);
      }
    }
    const end = Date.now() + 60_000;
    while (new Set(receiver.deliveries().map((d) => d.webhookId)).size < EVENTS && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    // A little longer: a duplicate would arrive now.
    await new Promise((r) => setTimeout(r, 500));
    const got = receiver.deliveries();
    expect(got.every((d) => d.verified && d.answeredStatus === 200)).toBe(true);
    const ids = got.map((d) => d.webhookId);
    expect(new Set(ids).size).toBe(EVENTS);
    expect(ids.length).toBe(EVENTS);
    const commentIds = new Set(got.map((d) => (d.body as { data: { commentId: string } }).data.commentId));
    expect(commentIds.size).toBe(EVENTS);
  }, 120_000);

  it("loses nothing when a process is killed (SIGKILL) mid-stream: its claims are taken over", async () => {
    receiver.reset();
    const conn = await connectAssistant(database.db, { userId: ownerId, companyId });
    const ctx = (await conn.session()).ctx;
    const task = await createIssue(ctx, companyId, { title: "Crashy task", body: "", status: "todo" });
    const secret = newSecret();
    receiver.setSecret(secret);
    const sub = await rpc(b.origin, conn.token, "events/subscribe", {
      name: "paperclip.task.comment_created",
      arguments: { companyId, taskId: task.id },
      delivery: { mode: "webhook", url: receiver.url, secret },
    });
    expect(sub.error).toBeUndefined();
    const total = 80;
    for (let i = 0; i < total; i++) {
      await addComment(ctx, task.id, { body: `crash ${i}` });
      if (i === 30) {
        await a.kill();
        a = await startReplica(CLAIM);
      }
    }
    const end = Date.now() + 60_000;
    while (new Set(receiver.deliveries().map((d) => d.webhookId)).size < total && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    const ids = receiver.deliveries().map((d) => d.webhookId);
    expect(new Set(ids).size).toBe(total);
    // At least once: only what the killed process had claimed may arrive twice (one batch at most).
    expect(ids.length - total).toBeLessThanOrEqual(20);
  }, 120_000);

  it("holds the verification concurrency quota exactly when requests race on both processes", async () => {
    receiver.reset();
    const conn = await connectAssistant(database.db, { userId: ownerId, companyId });
    const ctx = (await conn.session()).ctx;
    const secret = newSecret();
    receiver.setSecret(secret);
    receiver.setChallengeDelay(800);
    try {
      const tasks = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          createIssue(ctx, companyId, { title: `race ${i}`, body: "", status: "todo" }),
        ),
      );
      const answers = await Promise.all(
        tasks.map((t, i) =>
          rpc(i % 2 ? a.origin : b.origin, conn.token, "events/subscribe", {
            name: "paperclip.task.status_changed",
            arguments: { companyId, taskId: t.id },
            delivery: { mode: "webhook", url: receiver.url, secret },
          }),
        ),
      );
      const ok = answers.filter((r) => r.result);
      const busy = answers.filter((r) => r.error?.code === -32013);
      expect(ok).toHaveLength(2);
      expect(busy).toHaveLength(6);
      expect(busy.every((r) => r.error!.data!.limit === "concurrentVerifications")).toBe(true);
    } finally {
      receiver.setChallengeDelay(0);
    }
  }, 60_000);

  it("counts verification attempts per minute exactly across both processes", async () => {
    receiver.reset();
    const conn = await connectAssistant(database.db, { userId: ownerId, companyId });
    const ctx = (await conn.session()).ctx;
    const task = await createIssue(ctx, companyId, { title: "rate", body: "", status: "todo" });
    const secret = newSecret();
    const answers = [];
    for (let i = 0; i < 34; i++)
      answers.push(
        await rpc(i % 2 ? a.origin : b.origin, conn.token, "events/subscribe", {
          name: "paperclip.task.comment_created",
          arguments: { companyId, taskId: task.id },
          // A private address: refused on the connection, after the attempt was admitted.
          delivery: { mode: "webhook", url: `https://10.1.0.${i + 1}/hook`, secret },
        }),
      );
    expect(answers.filter((r) => r.error?.code === -32015)).toHaveLength(30);
    expect(answers.filter((r) => r.error?.code === -32013)).toHaveLength(4);
    expect(answers.slice(30).every((r) => r.error?.data?.limit === "verificationsPerMinute")).toBe(true);
  }, 60_000);
});
