/**
 * `notifications/resources/updated`, relayed to the agents that subscribed (docs/gateway.md,
 * "Resource subscriptions").
 *
 * A governed `resources/subscribe` is forwarded on the connection's pooled client and recorded
 * in `tool_gateway_resource_subscriptions` (session, connection, upstream URI, the URI as the
 * agent named it). When that client receives the upstream's update, this process announces
 * `resource:<connection>:<sha256(upstream URI)>` on the gateway's NOTIFY channel; every
 * replica hears it, and each GET stream (list-changes.ts) whose session holds a matching row
 * re-checks that the resource is still visible to the session (the one `decide`) and sends
 * `notifications/resources/updated` with the agent's URI. A subscribe or unsubscribe announces
 * `subscriptions:<session>` so that the session's open streams reload their rows.
 */
import { createHash } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolGatewayResourceSubscriptions } from "@/db/schema";
import { processSingleton } from "../config/process-singleton";
import { mcpHttpPool } from "../connectors";
import { logWarn } from "../log";
import { announce } from "./relay/bus";

export const resourceUpdatedKey = (connectionId: string, upstreamUri: string) =>
  `resource:${connectionId}:${createHash("sha256").update(upstreamUri).digest("hex")}`;
export const subscriptionsChangedKey = (sessionId: string) => `subscriptions:${sessionId}`;

/** Once per process: the pool's resource updates become announcements to every replica. */
export function relayResourceUpdates(db: Db): void {
  processSingleton("resourceUpdateRelay", () =>
    mcpHttpPool().onResourceUpdated((connectionId, uri) => {
      announce(db, resourceUpdatedKey(connectionId, uri)).catch((err: unknown) =>
        logWarn("gateway.resource_update_announce_failed", { message: (err as Error).message }),
      );
    }),
  );
}

export interface SubscriptionRow {
  companyId: string;
  sessionId: string;
  connectionId: string;
  catalogEntryId: string;
  upstreamUri: string;
  agentUri: string;
}

/** Records a session's subscription (after the upstream accepted it). */
export async function recordSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  relayResourceUpdates(db);
  await db
    .insert(toolGatewayResourceSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: [
        toolGatewayResourceSubscriptions.sessionId,
        toolGatewayResourceSubscriptions.connectionId,
        toolGatewayResourceSubscriptions.upstreamUri,
      ],
      set: { agentUri: row.agentUri, catalogEntryId: row.catalogEntryId },
    });
  await announce(db, subscriptionsChangedKey(row.sessionId));
}

/**
 * Deletes a session's subscription; true when another session still holds the same upstream
 * URI of that connection (the upstream subscription, shared by the pooled client, is kept).
 */
export async function dropSubscription(
  db: Db,
  key: { companyId: string; sessionId: string; connectionId: string; upstreamUri: string },
): Promise<boolean> {
  const t = toolGatewayResourceSubscriptions;
  await db
    .delete(t)
    .where(
      and(
        eq(t.companyId, key.companyId),
        eq(t.sessionId, key.sessionId),
        eq(t.connectionId, key.connectionId),
        eq(t.upstreamUri, key.upstreamUri),
      ),
    );
  await announce(db, subscriptionsChangedKey(key.sessionId));
  return heldByAnother(db, key.connectionId, key.upstreamUri, key.sessionId);
}

/** Whether a session (other than `except`) holds this upstream URI of the connection. */
async function heldByAnother(db: Db, connectionId: string, upstreamUri: string, except?: string) {
  const t = toolGatewayResourceSubscriptions;
  const [other] = await db
    .select({ id: t.id })
    .from(t)
    .where(
      and(
        eq(t.connectionId, connectionId),
        eq(t.upstreamUri, upstreamUri),
        except ? ne(t.sessionId, except) : undefined,
      ),
    )
    .limit(1);
  return Boolean(other);
}

/** The session's subscriptions. */
export function sessionSubscriptions(db: Db, companyId: string, sessionId: string) {
  const t = toolGatewayResourceSubscriptions;
  return db
    .select()
    .from(t)
    .where(and(eq(t.companyId, companyId), eq(t.sessionId, sessionId)));
}

/**
 * A session ended (revoked, expired, its run finished): its subscriptions go, and the pool
 * stops re-sending those no other session holds (the upstream is not told: the pooled client
 * may belong to a credential the ended session no longer has).
 */
export async function endSessionSubscriptions(db: Db, companyId: string, sessionId: string): Promise<void> {
  const t = toolGatewayResourceSubscriptions;
  const gone = await db
    .delete(t)
    .where(and(eq(t.companyId, companyId), eq(t.sessionId, sessionId)))
    .returning({ connectionId: t.connectionId, upstreamUri: t.upstreamUri });
  for (const g of gone) {
    if (!(await heldByAnother(db, g.connectionId, g.upstreamUri)))
      mcpHttpPool().forgetSubscription(g.connectionId, g.upstreamUri);
  }
}
