import { count, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { inCompany } from "@/db/join";
import { toolApplications, toolCallEvents, toolConnections, toolRuntimeSlots } from "@/db/schema";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";

/**
 * The Tools & Access overview figures, counted from the database (all zero until the gateway
 * records anything; never sample data). "24h" figures look back from ctx.now().
 */
export async function getToolsOverview(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const since = new Date(ctx.now().getTime() - 24 * 60 * 60 * 1000);
  const [apps, conns, slots, events] = await Promise.all([
    ctx.db
      .select({ n: count() })
      .from(toolApplications)
      .where(inCompany(toolApplications, companyId, eq(toolApplications.status, "active"))),
    ctx.db
      .select({ n: count() })
      .from(toolConnections)
      .where(inCompany(toolConnections, companyId, eq(toolConnections.status, "active"))),
    ctx.db
      .select({ n: count() })
      .from(toolRuntimeSlots)
      .where(
        inCompany(
          toolRuntimeSlots,
          companyId,
          inArray(toolRuntimeSlots.status, ["starting", "running", "idle"]),
        ),
      ),
    ctx.db
      .select({
        denials: sql<number>`count(*) filter (where ${toolCallEvents.decision} = 'deny')`.mapWith(Number),
        highRisk:
          sql<number>`count(*) filter (where ${toolCallEvents.risk} in ('write','destructive') and ${toolCallEvents.eventType} = 'execution_started')`.mapWith(
            Number,
          ),
        rateLimited:
          sql<number>`count(*) filter (where ${toolCallEvents.reasonCode} = 'rate_limited')`.mapWith(Number),
      })
      .from(toolCallEvents)
      .where(
        inCompany(
          toolCallEvents,
          companyId,
          gte(toolCallEvents.createdAt, since),
          ne(toolCallEvents.eventType, "discovery"),
        ),
      ),
  ]);
  return {
    applications: apps[0]?.n ?? 0,
    activeConnections: conns[0]?.n ?? 0,
    runtimeSlots: slots[0]?.n ?? 0,
    denials24h: events[0]?.denials ?? 0,
    highRiskCalls24h: events[0]?.highRisk ?? 0,
    rateLimited24h: events[0]?.rateLimited ?? 0,
  };
}
