import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { mcpEventDeliveries, mcpEventSubscriptions } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";

/** Why a subscription stopped (`mcp_event_subscriptions.stopped_reason`). */
export type StopReason = "gone" | "access_lost" | "stopped_by_person" | "grant_revoked";

/**
 * Stops a pending or active subscription in the caller's transaction: one conditional UPDATE
 * decides (two concurrent stops log one activity row), its queued deliveries go so nothing
 * more is sent, and the connection's activity log records it. Returns whether it stopped.
 * A worker that already claimed a delivery may still finish that one send.
 */
export async function stopSubscriptionIn(
  tx: Tx,
  ctx: ServiceContext,
  sub: { id: string; companyId: string; grantId: string; eventName: string; taskId: string },
  reason: StopReason,
): Promise<boolean> {
  const [stopped] = await tx
    .update(mcpEventSubscriptions)
    .set({
      state: "stopped",
      stoppedReason: reason,
      leaseToken: null,
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(mcpEventSubscriptions.companyId, sub.companyId),
        eq(mcpEventSubscriptions.id, sub.id),
        inArray(mcpEventSubscriptions.state, ["pending", "active"]),
      ),
    )
    .returning({ id: mcpEventSubscriptions.id });
  if (!stopped) return false;
  await tx
    .delete(mcpEventDeliveries)
    .where(
      and(
        eq(mcpEventDeliveries.companyId, sub.companyId),
        eq(mcpEventDeliveries.subscriptionId, sub.id),
        eq(mcpEventDeliveries.status, "pending"),
      ),
    );
  await logActivity(tx, ctx, {
    companyId: sub.companyId,
    action: "mcp_event_subscription.stop",
    entityType: "oauth_grant",
    entityId: sub.grantId,
    details: { subscriptionId: sub.id, eventName: sub.eventName, taskId: sub.taskId, reason },
  });
  return true;
}
