import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import { companyRow, inCompany } from "@/db/join";
import {
  agents,
  approvals,
  companies,
  issues,
  toolActionRequests,
  toolApplications,
  toolCallEvents,
  toolCatalogEntries,
  toolConnections,
  toolInvocations,
  toolRuntimeSlots,
  toolUpstreamGrants,
} from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type {
  CallSeries,
  OverviewCounts,
  OverviewInbox,
  ToolsOverview,
  TopDeniedTools,
} from "@/server/contracts/api/overview";
import { DECISIONS, type DecisionValue } from "@/server/contracts/values";
import { requireCompany } from "../auth/authorize";
import { actorUserId, type ServiceContext } from "../context";
import { outcomeUnknownSql } from "../ledger/invocations";
import { connectionsMissingSecrets } from "../secrets/resolve";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** How many entries of each inbox kind are named (the rest are counted on the page they link to). */
const INBOX_LIMIT = 5;

/**
 * The Tools & Access overview: what needs a person, the ADR's counts and the charts, all counted
 * from the database for one company (zero until the gateway records anything; never sample
 * data). Time windows look back from ctx.now().
 */
export async function getToolsOverview(
  ctx: ServiceContext,
  companyId: string,
): Promise<Served<typeof ToolsOverview>> {
  await requireCompany(ctx, companyId, "company:read");
  const [counts, inbox, calls24h, calls7d, topDenied] = await Promise.all([
    overviewCounts(ctx, companyId),
    overviewInbox(ctx, companyId),
    governedCalls(ctx, companyId, "24h"),
    governedCalls(ctx, companyId, "7d"),
    topDeniedTools(ctx, companyId),
  ]);
  return { counts, inbox, calls24h, calls7d, topDenied };
}

/** A governed call's decision is its `decision` event (one per decided attempt, session refusals included). */
const decided = eq(toolCallEvents.eventType, "decision");

async function overviewCounts(
  ctx: ServiceContext,
  companyId: string,
): Promise<Served<typeof OverviewCounts>> {
  const since = new Date(ctx.now().getTime() - DAY);
  const [apps, conns, slots, events] = await Promise.all([
    ctx.db
      .select({ n: count() })
      .from(toolApplications)
      .where(inCompany(toolApplications, companyId, eq(toolApplications.status, "active"))),
    // Active means enabled for agents' calls: a draft or disabled connection serves nothing.
    ctx.db
      .select({ n: count() })
      .from(toolConnections)
      .where(
        inCompany(
          toolConnections,
          companyId,
          eq(toolConnections.status, "active"),
          eq(toolConnections.enabled, true),
        ),
      ),
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
        // Every refusal, whatever its reason (policy, not in the profile, unknown tool, missing secret…).
        denials:
          sql<number>`count(*) filter (where ${decided} and ${toolCallEvents.decision} = 'deny')`.mapWith(
            Number,
          ),
        highRisk:
          sql<number>`count(*) filter (where ${toolCallEvents.risk} in ('write','destructive') and ${toolCallEvents.eventType} = 'execution_started')`.mapWith(
            Number,
          ),
        rateLimited:
          sql<number>`count(*) filter (where ${decided} and ${toolCallEvents.decision} = 'rate_limited')`.mapWith(
            Number,
          ),
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

/** What needs a person now, each kind bounded to the oldest or most pressing few. */
async function overviewInbox(ctx: ServiceContext, companyId: string): Promise<Served<typeof OverviewInbox>> {
  const now = ctx.now();
  const live = ne(toolConnections.status, "archived");
  const pendingRequest = inCompany(
    toolActionRequests,
    companyId,
    eq(toolActionRequests.status, "pending"),
    gt(toolActionRequests.expiresAt, now),
  );
  const [pendingTotal, oldest, autonomy, review, suppressed, health, unknown, missingIds] = await Promise.all(
    [
      ctx.db.select({ n: count() }).from(toolActionRequests).where(pendingRequest),
      ctx.db
        .select({
          id: toolActionRequests.id,
          toolName: toolActionRequests.toolName,
          agentName: agents.name,
          issueId: toolActionRequests.issueId,
          issueIdentifier: sql<string | null>`${companies.issuePrefix} || '-' || ${issues.number}`,
          createdAt: toolActionRequests.createdAt,
          expiresAt: toolActionRequests.expiresAt,
        })
        .from(toolActionRequests)
        .leftJoin(agents, companyRow(agents, toolActionRequests.companyId, toolActionRequests.agentId))
        .leftJoin(issues, companyRow(issues, toolActionRequests.companyId, toolActionRequests.issueId))
        .leftJoin(companies, eq(companies.id, issues.companyId))
        .where(pendingRequest)
        .orderBy(asc(toolActionRequests.createdAt))
        .limit(3),
      ctx.db
        .select({ n: count() })
        .from(approvals)
        .where(
          inCompany(
            approvals,
            companyId,
            eq(approvals.status, "pending"),
            or(sql`${approvals.expiresAt} is null`, gt(approvals.expiresAt, now)),
          ),
        ),
      ctx.db
        .select({
          connectionId: toolConnections.id,
          connectionName: toolConnections.name,
          quarantined: count(),
          changed:
            sql<number>`count(*) filter (where ${toolCatalogEntries.reviewedVersion} is not null)`.mapWith(
              Number,
            ),
        })
        .from(toolCatalogEntries)
        .innerJoin(
          toolConnections,
          companyRow(toolConnections, toolCatalogEntries.companyId, toolCatalogEntries.connectionId),
        )
        .where(inCompany(toolCatalogEntries, companyId, eq(toolCatalogEntries.status, "quarantined"), live))
        .groupBy(toolConnections.id, toolConnections.name)
        .orderBy(desc(count()), asc(toolConnections.name))
        .limit(INBOX_LIMIT),
      ctx.db
        .select({
          slotId: toolRuntimeSlots.id,
          connectionId: toolConnections.id,
          connectionName: toolConnections.name,
          lastError: toolRuntimeSlots.lastError,
          since: toolRuntimeSlots.updatedAt,
        })
        .from(toolRuntimeSlots)
        .innerJoin(
          toolConnections,
          companyRow(toolConnections, toolRuntimeSlots.companyId, toolRuntimeSlots.connectionId),
        )
        .where(inCompany(toolRuntimeSlots, companyId, eq(toolRuntimeSlots.status, "suppressed")))
        .orderBy(desc(toolRuntimeSlots.updatedAt))
        .limit(INBOX_LIMIT),
      ctx.db
        .select({
          connectionId: toolConnections.id,
          connectionName: toolConnections.name,
          healthStatus: toolConnections.healthStatus,
          healthError: toolConnections.healthError,
          checkedAt: toolConnections.healthCheckedAt,
        })
        .from(toolConnections)
        .where(
          inCompany(
            toolConnections,
            companyId,
            live,
            inArray(toolConnections.healthStatus, ["error", "missing_secret"]),
          ),
        )
        .orderBy(asc(toolConnections.name)),
      ctx.db
        .select({ n: count() })
        .from(toolInvocations)
        // The calls a person must resolve: the same rows the Audit page lists (`?outcome=unknown`).
        .where(inCompany(toolInvocations, companyId, outcomeUnknownSql())),
      connectionsMissingSecrets(ctx.db, companyId),
    ],
  );

  // Missing secrets: the bindings as they are now (a secret revoked since the last health check
  // counts) plus connections whose last check said so.
  const missing = new Set([
    ...missingIds,
    ...health.filter((c) => c.healthStatus === "missing_secret").map((c) => c.connectionId),
  ]);
  const missingNames = missing.size
    ? await ctx.db
        .select({ connectionId: toolConnections.id, connectionName: toolConnections.name })
        .from(toolConnections)
        .where(inCompany(toolConnections, companyId, live, inArray(toolConnections.id, [...missing])))
        .orderBy(asc(toolConnections.name))
        .limit(INBOX_LIMIT)
    : [];
  const needsAuthorization = await connectionsNeedingAuthorization(ctx, companyId);
  return {
    pendingApprovals: { total: pendingTotal[0]?.n ?? 0, oldest },
    pendingAutonomyChanges: autonomy[0]?.n ?? 0,
    toolsToReview: review,
    suppressedSlots: suppressed,
    missingSecrets: missingNames,
    needsAuthorization,
    unhealthyConnections: health
      .filter((c) => c.healthStatus === "error" && !missing.has(c.connectionId))
      .slice(0, INBOX_LIMIT)
      .map(({ healthStatus: _, ...c }) => c),
    unknownOutcomes: unknown[0]?.n ?? 0,
  };
}

/**
 * Governed calls of the last 24 hours (hourly buckets) or 7 days (daily buckets, UTC), by
 * decision: one aggregate query, zero-filled by `generate_series`. The last bucket holds now.
 */
export async function governedCalls(
  ctx: ServiceContext,
  companyId: string,
  range: "24h" | "7d",
): Promise<Served<typeof CallSeries>> {
  const step = range === "24h" ? HOUR : DAY;
  const n = range === "24h" ? 24 : 7;
  const end = new Date(Math.floor(ctx.now().getTime() / step) * step + step);
  const from = new Date(end.getTime() - n * step);
  const interval = range === "24h" ? sql.raw(`interval '1 hour'`) : sql.raw(`interval '1 day'`);
  const e = toolCallEvents;
  const rows = await ctx.db.execute<Record<"start" | DecisionValue, string | number | Date>>(sql`
    with counted as (
      select date_bin(${interval}, ${e.createdAt}, ${from.toISOString()}::timestamptz) as bucket,
        ${sql.join(
          DECISIONS.map((d) => sql`count(*) filter (where ${e.decision} = ${d}) as ${sql.identifier(d)}`),
          sql`, `,
        )}
      from ${e}
      where ${e.companyId} = ${companyId} and ${decided}
        and ${e.createdAt} >= ${from.toISOString()}::timestamptz and ${e.createdAt} < ${end.toISOString()}::timestamptz
      group by 1
    )
    select b.bucket as start,
      ${sql.join(
        DECISIONS.map((d) => sql`coalesce(c.${sql.identifier(d)}, 0)::int as ${sql.identifier(d)}`),
        sql`, `,
      )}
    from generate_series(${from.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz - ${interval}, ${interval}) as b(bucket)
    left join counted c on c.bucket = b.bucket
    order by b.bucket`);
  const buckets = [...rows].map((r) => {
    const counts = Object.fromEntries(DECISIONS.map((d) => [d, Number(r[d])])) as Record<
      DecisionValue,
      number
    >;
    return { start: new Date(r.start as string | Date), ...counts };
  });
  return { range, bucket: range === "24h" ? "hour" : "day", buckets };
}

/** The ten tools denied most over the last 7 days, with each one's most frequent reason. */
export async function topDeniedTools(
  ctx: ServiceContext,
  companyId: string,
): Promise<Served<typeof TopDeniedTools>> {
  const since = new Date(ctx.now().getTime() - 7 * DAY);
  const denials = count();
  return ctx.db
    .select({
      toolName: sql<string>`${toolCallEvents.toolName}`,
      denials,
      topReason: sql<string | null>`mode() within group (order by ${toolCallEvents.reasonCode})`,
    })
    .from(toolCallEvents)
    .where(
      and(
        inCompany(toolCallEvents, companyId, decided, eq(toolCallEvents.decision, "deny")),
        isNotNull(toolCallEvents.toolName),
        gte(toolCallEvents.createdAt, since),
      ),
    )
    .groupBy(toolCallEvents.toolName)
    .orderBy(desc(denials), asc(toolCallEvents.toolName))
    .limit(10);
}

/**
 * Active OAuth connections whose calls a person must unblock: the company's grant is missing or
 * needs a Reconnect (admins act), or the caller's own `oauth_user` grant is missing or needs
 * linking again (that person acts).
 */
async function connectionsNeedingAuthorization(ctx: ServiceContext, companyId: string) {
  const me = actorUserId(ctx.actor);
  const rows = await ctx.db
    .select({
      connectionId: toolConnections.id,
      connectionName: toolConnections.name,
      authKind: toolConnections.authKind,
      status: toolUpstreamGrants.status,
      lastError: toolUpstreamGrants.lastError,
    })
    .from(toolConnections)
    .leftJoin(
      toolUpstreamGrants,
      and(
        eq(toolUpstreamGrants.companyId, toolConnections.companyId),
        eq(toolUpstreamGrants.connectionId, toolConnections.id),
        or(
          and(ne(toolConnections.authKind, "oauth_user"), eq(toolUpstreamGrants.subjectKey, "company")),
          and(
            eq(toolConnections.authKind, "oauth_user"),
            eq(toolUpstreamGrants.subjectKey, me ? `user:${me}` : "-"),
          ),
        ),
      ),
    )
    .where(
      inCompany(
        toolConnections,
        companyId,
        eq(toolConnections.status, "active"),
        inArray(toolConnections.authKind, ["oauth_company", "oauth_user"]),
      ),
    )
    .orderBy(asc(toolConnections.name));
  return rows
    .filter((r) => r.status !== "connected" && (r.authKind !== "oauth_user" || me))
    .slice(0, INBOX_LIMIT)
    .map((r) => ({
      connectionId: r.connectionId,
      connectionName: r.connectionName,
      personal: r.authKind === "oauth_user",
      reason: r.status === "needs_reauthorization" ? (r.lastError ?? "the grant must be renewed") : null,
    }));
}
