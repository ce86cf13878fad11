/**
 * MCP Events end to end (docs/public-mcp.md, "Events"): `events/*` over real loopback HTTP on
 * `/mcp/paperclip` (2026-07-28 era), a real HTTPS receiver with a throwaway test CA that
 * verifies every delivery with `standardwebhooks`' `Webhook.verify`, the real worker passes.
 * The receiver is admitted by the test-only hook `PAPERCLIP_TEST_EVENT_RECEIVER` (honoured
 * under NODE_ENV=test only); every other loopback or private address stays refused.
 */
import { randomBytes } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as mcpRoute from "@/app/mcp/paperclip/route";
import {
  activityLog,
  companyMemberships,
  issues,
  mcpEventAdmissions,
  mcpEventDeliveries,
  mcpEventSubscriptions,
  oauthGrants,
  users,
} from "@/db/schema";
import { writeDocument } from "../core/documents";
import { updateIssue } from "../core/issue-updates";
import { addComment, createIssue } from "../core/issues";
import { runDoctor } from "../http/doctor";
import { resetLocalProvider } from "../secrets/local-provider";
import { rotateMasterKey } from "../secrets/rotate";
import { connectAssistant, setPublicMcpEnabled, type TestConnection } from "../testing/public-mcp";
import { serveRoutes } from "../testing/serve";
import { startAdmittedReceiver, type WebhookReceiver } from "../testing/webhook-receiver";
import { closeDemoWorld, demoWorld, type TestDatabase } from "../testing/world";
import { pruneEvents } from "./subscriptions";
import { createEventWorker, type EventWorker } from "./worker";

const V = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientInfo": { name: "events-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const STATUS = "paperclip.task.status_changed";
const COMMENT = "paperclip.task.comment_created";
const DOCUMENT = "paperclip.task.document_updated";

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

let database: TestDatabase;
let server: { origin: string; close: () => Promise<void> };
let receiver: WebhookReceiver;
let worker: EventWorker;
let ownerId: string;
let companyId: string;
let endpoint: string;

interface RpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

async function rpc(token: string, method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": method,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
  expect(res.status).toBeLessThan(500);
  return (await res.json()) as RpcAnswer;
}

const ctxOf = async (conn: TestConnection) => (await conn.session()).ctx;

async function newTask(conn: TestConnection, title = "Watched task") {
  return createIssue(await ctxOf(conn), companyId, { title, body: "", status: "todo" });
}

/** Runs worker passes until `done()` holds (or fails after `ms`). */
async function until(done: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await worker.pass();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(
    `condition not met in ${ms} ms; received: ${JSON.stringify(receiver.received.map((r) => [r.webhookId, r.answeredStatus]))}`,
  );
}

/** A few passes in which nothing may arrive. */
async function quietPasses(n = 6) {
  for (let i = 0; i < n; i++) {
    await worker.pass();
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function subscribeTo(
  conn: TestConnection,
  name: string,
  taskId: string,
  secret: string,
  extra: Record<string, unknown> = {},
  url = receiver.url,
) {
  return rpc(conn.token, "events/subscribe", {
    name,
    arguments: { companyId, taskId, ...(extra.arguments as object) },
    delivery: { mode: "webhook", url, secret },
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== "arguments")),
  });
}

beforeAll(async () => {
  const world = await demoWorld({ home: "events-" });
  database = world.database;
  companyId = world.demo.companyId;
  server = await serveRoutes({ "/mcp/paperclip": ((r: Request) => mcpRoute.POST(r)) as never });
  endpoint = `${server.origin}/mcp/paperclip`;
  process.env.PAPERCLIP_PUBLIC_URL = server.origin;
  await setPublicMcpEnabled(database.db, true);
  const [owner] = await database.db.select().from(users).where(eq(users.email, world.demo.ownerEmail));
  ownerId = owner!.id;
  receiver = await startAdmittedReceiver();
  // Passes are driven by the tests (`until`); the timer is effectively off.
  worker = createEventWorker(database.db, { intervalMs: 3_600_000, retryBaseMs: 20 });
});

afterAll(async () => {
  delete process.env.PAPERCLIP_PUBLIC_URL;
  await worker?.stop();
  await receiver?.close();
  await server?.close();
  await closeDemoWorld(database);
});

beforeEach(() => receiver.reset());

const connect = () => connectAssistant(database.db, { userId: ownerId, companyId });

/** A fresh connection of the owner, a task of the company, and a secret the receiver knows. */
async function watcher() {
  const conn = await connect();
  const task = await newTask(conn);
  const secret = newSecret();
  receiver.setSecret(secret);
  return { conn, task, secret };
}

const subscriptionsOf = (grantId: string) =>
  database.db.select().from(mcpEventSubscriptions).where(eq(mcpEventSubscriptions.grantId, grantId));

describe("events/list and server/discover", () => {
  it("advertise three task events with webhook delivery and their schemas", async () => {
    const conn = await connect();
    const discover = await rpc(conn.token, "server/discover");
    expect(discover.result!.capabilities).toMatchObject({ events: {} });
    const list = await rpc(conn.token, "events/list");
    const events = list.result!.events as Array<Record<string, unknown>>;
    expect(events.map((e) => e.name)).toEqual([STATUS, COMMENT, DOCUMENT]);
    for (const e of events) {
      expect(e.delivery).toEqual(["webhook"]);
      expect(e.inputSchema).toMatchObject({ type: "object", required: ["companyId", "taskId"] });
      expect((e.payloadSchema as { required: string[] }).required).toEqual(
        expect.arrayContaining(["taskId", "companyId", "link"]),
      );
    }
    expect((events[0]!.inputSchema as { properties: Record<string, unknown> }).properties).toHaveProperty(
      "statuses",
    );
  });
});

describe("subscribe, deliver, stop", () => {
  it("verifies the callback, then delivers three signed, bounded events", async () => {
    const { conn, task, secret } = await watcher();
    const subs: string[] = [];
    for (const name of [STATUS, COMMENT, DOCUMENT]) {
      const r = await subscribeTo(conn, name, task.id, secret);
      expect(r.error).toBeUndefined();
      expect(r.result).toMatchObject({
        id: expect.stringMatching(/^sub_[0-9a-f]{32}$/),
        cursor: null,
        truncated: false,
      });
      const refreshBefore = Date.parse(r.result!.refreshBefore as string);
      expect(refreshBefore - Date.now()).toBeGreaterThan(23 * 3600_000);
      subs.push(r.result!.id as string);
    }
    // One verification envelope per new subscription, each answered.
    const challenges = receiver.received.filter(
      (r) => (r.body as { type?: string })?.type === "verification",
    );
    expect(challenges).toHaveLength(3);
    expect(challenges.every((c) => c.verified && c.answeredStatus === 200)).toBe(true);

    const ctx = await ctxOf(conn);
    const CANARY = `canary-${randomBytes(6).toString("hex")}`;
    await updateIssue(ctx, task.id, { status: "in_progress" });
    const comment = await addComment(ctx, task.id, { body: `secret comment ${CANARY}` });
    await writeDocument(ctx, task.id, "report", { body: `# Report ${CANARY}`, baseRevisionId: null });

    await until(() => receiver.deliveries().length >= 3);
    await quietPasses();
    const got = receiver.deliveries();
    expect(got).toHaveLength(3);
    for (const d of got) {
      expect(d.verified).toBe(true);
      expect(d.raw).not.toContain(CANARY);
      const body = d.body as {
        eventId: string;
        name: string;
        data: Record<string, unknown>;
        cursor: unknown;
      };
      expect(d.webhookId).toBe(body.eventId);
      expect(body.cursor).toBeNull();
      expect(body.data).toMatchObject({ taskId: task.id, companyId });
      expect(body.data.link).toBe(`${server.origin}/c/${companyId}/issues/${task.id}`);
      expect(d.subscriptionId).toBe(subs[[STATUS, COMMENT, DOCUMENT].indexOf(body.name)]);
    }
    const byName = Object.fromEntries(
      got.map((d) => [(d.body as { name: string }).name, (d.body as { data: Record<string, unknown> }).data]),
    );
    expect(byName[STATUS]).toMatchObject({ status: "in_progress" });
    expect(byName[COMMENT]).toMatchObject({ commentId: comment.id });
    expect(byName[DOCUMENT]).toMatchObject({ documentKey: "report", revision: 1 });
    expect(Object.keys(byName[COMMENT]!).sort()).toEqual(["commentId", "companyId", "link", "taskId"]);

    // The callback and secret are stored only encrypted.
    const rows = await database.db.execute(
      sql`select delivery_encrypted::text as d from mcp_event_subscriptions where id in ${subs}`,
    );
    for (const r of rows) {
      expect(String(r.d)).not.toContain(secret.slice(6, 20));
      expect(String(r.d)).not.toContain(new URL(receiver.url).host);
    }
  });

  it("retries a 500 with the same webhook-id, and does not queue an event twice", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    receiver.respondWith(500, 503);
    await addComment(await ctxOf(conn), task.id, { body: "please retry" });
    await until(() => receiver.deliveries().some((d) => d.answeredStatus === 200));
    await quietPasses();
    const got = receiver.deliveries();
    expect(got.map((d) => d.answeredStatus)).toEqual([500, 503, 200]);
    expect(new Set(got.map((d) => d.webhookId)).size).toBe(1);
    const [sub] = await subscriptionsOf(conn.grantId);
    expect(sub).toMatchObject({ deliveredCount: 1, lastError: null, failedSince: null });
  });

  it("gives up after six attempts", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    receiver.setDefaultStatus(502);
    try {
      await addComment(await ctxOf(conn), task.id, { body: "never arrives" });
      await until(async () => {
        const [d] = await database.db
          .select()
          .from(mcpEventDeliveries)
          .innerJoin(mcpEventSubscriptions, eq(mcpEventSubscriptions.id, mcpEventDeliveries.subscriptionId))
          .where(eq(mcpEventSubscriptions.grantId, conn.grantId));
        return d?.mcp_event_deliveries.status === "failed";
      }, 15_000);
    } finally {
      receiver.setDefaultStatus(200);
    }
    expect(receiver.deliveries()).toHaveLength(6);
    const [sub] = await subscriptionsOf(conn.grantId);
    expect(sub).toMatchObject({ state: "active", failedCount: 1, lastError: "http_5xx" });
    expect(sub!.failedSince).not.toBeNull();
  });

  it("stops a subscription on 410 and sends nothing more", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    receiver.respondWith(410);
    const ctx = await ctxOf(conn);
    await addComment(ctx, task.id, { body: "one" });
    await until(() => receiver.deliveries().length === 1);
    await addComment(ctx, task.id, { body: "two" });
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(1);
    const [sub] = await subscriptionsOf(conn.grantId);
    expect(sub).toMatchObject({ state: "stopped", stoppedReason: "gone" });
  });

  it("does not retry a 413, and keeps delivering later events", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    receiver.respondWith(413);
    const ctx = await ctxOf(conn);
    await addComment(ctx, task.id, { body: "too big, they say" });
    await until(() => receiver.deliveries().length === 1);
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(1);
    await addComment(ctx, task.id, { body: "next" });
    await until(() => receiver.deliveries().length === 2);
    expect(receiver.deliveries().map((d) => d.answeredStatus)).toEqual([413, 200]);
  });

  it("unsubscribe stops deliveries and frees the subscription with its receipts", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    const ctx = await ctxOf(conn);
    await addComment(ctx, task.id, { body: "first" });
    await until(() => receiver.deliveries().length === 1);
    const r = await rpc(conn.token, "events/unsubscribe", {
      name: COMMENT,
      arguments: { companyId, taskId: task.id },
      delivery: { url: receiver.url },
    });
    expect(r.error).toBeUndefined();
    expect(r.result).toMatchObject({ resultType: "complete" });
    await addComment(ctx, task.id, { body: "second" });
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(1);
    expect(await subscriptionsOf(conn.grantId)).toHaveLength(0);
    const again = await rpc(conn.token, "events/unsubscribe", {
      name: COMMENT,
      arguments: { companyId, taskId: task.id },
      delivery: { url: receiver.url },
    });
    expect(again.error).toMatchObject({ code: -32011, data: { kind: "subscription" } });
  });

  it("filters status changes by `statuses` and accepts a task identifier", async () => {
    const { conn, task, secret } = await watcher();
    const [row] = await database.db.execute<{ ident: string }>(
      sql`select c.issue_prefix || '-' || i.number as ident from issues i join companies c on c.id = i.company_id where i.id = ${task.id}`,
    );
    const r = await subscribeTo(conn, STATUS, row!.ident, secret, { arguments: { statuses: ["done"] } });
    expect(r.error).toBeUndefined();
    const ctx = await ctxOf(conn);
    await updateIssue(ctx, task.id, { status: "in_progress" });
    await updateIssue(ctx, task.id, { status: "done" });
    await until(() => receiver.deliveries().length === 1);
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(1);
    expect((receiver.deliveries()[0]!.body as { data: { status: string } }).data.status).toBe("done");
  });

  it("refreshes without a new challenge, and signs with both keys after a rotation", async () => {
    const conn = await connect();
    const task = await newTask(conn);
    const oldSecret = newSecret();
    receiver.setSecret(oldSecret);
    const first = await subscribeTo(conn, COMMENT, task.id, oldSecret, { ttlMs: 60_000 });
    expect(first.error).toBeUndefined();
    expect(Date.parse(first.result!.refreshBefore as string) - Date.now()).toBeLessThan(61_000);
    const nextSecret = newSecret();
    const second = await subscribeTo(conn, COMMENT, task.id, nextSecret, { ttlMs: 3_600_000 });
    expect(second.result!.id).toBe(first.result!.id);
    expect(second.result!.deliveryStatus).toMatchObject({ active: true });
    expect(Date.parse(second.result!.refreshBefore as string) - Date.now()).toBeGreaterThan(3_500_000);
    // Only the first subscribe was challenged.
    expect(
      receiver.received.filter((r) => (r.body as { type?: string })?.type === "verification"),
    ).toHaveLength(1);
    // A receiver that only knows the new secret, and one that only knows the old, both verify.
    receiver.setSecret(nextSecret);
    await addComment(await ctxOf(conn), task.id, { body: "rotated" });
    await until(() => receiver.deliveries().length === 1);
    const d = receiver.deliveries()[0]!;
    expect(d.signatures).toHaveLength(2);
    expect(d.verified).toBe(true);
  });

  it("removes an expired subscription and its receipts on the connection's next admission", async () => {
    const { conn, task, secret } = await watcher();
    const old = await subscribeTo(conn, COMMENT, task.id, secret);
    await addComment(await ctxOf(conn), task.id, { body: "x" });
    await until(() => receiver.deliveries().length === 1);
    await database.db
      .update(mcpEventSubscriptions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(mcpEventSubscriptions.id, old.result!.id as string));
    // Expired: nothing more is delivered.
    await addComment(await ctxOf(conn), task.id, { body: "y" });
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(1);
    expect((await subscribeTo(conn, STATUS, task.id, secret)).error).toBeUndefined();
    const left = await database.db
      .select({ id: mcpEventSubscriptions.id })
      .from(mcpEventSubscriptions)
      .where(eq(mcpEventSubscriptions.id, old.result!.id as string));
    expect(left).toHaveLength(0);
    const receipts = await database.db
      .select({ n: count() })
      .from(mcpEventDeliveries)
      .where(eq(mcpEventDeliveries.subscriptionId, old.result!.id as string));
    expect(receipts[0]!.n).toBe(0);
  });

  it("clamps ttlMs to 30 s at least and refuses non-expiring subscriptions", async () => {
    const { conn, task, secret } = await watcher();
    const r = await subscribeTo(conn, COMMENT, task.id, secret, { ttlMs: 1_000 });
    const ms = Date.parse(r.result!.refreshBefore as string) - Date.now();
    expect(ms).toBeGreaterThan(25_000);
    expect(ms).toBeLessThan(31_000);
    const forever = await subscribeTo(conn, STATUS, task.id, secret, { ttlMs: null });
    expect(forever.error).toMatchObject({ code: -32602, data: { code: "ttl_invalid" } });
  });

  it("pauses while the setting is off and resumes when it is on", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    await setPublicMcpEnabled(database.db, false);
    try {
      await addComment(await ctxOf(conn), task.id, { body: "while off" });
      await quietPasses();
      expect(receiver.deliveries()).toHaveLength(0);
    } finally {
      await setPublicMcpEnabled(database.db, true);
    }
    await until(() => receiver.deliveries().length === 1);
  });
});

describe("pruning", () => {
  it("removes subscriptions expired or stopped over seven days ago, and old admissions", async () => {
    const { conn, task, secret } = await watcher();
    const expired = await subscribeTo(conn, COMMENT, task.id, secret);
    const recent = await subscribeTo(conn, STATUS, task.id, secret);
    await database.db
      .update(mcpEventSubscriptions)
      .set({ expiresAt: new Date(Date.now() - 8 * 24 * 3600_000) })
      .where(eq(mcpEventSubscriptions.id, expired.result!.id as string));
    await database.db
      .update(mcpEventAdmissions)
      .set({ startedAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(mcpEventAdmissions.grantId, conn.grantId));
    await pruneEvents(database.db);
    const left = (await subscriptionsOf(conn.grantId)).map((r) => r.id);
    expect(left).toEqual([recent.result!.id]);
    const admissions = await database.db
      .select({ n: count() })
      .from(mcpEventAdmissions)
      .where(eq(mcpEventAdmissions.grantId, conn.grantId));
    expect(admissions[0]!.n).toBe(0);
  });
});

describe("access is rechecked before every attempt", () => {
  it("a revoked grant stops deliveries", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    const ctx = await ctxOf(conn);
    await database.db
      .update(oauthGrants)
      .set({ revokedAt: new Date() })
      .where(eq(oauthGrants.id, conn.grantId));
    await addComment(ctx, task.id, { body: "after revocation" });
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(0);
    const [sub] = await subscriptionsOf(conn.grantId);
    expect(sub).toMatchObject({ state: "stopped", stoppedReason: "access_lost" });
  });

  it("a removed membership stops deliveries", async () => {
    // A second person, a member, with their own connection.
    const email = `member-${randomBytes(4).toString("hex")}@example.test`;
    const [member] = await database.db.insert(users).values({ email, name: "Member" }).returning();
    await database.db.insert(companyMemberships).values({ companyId, userId: member!.id, role: "member" });
    const conn = await connectAssistant(database.db, { userId: member!.id, companyId });
    const owner = await connect();
    const task = await newTask(owner);
    const secret = newSecret();
    receiver.setSecret(secret);
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    await database.db
      .delete(companyMemberships)
      .where(and(eq(companyMemberships.companyId, companyId), eq(companyMemberships.userId, member!.id)));
    await addComment(await ctxOf(owner), task.id, { body: "after removal" });
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(0);
    const [sub] = await subscriptionsOf(conn.grantId);
    expect(sub).toMatchObject({ state: "stopped", stoppedReason: "access_lost" });
  });

  it("a grant revoked while its callback is being verified cannot activate the subscription", async () => {
    const { conn, task, secret } = await watcher();
    receiver.setChallengeDelay(800);
    try {
      const pending = subscribeTo(conn, COMMENT, task.id, secret);
      // The receiver holds its answer 800 ms: revoke while the challenge is out.
      await new Promise((r) => setTimeout(r, 300));
      await database.db
        .update(oauthGrants)
        .set({ revokedAt: new Date() })
        .where(eq(oauthGrants.id, conn.grantId));
      const r = await pending;
      expect(r.error).toMatchObject({ code: -32012, data: { code: "grant_inactive" } });
    } finally {
      receiver.setChallengeDelay(0);
    }
    expect(await subscriptionsOf(conn.grantId)).toHaveLength(0);
  });

  it("a deleted task removes its subscriptions", async () => {
    const { conn, task, secret } = await watcher();
    expect((await subscribeTo(conn, COMMENT, task.id, secret)).error).toBeUndefined();
    await database.db.delete(issues).where(eq(issues.id, task.id));
    expect(await subscriptionsOf(conn.grantId)).toHaveLength(0);
  });
});

describe("refusals", () => {
  it("answers bad subscriptions with the spec's codes and stores nothing", async () => {
    const { conn, task, secret } = await watcher();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: "paperclip.task.nope", arguments: { companyId, taskId: task.id } }, -32011, "unknown_event"],
      [
        { name: COMMENT, arguments: { companyId: "00000000-0000-4000-8000-000000000000", taskId: task.id } },
        -32012,
        "company_not_granted",
      ],
      [
        { name: COMMENT, arguments: { companyId, taskId: "00000000-0000-4000-8000-000000000000" } },
        -32011,
        "task_not_found",
      ],
      [{ name: COMMENT, arguments: { companyId, taskId: task.id, extra: 1 } }, -32602, "arguments_invalid"],
      [
        { name: STATUS, arguments: { companyId, taskId: task.id, statuses: ["nope"] } },
        -32602,
        "arguments_invalid",
      ],
    ];
    for (const [p, code, dataCode] of cases) {
      const r = await rpc(conn.token, "events/subscribe", {
        ...p,
        delivery: { mode: "webhook", url: receiver.url, secret },
      });
      expect(r.error, JSON.stringify(p)).toMatchObject({ code, data: { code: dataCode } });
    }
    const base = { name: COMMENT, arguments: { companyId, taskId: task.id } };
    const deliveryCases: Array<[unknown, number, string]> = [
      [{ mode: "webhook", url: receiver.url, secret: "not-a-secret" }, -32602, "webhook_secret_invalid"],
      [
        { mode: "webhook", url: receiver.url, secret: `whsec_${Buffer.alloc(8).toString("base64")}` },
        -32602,
        "webhook_secret_invalid",
      ],
      [{ mode: "push", url: receiver.url, secret }, -32014, "delivery_unsupported"],
      [
        { mode: "webhook", url: receiver.url.replace("https:", "http:"), secret },
        -32015,
        "callback_endpoint_error",
      ],
      [
        { mode: "webhook", url: "https://user:pw@example.com/hook", secret },
        -32015,
        "callback_endpoint_error",
      ],
      [{ mode: "webhook", url: "ftp://example.com/hook", secret }, -32015, "callback_endpoint_error"],
      [
        { mode: "webhook", url: `https://example.com/${"a".repeat(2100)}`, secret },
        -32015,
        "callback_endpoint_error",
      ],
      ["webhook", -32602, "delivery_invalid"],
    ];
    for (const [delivery, code, dataCode] of deliveryCases) {
      const r = await rpc(conn.token, "events/subscribe", { ...base, delivery });
      expect(r.error, JSON.stringify(delivery).slice(0, 100)).toMatchObject({
        code,
        data: { code: dataCode },
      });
    }
    // Every refusal is in the connection's activity log with its code (never the URL or secret).
    const logged = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(
        and(eq(activityLog.entityId, conn.grantId), eq(activityLog.action, "mcp_event_subscription.refused")),
      );
    const codes = logged.map((l) => (l.details as { code: string }).code);
    for (const c of [
      "unknown_event",
      "company_not_granted",
      "task_not_found",
      "webhook_secret_invalid",
      "callback_endpoint_error",
    ])
      expect(codes).toContain(c);
    expect(JSON.stringify(logged)).not.toContain(secret.slice(6, 20));
    const cursor = await rpc(conn.token, "events/subscribe", {
      ...base,
      delivery: { mode: "webhook", url: receiver.url, secret },
      cursor: "abc",
    });
    expect(cursor.error).toMatchObject({ code: -32014, data: { code: "cursor_unsupported" } });
    expect(await subscriptionsOf(conn.grantId)).toHaveLength(0);
    // None of these reached the network.
    expect(receiver.received).toHaveLength(0);
  });

  it("a receiver that does not echo the challenge activates nothing", async () => {
    const { conn, task, secret } = await watcher();
    for (const [mode, reason] of [
      ["wrong", "challenge_failed"],
      ["none", "challenge_failed"],
      ["status:500", "http_5xx"],
      ["status:404", "http_4xx"],
    ] as const) {
      receiver.setChallenge(mode);
      try {
        const r = await subscribeTo(conn, COMMENT, task.id, secret);
        expect(r.error, mode).toMatchObject({
          code: -32015,
          data: { code: "callback_endpoint_error", reason },
        });
      } finally {
        receiver.setChallenge("echo");
      }
    }
    expect(await subscriptionsOf(conn.grantId)).toHaveLength(0);
  });

  it("refuses a callback on a loopback or private address, and the attempt consumes quota", async () => {
    const { conn, task, secret } = await watcher();
    const port = new URL(receiver.url).port;
    for (const url of [
      `https://localhost:${port}/hook`,
      `https://127.0.0.2:${port}/hook`,
      "https://10.0.0.1/hook",
      "https://[::1]/hook",
    ]) {
      const r = await subscribeTo(conn, COMMENT, task.id, secret, {}, url);
      expect(r.error, url).toMatchObject({ code: -32015, data: { reason: "connection_refused" } });
    }
    expect(receiver.received).toHaveLength(0);
    const [n] = await database.db
      .select({ n: count() })
      .from(mcpEventAdmissions)
      .where(eq(mcpEventAdmissions.grantId, conn.grantId));
    expect(n!.n).toBe(4);
  });

  it("allows 30 verification attempts per connection per minute, failures included", async () => {
    const { conn, task, secret } = await watcher();
    for (let i = 0; i < 30; i++) {
      const r = await subscribeTo(conn, COMMENT, task.id, secret, {}, `https://10.0.0.${i + 1}/hook`);
      expect(r.error?.data?.reason, String(i)).toBe("connection_refused");
    }
    const r = await subscribeTo(conn, COMMENT, task.id, secret);
    expect(r.error).toMatchObject({
      code: -32013,
      data: { limit: "verificationsPerMinute", scope: "connection", max: 30 },
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("allows 20 subscriptions per connection", async () => {
    const conn = await connect();
    const secret = newSecret();
    receiver.setSecret(secret);
    const tasks = await Promise.all(Array.from({ length: 7 }, (_, i) => newTask(conn, `quota ${i}`)));
    let made = 0;
    for (const t of tasks)
      for (const name of [STATUS, COMMENT, DOCUMENT]) {
        if (made === 20) break;
        const r = await subscribeTo(conn, name, t.id, secret);
        expect(r.error).toBeUndefined();
        made++;
      }
    const over = await subscribeTo(conn, DOCUMENT, tasks[6]!.id, secret);
    expect(over.error).toMatchObject({
      code: -32013,
      data: { limit: "subscriptions", scope: "connection", max: 20 },
    });
    // The refusal came before any network request.
    expect(
      receiver.received.filter((r) => (r.body as { type?: string })?.type === "verification"),
    ).toHaveLength(20);
    // An unsubscribe frees a place.
    const un = await rpc(conn.token, "events/unsubscribe", {
      name: STATUS,
      arguments: { companyId, taskId: tasks[0]!.id },
      delivery: { url: receiver.url },
    });
    expect(un.error).toBeUndefined();
    expect((await subscribeTo(conn, DOCUMENT, tasks[6]!.id, secret)).error).toBeUndefined();
  });
});

describe("the master key", () => {
  it("rotate-master-key re-encrypts subscriptions; doctor checks them; deliveries carry on", async () => {
    const { conn, task, secret } = await watcher();
    const sub = await subscribeTo(conn, COMMENT, task.id, secret);
    expect(sub.error).toBeUndefined();
    const lines: string[] = [];
    const report = await rotateMasterKey(database.db, { log: (l) => lines.push(l) });
    resetLocalProvider();
    expect(lines.join("\n")).toContain("mcp_event_subscriptions.delivery_encrypted");
    const [row] = await database.db
      .select({ enc: mcpEventSubscriptions.deliveryEncrypted })
      .from(mcpEventSubscriptions)
      .where(eq(mcpEventSubscriptions.id, sub.result!.id as string));
    expect(row!.enc.keyId).toBe(report.newKeyId);
    await addComment(await ctxOf(conn), task.id, { body: "after rotation" });
    await until(() => receiver.deliveries().length === 1);
    expect(receiver.deliveries()[0]!.verified).toBe(true);
    const doctor = await runDoctor(database.db);
    expect(doctor.findings.filter((f) => f.kind === "undecryptable_values")).toEqual([]);
    await database.db
      .update(mcpEventSubscriptions)
      .set({ deliveryEncrypted: { ...row!.enc, keyId: "gone-key" } })
      .where(eq(mcpEventSubscriptions.id, sub.result!.id as string));
    const broken = await runDoctor(database.db);
    expect(broken.findings).toContainEqual(
      expect.objectContaining({
        kind: "undecryptable_values",
        column: "mcp_event_subscriptions.delivery_encrypted",
      }),
    );
    // An undecryptable subscription fails its delivery closed (nothing sent, no 5xx anywhere).
    await addComment(await ctxOf(conn), task.id, { body: "unreadable" });
    await quietPasses();
    expect(receiver.deliveries()).toHaveLength(1);
  });
});

describe("no input produces a 5xx", () => {
  it("random events/subscribe and events/unsubscribe params answer a JSON-RPC result or error", async () => {
    const { conn, task, secret } = await watcher();
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
    );
    const params = fc.record(
      {
        name: fc.oneof(fc.constantFrom(STATUS, COMMENT, DOCUMENT), value),
        arguments: fc.oneof(
          fc.record(
            {
              companyId: fc.oneof(fc.constant(companyId), value),
              taskId: fc.oneof(
                fc.constant(task.id),
                fc.constant("ACME-999999999"),
                fc.constant("X-1"),
                value,
              ),
              statuses: fc.oneof(fc.constant(["done"]), value),
            },
            { requiredKeys: [] },
          ),
          value,
        ),
        delivery: fc.oneof(
          fc.record(
            {
              mode: fc.oneof(fc.constant("webhook"), value),
              url: fc.oneof(fc.constant(receiver.url), fc.constant("https://10.0.0.1/h"), value),
              secret: fc.oneof(fc.constant(secret), value),
            },
            { requiredKeys: [] },
          ),
          value,
        ),
        ttlMs: value,
        cursor: value,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("events/subscribe", "events/unsubscribe"),
        params,
        async (method, p) => {
          const r = await rpc(conn.token, method, p as Record<string, unknown>);
          expect(r.result !== undefined || (r.error !== undefined && r.error.code !== -32603)).toBe(true);
        },
      ),
      { numRuns: 150, seed: 20261202 },
    );
  }, 60_000);
});
