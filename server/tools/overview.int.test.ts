/**
 * Issue 21 item 5: the overview's inbox and chart aggregates, counted from real rows of one
 * company (real PostgreSQL; rows seeded at known times against a fixed clock). Another
 * company's rows of every kind are seeded too and must never be counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import {
  companySecretBindings,
  companySecrets,
  toolActionRequests,
  toolApplications,
  toolCallEvents,
  toolCatalogEntries,
  toolConnections,
  toolInvocations,
  toolRuntimeSlots,
} from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import { closeDemoWorld, demoWorld, strangerCompany, type TestDatabase } from "@/server/testing/world";
import type { ServiceContext } from "../context";
import { getToolsOverview } from "./overview";

const NOW = new Date("2026-06-10T12:30:00.000Z");
const at = (iso: string) => new Date(iso);

let database: TestDatabase;
let demo: DemoCredentials;
let acme: { companyId: string; userId: string };
let ctx: ServiceContext;

/** One company's tools rows of every inbox kind; returns the ids the assertions name. */
async function seedTools(db: Db, companyId: string, tag: string) {
  const [app] = await db
    .insert(toolApplications)
    .values({ companyId, slug: `app-${tag}`, name: `App ${tag}`, type: "mcp_http" })
    .returning();
  const conn = async (name: string, values: Partial<typeof toolConnections.$inferInsert> = {}) => {
    const [row] = await db
      .insert(toolConnections)
      .values({ companyId, applicationId: app!.id, name, status: "active", enabled: true, ...values })
      .returning();
    return row!;
  };
  const ready = await conn(`ready ${tag}`, { healthStatus: "ok" });
  const broken = await conn(`broken ${tag}`, {
    healthStatus: "error",
    healthError: "upstream_blocked: 127.0.0.1 is a loopback address",
  });
  const noSecretChecked = await conn(`missing ${tag}`, { healthStatus: "missing_secret" });
  const revokedSinceCheck = await conn(`revoked ${tag}`, { healthStatus: "ok" });
  await conn(`draft ${tag}`, { status: "draft", enabled: false });
  await conn(`archived ${tag}`, { status: "archived", enabled: false, healthStatus: "error" });

  const [secret] = await db
    .insert(companySecrets)
    .values({ companyId, name: `TOKEN_${tag}`, status: "revoked" })
    .returning();
  await db.insert(companySecretBindings).values({
    companyId,
    secretId: secret!.id,
    connectionId: revokedSinceCheck.id,
    placement: "http_header",
    target: "Authorization",
  });

  const entry = (name: string, values: Partial<typeof toolCatalogEntries.$inferInsert> = {}) => ({
    companyId,
    connectionId: ready.id,
    name,
    schemaHash: "s",
    versionHash: "v",
    risk: "write" as const,
    ...values,
  });
  const [active] = await db
    .insert(toolCatalogEntries)
    .values([
      entry("active", { status: "active" }),
      entry("new_tool"),
      entry("changed_tool", { reviewedVersion: { versionHash: "old" } as never }),
    ])
    .returning();

  const [slot] = await db
    .insert(toolRuntimeSlots)
    .values({
      companyId,
      connectionId: ready.id,
      slotKey: `slot-${tag}`,
      workspaceScope: "none",
      credentialScope: "company",
      trustScope: "company",
      status: "suppressed",
      host: "h",
      idleTtlMs: 60_000,
      lastError: "crashed 3 times within 60 s",
    })
    .returning();
  await db.insert(toolRuntimeSlots).values({
    companyId,
    connectionId: ready.id,
    slotKey: `slot-${tag}-running`,
    workspaceScope: "none",
    credentialScope: "company",
    trustScope: "company",
    status: "running",
    host: "h",
    idleTtlMs: 60_000,
  });

  const invocation = async (values: Partial<typeof toolInvocations.$inferInsert> = {}) => {
    const [row] = await db
      .insert(toolInvocations)
      .values({
        companyId,
        actorType: "system",
        actorId: "t",
        toolName: "app__send",
        argsHash: "a",
        ...values,
      })
      .returning();
    return row!;
  };
  // A write left unknown is counted (it may have had a side effect); a read left so is not.
  await invocation({ executionStatus: "outcome_unknown", idempotencyIdentity: "w1" });
  await invocation({ executionStatus: "outcome_unknown" });
  const request = async (created: string, expires: string) => {
    const inv = await invocation({ executionStatus: "awaiting_approval" });
    const [row] = await db
      .insert(toolActionRequests)
      .values({
        companyId,
        invocationId: inv.id,
        catalogEntryId: active!.id,
        toolName: `app__send_${created.slice(11, 13)}`,
        argsHash: inv.id,
        schemaHash: "s",
        versionHash: "v",
        signature: "x",
        signatureKeyId: "k",
        preview: {} as never,
        createdAt: at(created),
        expiresAt: at(expires),
      })
      .returning();
    return row!;
  };
  const older = await request("2026-06-10T09:00:00.000Z", "2026-06-11T09:00:00.000Z");
  await request("2026-06-10T11:00:00.000Z", "2026-06-11T11:00:00.000Z");
  await request("2026-06-08T08:00:00.000Z", "2026-06-09T08:00:00.000Z"); // expired: not waiting

  const event = (createdAt: string, decision: string | null, values: Record<string, unknown> = {}) => ({
    companyId,
    eventType: "decision",
    actorType: "system" as const,
    actorId: "t",
    toolName: "app__send",
    decision: decision as never,
    createdAt: at(createdAt),
    ...values,
  });
  await db.insert(toolCallEvents).values([
    event("2026-06-10T12:10:00.000Z", "allow"),
    event("2026-06-10T12:20:00.000Z", "allow"),
    // Not a decision: the same call's execution is not a second governed call.
    event("2026-06-10T12:10:01.000Z", "allow", { eventType: "execution_started", risk: "write" }),
    event("2026-06-10T11:59:59.000Z", "deny", { toolName: "app__delete", reasonCode: "policy_blocked" }),
    event("2026-06-09T13:00:00.000Z", "deny", { toolName: "app__nope", reasonCode: "tool_not_found" }),
    event("2026-06-09T12:59:00.000Z", "approval_required"),
    event("2026-06-04T00:00:00.000Z", "rate_limited"),
    event("2026-06-03T23:59:00.000Z", "deny", { toolName: "app__delete", reasonCode: "policy_blocked" }),
    event("2026-06-03T12:00:00.000Z", "deny", { toolName: "app__old", reasonCode: "policy_blocked" }),
  ]);
  return { ready, broken, noSecretChecked, revokedSinceCheck, slot: slot!, older };
}

let ids: Awaited<ReturnType<typeof seedTools>>;

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  const stranger = await strangerCompany(database.db, "Overview Acme");
  acme = stranger;
  ctx = {
    db: database.db,
    actor: { type: "user", userId: stranger.userId, email: "owner@overview-acme.example" },
    requestId: "test",
    now: () => NOW,
  };
  ids = await seedTools(database.db, acme.companyId, "a");
  // The same rows in another company, plus more calls: none may be counted for Acme.
  await seedTools(database.db, demo.companyId, "d");
  await database.db.insert(toolCallEvents).values(
    Array.from({ length: 5 }, () => ({
      companyId: demo.companyId,
      eventType: "decision",
      actorType: "system" as const,
      actorId: "t",
      toolName: "app__delete",
      decision: "deny" as const,
      createdAt: at("2026-06-10T12:15:00.000Z"),
    })),
  );
}, 120_000);

afterAll(async () => {
  await closeDemoWorld(database);
});

describe("getToolsOverview", () => {
  it("lists what needs a person, each with what to act on, and only this company's", async () => {
    const { inbox } = await getToolsOverview(ctx, acme.companyId);
    expect(inbox.pendingApprovals.total).toBe(2);
    expect(inbox.pendingApprovals.oldest.map((r) => r.id)[0]).toBe(ids.older.id);
    expect(inbox.pendingApprovals.oldest.map((r) => r.toolName)).toEqual(["app__send_09", "app__send_11"]);
    expect(inbox.toolsToReview).toEqual([
      { connectionId: ids.ready.id, connectionName: "ready a", quarantined: 2, changed: 1 },
    ]);
    expect(inbox.suppressedSlots).toMatchObject([
      { slotId: ids.slot.id, connectionId: ids.ready.id, lastError: "crashed 3 times within 60 s" },
    ]);
    expect(inbox.missingSecrets.map((c) => c.connectionName)).toEqual(["missing a", "revoked a"]);
    expect(inbox.unhealthyConnections).toMatchObject([
      { connectionId: ids.broken.id, healthError: expect.stringContaining("upstream_blocked") },
    ]);
    expect(inbox.unknownOutcomes).toBe(1);
    expect(inbox.pendingAutonomyChanges).toBe(0);
  });

  it("counts the ADR's figures truthfully: every denial reason, decisions not executions", async () => {
    const { counts } = await getToolsOverview(ctx, acme.companyId);
    expect(counts).toEqual({
      applications: 1,
      activeConnections: 4,
      denials24h: 2,
      highRiskCalls24h: 1,
      rateLimited24h: 0,
      runtimeSlots: 1,
    });
  });

  it("buckets the last 24 hours hourly, zero-filled, ending with the hour that holds now", async () => {
    const { calls24h } = await getToolsOverview(ctx, acme.companyId);
    expect(calls24h.bucket).toBe("hour");
    expect(calls24h.buckets).toHaveLength(24);
    expect(calls24h.buckets[0]!.start.toISOString()).toBe("2026-06-09T13:00:00.000Z");
    expect(calls24h.buckets[23]!.start.toISOString()).toBe("2026-06-10T12:00:00.000Z");
    const nonZero = calls24h.buckets
      .filter((b) => b.allow + b.deny + b.approval_required + b.rate_limited + b.deferred > 0)
      .map((b) => ({ start: b.start.toISOString(), allow: b.allow, deny: b.deny }));
    expect(nonZero).toEqual([
      { start: "2026-06-09T13:00:00.000Z", allow: 0, deny: 1 },
      { start: "2026-06-10T11:00:00.000Z", allow: 0, deny: 1 },
      { start: "2026-06-10T12:00:00.000Z", allow: 2, deny: 0 },
    ]);
  });

  it("buckets the last 7 days daily (UTC), zero-filled", async () => {
    const { calls7d } = await getToolsOverview(ctx, acme.companyId);
    expect(calls7d.buckets.map((b) => b.start.toISOString().slice(0, 10))).toEqual([
      "2026-06-04",
      "2026-06-05",
      "2026-06-06",
      "2026-06-07",
      "2026-06-08",
      "2026-06-09",
      "2026-06-10",
    ]);
    const [first, , , , , ninth, tenth] = calls7d.buckets;
    expect(first).toMatchObject({ rate_limited: 1, deny: 0, allow: 0 });
    expect(ninth).toMatchObject({ deny: 1, approval_required: 1, allow: 0 });
    expect(tenth).toMatchObject({ allow: 2, deny: 1 });
    expect(calls7d.buckets.slice(1, 5).every((b) => b.allow + b.deny + b.rate_limited === 0)).toBe(true);
  });

  it("ranks the tools denied most in 7 days with their usual reason", async () => {
    const { topDenied } = await getToolsOverview(ctx, acme.companyId);
    expect(topDenied).toEqual([
      { toolName: "app__delete", denials: 2, topReason: "policy_blocked" },
      { toolName: "app__nope", denials: 1, topReason: "tool_not_found" },
    ]);
  });

  it("answers an outsider with not_found", async () => {
    const outsider = {
      ...ctx,
      actor: { type: "user" as const, userId: acme.userId, email: "x@example.com" },
    };
    await expect(getToolsOverview(outsider, demo.companyId)).rejects.toMatchObject({ code: "not_found" });
  });
});
