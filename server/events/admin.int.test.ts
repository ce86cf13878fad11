import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as stopRoute from "@/app/api/me/assistant-connections/[grantId]/subscriptions/[subscriptionId]/stop/route";
import * as listRoute from "@/app/api/me/assistant-connections/[grantId]/subscriptions/route";
import { activityLog, companies, issues, mcpEventDeliveries, mcpEventSubscriptions } from "@/db/schema";
import type { ConnectionSubscription } from "@/server/contracts/api/public-mcp-events";
import { ConnectionSubscriptionsResponse } from "@/server/contracts/api/public-mcp-events";
import { encryptEventDelivery } from "../secrets/event-delivery";
import { call, sessionCookie } from "../testing/api";
import { addMember, connectAssistant, type TestConnection } from "../testing/public-mcp";
import {
  closeDemoWorld,
  demoWorld,
  ownerSession,
  strangerCompany,
  type TestDatabase,
} from "../testing/world";

// Planted in every subscription's callback URL and signing secret: it must never reach a response.
const CANARY = `canary-${randomUUID()}`;

let database: TestDatabase;
let companyId: string;
let owner: { id: string; cookie: string };
let conn: TestConnection;
let task: { id: string; identifier: string; title: string };

const subscriptionId = () => `sub_${randomBytes(16).toString("hex")}`;
const HOUR = 3_600_000;

/** A subscription row as the events code would store it (delivery config encrypted). */
async function subscribe(
  grantId: string,
  values: Partial<typeof mcpEventSubscriptions.$inferInsert> & { userId: string },
): Promise<string> {
  const id = subscriptionId();
  await database.db.insert(mcpEventSubscriptions).values({
    id,
    companyId,
    grantId,
    eventName: "paperclip.task.status_changed",
    taskId: task.id,
    arguments: { companyId, taskId: task.id },
    deliveryEncrypted: encryptEventDelivery(companyId, id, {
      url: `https://receiver.example/hooks/${CANARY}`,
      secret: `whsec_${CANARY}`,
      previousSecret: `whsec_prev_${CANARY}`,
    }),
    state: "active",
    activatedAt: new Date(),
    expiresAt: new Date(Date.now() + 24 * HOUR),
    ...values,
  });
  return id;
}

/** Queued, sent and failed deliveries of a subscription. */
async function deliveries(id: string, statuses: ("pending" | "delivered" | "failed")[]) {
  for (const status of statuses) {
    const rowId = randomUUID();
    await database.db.insert(mcpEventDeliveries).values({
      id: rowId,
      companyId,
      subscriptionId: id,
      activityId: randomUUID(),
      eventId: `evt_${rowId}`,
      payload: { taskId: task.id },
      status,
    });
  }
}

const list = (cookie: string, grantId: string) =>
  call<{ subscriptions: ConnectionSubscription[] }>(listRoute.GET, "GET", "/", {
    cookie,
    params: { grantId },
  });
const stop = (cookie: string, grantId: string, id: string) =>
  call<{ subscription: ConnectionSubscription; error?: { code: string; message: string } }>(
    stopRoute.POST,
    "POST",
    "/",
    { cookie, params: { grantId, subscriptionId: id } },
  );
const rowOf = async (id: string) =>
  (await database.db.select().from(mcpEventSubscriptions).where(eq(mcpEventSubscriptions.id, id)))[0]!;
const pendingOf = async (id: string) =>
  Object.fromEntries(
    (
      await database.db
        .select({ status: mcpEventDeliveries.status, n: sql<number>`count(*)::int` })
        .from(mcpEventDeliveries)
        .where(eq(mcpEventDeliveries.subscriptionId, id))
        .groupBy(mcpEventDeliveries.status)
    ).map((r) => [r.status, r.n]),
  );
const stopsLogged = (subscription: string) =>
  database.db
    .select()
    .from(activityLog)
    .where(
      and(
        eq(activityLog.action, "mcp_event_subscription.stop"),
        sql`${activityLog.details}->>'subscriptionId' = ${subscription}`,
      ),
    );

beforeAll(async () => {
  const world = await demoWorld({ home: "paperclip-events-admin-" });
  database = world.database;
  companyId = world.demo.companyId;
  owner = await ownerSession(database.db, world.demo);
  conn = await connectAssistant(database.db, { userId: owner.id, companyId });
  const [issue] = await database.db
    .select({
      id: issues.id,
      identifier: sql<string>`${companies.issuePrefix} || '-' || ${issues.number}`,
      title: issues.title,
    })
    .from(issues)
    .innerJoin(companies, eq(companies.id, issues.companyId))
    .where(eq(issues.companyId, companyId))
    .limit(1);
  task = issue!;
});
afterAll(() => closeDemoWorld(database));

describe("event subscriptions console", () => {
  it("lists a connection's subscriptions newest first with state, task and delivery figures", async () => {
    const grant = await connectAssistant(database.db, { userId: owner.id, companyId, clientName: "Lister" });
    const failing = await subscribe(grant.grantId, {
      userId: owner.id,
      eventName: "paperclip.task.comment_created",
      lastDeliveryAt: new Date(Date.now() - HOUR),
      lastError: "http_5xx",
      failedSince: new Date(Date.now() - HOUR),
      deliveredCount: 3,
      failedCount: 2,
      createdAt: new Date(Date.now() - 3 * HOUR),
    });
    const gone = await subscribe(grant.grantId, {
      userId: owner.id,
      state: "stopped",
      stoppedReason: "gone",
      createdAt: new Date(Date.now() - 2 * HOUR),
    });
    const expired = await subscribe(grant.grantId, {
      userId: owner.id,
      eventName: "paperclip.task.document_updated",
      expiresAt: new Date(Date.now() - 60_000),
      createdAt: new Date(Date.now() - HOUR),
    });
    const pending = await subscribe(grant.grantId, { userId: owner.id, state: "pending", activatedAt: null });
    await deliveries(failing, ["pending", "pending", "delivered", "failed"]);
    // Another connection's subscription is not listed.
    await subscribe(conn.grantId, { userId: owner.id });

    const res = await list(owner.cookie, grant.grantId);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(ConnectionSubscriptionsResponse.safeParse(res.json).success).toBe(true);
    const rows = res.json.subscriptions;
    expect(rows.map((r) => r.id)).toEqual([pending, expired, gone, failing]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(failing)).toMatchObject({
      grantId: grant.grantId,
      companyId,
      eventName: "paperclip.task.comment_created",
      taskId: task.id,
      taskIdentifier: task.identifier,
      taskTitle: task.title,
      state: "active",
      stoppedReason: null,
      lastError: "http_5xx",
      deliveredCount: 3,
      failedCount: 2,
      pendingDeliveries: 2,
    });
    expect(task.identifier).toMatch(/^[A-Z]+-\d+$/);
    expect(byId.get(failing)!.lastDeliveryAt).toMatch(/Z$/);
    expect(byId.get(gone)).toMatchObject({ state: "stopped", stoppedReason: "gone", pendingDeliveries: 0 });
    expect(byId.get(expired)!.state).toBe("expired");
    expect(byId.get(pending)).toMatchObject({ state: "pending", lastDeliveryAt: null, failedSince: null });
  });

  it("never answers the callback URL or a signing secret", async () => {
    const grant = await connectAssistant(database.db, { userId: owner.id, companyId, clientName: "Canary" });
    const id = await subscribe(grant.grantId, { userId: owner.id });
    // The canary is in the stored config (so its absence below means something).
    const stored = await rowOf(id);
    expect(stored.deliveryEncrypted.ciphertext.length).toBeGreaterThan(0);
    const listed = await list(owner.cookie, grant.grantId);
    expect(listed.status).toBe(200);
    expect(listed.json.subscriptions).toHaveLength(1);
    const text = JSON.stringify(listed.json);
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain("receiver.example");
    expect(text).not.toContain("whsec_");
    expect(text).not.toContain(stored.deliveryEncrypted.ciphertext);
    const stopped = await stop(owner.cookie, grant.grantId, id);
    expect(stopped.status).toBe(200);
    expect(JSON.stringify(stopped.json)).not.toContain(CANARY);
    expect(JSON.stringify(await stopsLogged(id))).not.toContain(CANARY);
  });

  it("stops a subscription: state stopped by the person, queued deliveries dropped, activity logged", async () => {
    const grant = await connectAssistant(database.db, { userId: owner.id, companyId, clientName: "Stopper" });
    const id = await subscribe(grant.grantId, { userId: owner.id });
    const other = await subscribe(grant.grantId, { userId: owner.id });
    await deliveries(id, ["pending", "pending", "pending", "delivered", "failed"]);
    await deliveries(other, ["pending"]);

    const res = await stop(owner.cookie, grant.grantId, id);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.subscription).toMatchObject({
      id,
      state: "stopped",
      stoppedReason: "stopped_by_person",
      pendingDeliveries: 0,
    });
    expect(await rowOf(id)).toMatchObject({ state: "stopped", stoppedReason: "stopped_by_person" });
    // Nothing more is sent for it; what was already sent or failed stays as the record.
    expect(await pendingOf(id)).toEqual({ delivered: 1, failed: 1 });
    // The other subscription is untouched.
    expect((await rowOf(other)).state).toBe("active");
    expect(await pendingOf(other)).toEqual({ pending: 1 });
    const logged = await stopsLogged(id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      companyId,
      entityType: "oauth_grant",
      entityId: grant.grantId,
      details: { subscriptionId: id, eventName: "paperclip.task.status_changed", taskId: task.id },
    });

    // Stopping again (or a subscription the receiver stopped) is 409, and logs nothing.
    const twice = await stop(owner.cookie, grant.grantId, id);
    expect(twice.status).toBe(409);
    expect(twice.json.error).toMatchObject({ code: "subscription_not_active" });
    const gone = await subscribe(grant.grantId, {
      userId: owner.id,
      state: "stopped",
      stoppedReason: "gone",
    });
    expect((await stop(owner.cookie, grant.grantId, gone)).status).toBe(409);
    expect((await rowOf(gone)).stoppedReason).toBe("gone");
    expect(await stopsLogged(id)).toHaveLength(1);
  });

  it("stops a pending subscription too (its verification lease is dropped)", async () => {
    const id = await subscribe(conn.grantId, {
      userId: owner.id,
      state: "pending",
      activatedAt: null,
      leaseToken: "lease",
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    expect((await stop(owner.cookie, conn.grantId, id)).status).toBe(200);
    expect(await rowOf(id)).toMatchObject({ state: "stopped", leaseToken: null, leaseExpiresAt: null });
  });

  it("answers 404 for an unknown, malformed or another connection's subscription", async () => {
    const grant = await connectAssistant(database.db, { userId: owner.id, companyId, clientName: "Other" });
    const theirs = await subscribe(grant.grantId, { userId: owner.id });
    for (const id of [subscriptionId(), "sub_nope", "x", theirs]) {
      const res = await stop(owner.cookie, conn.grantId, id);
      expect(res.status, id).toBe(404);
      expect(res.json.error).toMatchObject({ code: "not_found" });
    }
    expect((await rowOf(theirs)).state).toBe("active");
    expect((await list(owner.cookie, randomUUID())).status).toBe(404);
  });

  it("hides a connection's subscriptions from another member and another company (404)", async () => {
    const id = await subscribe(conn.grantId, { userId: owner.id });
    await deliveries(id, ["pending"]);
    const memberId = await addMember(database.db, companyId, {
      email: `member-${randomUUID()}@example.com`,
      name: "Member",
      role: "member",
    });
    const member = await sessionCookie(database.db, memberId, "member");
    const stranger = await strangerCompany(database.db, `Globex ${randomUUID().slice(0, 8)}`);
    for (const cookie of [member, stranger.cookie]) {
      const l = await list(cookie, conn.grantId);
      expect(l.status).toBe(404);
      expect(l.json).toMatchObject({ error: { code: "not_found" } });
      expect(JSON.stringify(l.json)).not.toContain(id);
      const s = await stop(cookie, conn.grantId, id);
      expect(s.status).toBe(404);
      expect(JSON.stringify(s.json)).not.toContain(id);
    }
    expect((await rowOf(id)).state).toBe("active");
    expect(await pendingOf(id)).toEqual({ pending: 1 });
    expect(await stopsLogged(id)).toHaveLength(0);
  });

  it("lets a company admin see and stop a member's subscription, but not another member", async () => {
    const memberId = await addMember(database.db, companyId, {
      email: `m-${randomUUID()}@example.com`,
      name: "M",
      role: "member",
    });
    const theirConn = await connectAssistant(database.db, { userId: memberId, companyId });
    const id = await subscribe(theirConn.grantId, { userId: memberId });
    const memberCookie = await sessionCookie(database.db, memberId, "m");
    const otherMemberId = await addMember(database.db, companyId, {
      email: `o-${randomUUID()}@example.com`,
      name: "O",
      role: "member",
    });
    const otherCookie = await sessionCookie(database.db, otherMemberId, "o");
    expect((await list(otherCookie, theirConn.grantId)).status).toBe(404);
    expect((await stop(otherCookie, theirConn.grantId, id)).status).toBe(404);
    // The member sees their own; the company owner (company:manage) sees and stops it.
    expect((await list(memberCookie, theirConn.grantId)).json.subscriptions.map((r) => r.id)).toEqual([id]);
    expect((await list(owner.cookie, theirConn.grantId)).json.subscriptions.map((r) => r.id)).toEqual([id]);
    const res = await stop(owner.cookie, theirConn.grantId, id);
    expect(res.status).toBe(200);
    const logged = await stopsLogged(id);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.actorId).toBe(owner.id);
  });

  it("refuses a board API key: these routes are for the person's browser session", async () => {
    const stranger = await strangerCompany(database.db, `Initech ${randomUUID().slice(0, 8)}`);
    const res = await call(listRoute.GET, "GET", "/", {
      token: stranger.boardKey,
      params: { grantId: conn.grantId },
    });
    expect(res.status).toBe(401);
  });
});
