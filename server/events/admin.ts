/**
 * The console of MCP Events (docs/public-mcp.md, "Events"): an assistant connection's event
 * subscriptions as its person sees them, and stopping one. Only the connection's person — or an
 * admin of its company (`company:manage`) — sees or stops a subscription; anyone else gets 404,
 * revealing nothing. The delivery config (callback URL, signing secrets) is a credential of the
 * receiver: it is never selected here, let alone decrypted.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { companies, issues, mcpEventDeliveries, mcpEventSubscriptions, oauthGrants } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { ConnectionSubscription as ConnectionSubscriptionSchema } from "@/server/contracts/api/public-mcp-events";
import type { ServiceContext } from "../context";
import { conflict, notFound } from "../errors";
import { mayManage, personOf } from "../public-mcp/receipt-admin";
import { stopSubscriptionIn } from "./stop";

const MAX_LISTED = 100;
const s = mcpEventSubscriptions;

/**
 * Subscriptions with their task's identifier and title and their count of queued deliveries.
 * INVARIANT: `deliveryEncrypted` is not among the selected columns.
 */
const subscriptionRows = (db: Tx) =>
  db
    .select({
      id: s.id,
      grantId: s.grantId,
      companyId: s.companyId,
      eventName: s.eventName,
      taskId: s.taskId,
      taskIdentifier: sql<string>`${companies.issuePrefix} || '-' || ${issues.number}`,
      taskTitle: issues.title,
      state: s.state,
      stoppedReason: s.stoppedReason,
      expiresAt: s.expiresAt,
      lastDeliveryAt: s.lastDeliveryAt,
      lastError: s.lastError,
      failedSince: s.failedSince,
      deliveredCount: s.deliveredCount,
      failedCount: s.failedCount,
      pendingDeliveries: sql<number>`(
        select count(*)::int from ${mcpEventDeliveries}
        where ${mcpEventDeliveries.subscriptionId} = ${s.id} and ${mcpEventDeliveries.status} = 'pending'
      )`,
      createdAt: s.createdAt,
    })
    .from(s)
    .innerJoin(issues, companyRow(issues, s.companyId, s.taskId))
    .innerJoin(companies, eq(companies.id, issues.companyId));

type Row = Awaited<ReturnType<ReturnType<typeof subscriptionRows>["where"]>>[number];

const view = (r: Row, now: Date) =>
  ({
    ...r,
    // Past its expiry an unstopped subscription delivers nothing more: for the person, expired.
    state: r.state !== "stopped" && r.expiresAt < now ? "expired" : r.state,
    stoppedReason: r.stoppedReason ?? null,
    expiresAt: r.expiresAt.toISOString(),
    lastDeliveryAt: r.lastDeliveryAt?.toISOString() ?? null,
    lastError: r.lastError ?? null,
    failedSince: r.failedSince?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }) satisfies Served<typeof ConnectionSubscriptionSchema>;

/** The grant `grantId` if the signed-in person may manage it; otherwise 404 `connection`. */
async function manageableGrant(ctx: ServiceContext, grantId: string) {
  const userId = personOf(ctx);
  const [grant] = await ctx.db
    .select({ id: oauthGrants.id, userId: oauthGrants.userId, companyId: oauthGrants.companyId })
    .from(oauthGrants)
    .where(eq(oauthGrants.id, grantId))
    .limit(1);
  if (!grant || !(await mayManage(ctx, userId, grant))) throw notFound("connection");
  return grant;
}

/** The newest event subscriptions (100) of one assistant connection, with delivery figures. */
export async function listConnectionSubscriptions(ctx: ServiceContext, grantId: string) {
  const grant = await manageableGrant(ctx, grantId);
  const rows = await subscriptionRows(ctx.db)
    .where(inCompany(s, grant.companyId, eq(s.grantId, grant.id)))
    .orderBy(desc(s.createdAt), desc(s.id))
    .limit(MAX_LISTED);
  const now = ctx.now();
  return { subscriptions: rows.map((r) => view(r, now)) };
}

/**
 * Stops a pending or active subscription of the connection (`stopped_by_person`) and drops its
 * queued deliveries so nothing more is sent, with its activity row, in one transaction; 409
 * `subscription_not_active` once stopped, 404 for another connection's or an unknown id.
 */
export async function stopSubscription(ctx: ServiceContext, grantId: string, subscriptionId: string) {
  const grant = await manageableGrant(ctx, grantId);
  const [found] = await ctx.db
    .select({ id: s.id, state: s.state, eventName: s.eventName, taskId: s.taskId })
    .from(s)
    .where(inCompany(s, grant.companyId, eq(s.grantId, grant.id), eq(s.id, subscriptionId)))
    .limit(1);
  if (!found) throw notFound("subscription");
  return ctx.db.transaction(async (tx) => {
    const sub = { ...found, companyId: grant.companyId, grantId: grant.id };
    if (!(await stopSubscriptionIn(tx, ctx, sub, "stopped_by_person")))
      throw conflict("subscription_not_active", "the subscription is already stopped", {
        state: "stopped",
      });
    const [row] = await subscriptionRows(tx).where(inCompany(s, grant.companyId, eq(s.id, found.id)));
    return { subscription: view(row!, ctx.now()) };
  });
}
