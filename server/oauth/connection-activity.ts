/**
 * What my assistant connections did: the recent activity rows a person wrote through each of
 * their connections (rows whose `details.via.grantId` is the grant, docs/public-mcp.md,
 * "Audit of tool calls"), for the Assistant connections page. Only the person's own rows of
 * their own grants are read, and at most `ACTIVITY_PER_CONNECTION` per connection.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { activityLog, oauthGrants } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { ConnectionActivity } from "@/server/contracts/api/public-mcp";
import type { ServiceContext } from "../context";
import { unauthenticated } from "../errors";

export const ACTIVITY_PER_CONNECTION = 10;

/** The most recent activity of each of my connections among `grantIds`, newest first. */
export async function listConnectionActivity(
  ctx: ServiceContext,
  grantIds: readonly string[],
): Promise<Record<string, Served<typeof ConnectionActivity>[]>> {
  if (ctx.actor.type !== "user")
    throw unauthenticated("sign in with your browser to manage assistant connections");
  const userId = ctx.actor.userId;
  if (grantIds.length === 0) return {};
  // Only my grants: another person's grant id reads nothing.
  const mine = await ctx.db
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.userId, userId), inArray(oauthGrants.id, [...grantIds])));
  if (mine.length === 0) return {};
  const grantOf = sql<string>`${activityLog.details} -> 'via' ->> 'grantId'`;
  const ranked = ctx.db
    .select({
      id: activityLog.id,
      grantId: grantOf.as("grant_id"),
      companyId: activityLog.companyId,
      action: activityLog.action,
      entityType: activityLog.entityType,
      entityId: activityLog.entityId,
      createdAt: activityLog.createdAt,
      rank: sql<number>`row_number() over (partition by ${grantOf} order by ${activityLog.createdAt} desc, ${activityLog.id} desc)`.as(
        "rank",
      ),
    })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.actorType, "user"),
        eq(activityLog.actorId, userId),
        inArray(
          grantOf,
          mine.map((g) => g.id),
        ),
      ),
    )
    .as("ranked");
  const rows = await ctx.db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${ACTIVITY_PER_CONNECTION}`)
    .orderBy(sql`${ranked.createdAt} desc`);
  const out: Record<string, Served<typeof ConnectionActivity>[]> = {};
  for (const r of rows) {
    out[r.grantId] ??= [];
    out[r.grantId]!.push({
      id: r.id,
      companyId: r.companyId,
      action: r.action,
      entityType: r.entityType,
      entityId: r.entityId,
      createdAt: r.createdAt.toISOString(),
    });
  }
  return out;
}
