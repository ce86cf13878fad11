import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow } from "@/db/join";
import {
  agents,
  companies,
  issues,
  toolCallEvents,
  toolCatalogEntries,
  toolInvocations,
  toolPolicies,
  toolProfileBindings,
  toolProfiles,
} from "@/db/schema";
import type { AuditCallsPage } from "@/server/contracts/api/audit";
import type { Served } from "@/server/contracts/api/common";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { DECISIONS, EXECUTION_STATUSES, TOOL_EVENT_TYPES } from "../contracts/values";
import { invalidRequest } from "../errors";
import { afterCursor, cursorAtSql, nextCursor } from "./keyset";

/** The largest page the console asks for; the export reads in batches of `EXPORT_BATCH`. */
export const MAX_CALLS_PAGE = 100;

const Instant = z
  .string()
  .trim()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), "a date and time (ISO 8601, e.g. 2026-12-01T00:00:00Z)");

/** The filters of the grouped audit (`GET /tools/audit/calls`, and its export). */
export const AuditCallsFilters = z.object({
  /** `calls`: one row per invocation; `other`: events without an invocation (discovery, sweeps). */
  kind: z.enum(["calls", "other"]).default("calls"),
  from: Instant.optional(),
  to: Instant.optional(),
  runId: z.uuid().optional(),
  issueId: z.uuid().optional(),
  agentId: z.uuid().optional(),
  /** Part of the tool's name, case-insensitive. */
  tool: z.string().trim().min(1).max(200).optional(),
  decision: z.enum(DECISIONS).optional(),
  /** The ledger's execution status (`succeeded`, `failed`, `denied`, …). */
  outcome: z.enum(EXECUTION_STATUSES).optional(),
  /** Calls with at least one event of this type (e.g. `approval_accepted`). */
  eventType: z.enum(TOOL_EVENT_TYPES).optional(),
});
export type AuditCallsFilters = z.infer<typeof AuditCallsFilters>;

export const AuditCallsQuery = AuditCallsFilters.extend({
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_CALLS_PAGE).default(25),
});
export type AuditCallsQuery = z.infer<typeof AuditCallsQuery>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Events folded into one call row at most (a long relay conversation keeps the page bounded). */
const MAX_EVENTS_PER_CALL = 100;

const issueKey = sql<
  string | null
>`case when ${issues.id} is null then null else ${companies.issuePrefix} || '-' || ${issues.number} end`;

/** The event columns the console shows (redacted, bounded summaries only). */
const eventColumns = {
  id: toolCallEvents.id,
  seq: toolCallEvents.seq,
  eventType: toolCallEvents.eventType,
  createdAt: toolCallEvents.createdAt,
  actorType: toolCallEvents.actorType,
  agentId: toolCallEvents.agentId,
  agentName: agents.name,
  runId: toolCallEvents.runId,
  issueId: toolCallEvents.issueId,
  issueIdentifier: issueKey,
  invocationId: toolCallEvents.invocationId,
  toolName: toolCallEvents.toolName,
  risk: toolCallEvents.risk,
  decision: toolCallEvents.decision,
  reasonCode: toolCallEvents.reasonCode,
  matchedPolicyIds: toolCallEvents.matchedPolicyIds,
  argsSummary: toolCallEvents.argsSummary,
  resultSummary: toolCallEvents.resultSummary,
  resultSize: toolCallEvents.resultSize,
  latencyMs: toolCallEvents.latencyMs,
  errorClass: toolCallEvents.errorClass,
  redactions: toolCallEvents.redactions,
};

function instant(s: string | undefined) {
  return s === undefined ? undefined : new Date(Date.parse(s));
}

function toolMatch(col: typeof toolInvocations.toolName | typeof toolCallEvents.toolName, q: string): SQL {
  // position() instead of LIKE: no wildcard escaping to get wrong.
  return sql`position(lower(${q}) in lower(${col})) > 0`;
}

type Page = Served<typeof AuditCallsPage>;
type Call = Page["calls"][number];

/**
 * The tool audit grouped by invocation, newest first: each governed call once, with its audit
 * events (oldest first), its matched policies and the agent's profiles by name. Names are
 * looked up in the caller's company only, so an id from another company stays unnamed.
 */
export async function listAuditCalls(
  ctx: ServiceContext,
  companyId: string,
  q: AuditCallsQuery,
): Promise<Page> {
  await requireCompany(ctx, companyId, "tools:view_audit");
  return q.kind === "other" ? otherEvents(ctx, companyId, q) : groupedCalls(ctx, companyId, q);
}

async function groupedCalls(ctx: ServiceContext, companyId: string, q: AuditCallsQuery): Promise<Page> {
  const conds: SQL[] = [eq(toolInvocations.companyId, companyId)];
  const from = instant(q.from);
  const to = instant(q.to);
  if (from) conds.push(gte(toolInvocations.createdAt, from));
  if (to) conds.push(lte(toolInvocations.createdAt, to));
  if (q.runId) conds.push(eq(toolInvocations.runId, q.runId));
  if (q.issueId) conds.push(eq(toolInvocations.issueId, q.issueId));
  if (q.agentId) conds.push(eq(toolInvocations.agentId, q.agentId));
  if (q.tool) conds.push(toolMatch(toolInvocations.toolName, q.tool));
  if (q.decision) conds.push(eq(toolInvocations.decision, q.decision));
  if (q.outcome) conds.push(eq(toolInvocations.executionStatus, q.outcome));
  if (q.eventType)
    conds.push(
      sql`exists (select 1 from ${toolCallEvents} where ${toolCallEvents.companyId} = ${companyId} and ${toolCallEvents.invocationId} = ${toolInvocations.id} and ${toolCallEvents.eventType} = ${q.eventType})`,
    );
  if (q.cursor) conds.push(afterCursor(q.cursor, toolInvocations.createdAt, toolInvocations.id));
  const rows = await ctx.db
    .select({
      id: toolInvocations.id,
      createdAt: toolInvocations.createdAt,
      cursorAt: cursorAtSql(toolInvocations.createdAt),
      agentId: toolInvocations.agentId,
      agentName: agents.name,
      runId: toolInvocations.runId,
      issueId: toolInvocations.issueId,
      issueIdentifier: issueKey,
      toolName: toolInvocations.toolName,
      toolTitle: toolCatalogEntries.title,
      risk: sql<string | null>`coalesce(${toolCatalogEntries.riskOverride}, ${toolCatalogEntries.risk})`,
      decision: toolInvocations.decision,
      reasonCode: toolInvocations.reasonCode,
      outcome: toolInvocations.executionStatus,
      errorCode: toolInvocations.errorCode,
      latencyMs: toolInvocations.latencyMs,
      matchedPolicyIds: toolInvocations.matchedPolicyIds,
    })
    .from(toolInvocations)
    .innerJoin(companies, eq(companies.id, toolInvocations.companyId))
    .leftJoin(agents, companyRow(agents, toolInvocations.companyId, toolInvocations.agentId))
    .leftJoin(issues, companyRow(issues, toolInvocations.companyId, toolInvocations.issueId))
    .leftJoin(
      toolCatalogEntries,
      companyRow(toolCatalogEntries, toolInvocations.companyId, toolInvocations.catalogEntryId),
    )
    .where(and(...conds))
    .orderBy(desc(toolInvocations.createdAt), desc(toolInvocations.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const ids = page.map((r) => r.id);
  const events = ids.length
    ? await ctx.db
        .select(eventColumns)
        .from(toolCallEvents)
        .innerJoin(companies, eq(companies.id, toolCallEvents.companyId))
        .leftJoin(agents, companyRow(agents, toolCallEvents.companyId, toolCallEvents.agentId))
        .leftJoin(issues, companyRow(issues, toolCallEvents.companyId, toolCallEvents.issueId))
        .where(and(eq(toolCallEvents.companyId, companyId), inArray(toolCallEvents.invocationId, ids)))
        .orderBy(asc(toolCallEvents.seq))
    : [];
  const byCall = new Map<string, typeof events>();
  for (const e of events) {
    const list = byCall.get(e.invocationId!) ?? [];
    if (list.length < MAX_EVENTS_PER_CALL) list.push(e);
    byCall.set(e.invocationId!, list);
  }
  const policyIds = new Set<string>();
  for (const r of page) for (const p of r.matchedPolicyIds) policyIds.add(p);
  for (const e of events) for (const p of e.matchedPolicyIds) policyIds.add(p);
  const [policyNames, profilesOf] = await Promise.all([
    namePolicies(ctx, companyId, [...policyIds]),
    agentProfiles(
      ctx,
      companyId,
      page.map((r) => r.agentId),
    ),
  ]);
  const calls: Call[] = page.map(({ cursorAt: _c, matchedPolicyIds, ...r }) => {
    const callEvents = byCall.get(r.id) ?? [];
    // The decision event names the policies; the ledger row keeps the latest decision's.
    const ids = new Set(matchedPolicyIds);
    for (const e of callEvents) for (const p of e.matchedPolicyIds) ids.add(p);
    return {
      ...r,
      invocationId: r.id,
      policies: [...ids].map((id) => ({ id, name: policyNames.get(id) ?? null })),
      profiles: profilesOf(r.agentId),
      events: callEvents,
    };
  });
  return {
    calls,
    nextCursor: nextCursor(rows.length > q.limit, last),
  };
}

async function otherEvents(ctx: ServiceContext, companyId: string, q: AuditCallsQuery): Promise<Page> {
  const conds: SQL[] = [eq(toolCallEvents.companyId, companyId), isNull(toolCallEvents.invocationId)];
  const from = instant(q.from);
  const to = instant(q.to);
  if (from) conds.push(gte(toolCallEvents.createdAt, from));
  if (to) conds.push(lte(toolCallEvents.createdAt, to));
  if (q.runId) conds.push(eq(toolCallEvents.runId, q.runId));
  if (q.issueId) conds.push(eq(toolCallEvents.issueId, q.issueId));
  if (q.agentId) conds.push(eq(toolCallEvents.agentId, q.agentId));
  if (q.tool) conds.push(toolMatch(toolCallEvents.toolName, q.tool));
  if (q.decision) conds.push(eq(toolCallEvents.decision, q.decision));
  if (q.eventType) conds.push(eq(toolCallEvents.eventType, q.eventType));
  // Events without an invocation have no execution status: an outcome filter matches none.
  if (q.outcome) conds.push(sql`false`);
  if (q.cursor) {
    if (!/^\d{1,18}$/.test(q.cursor))
      throw invalidRequest("invalid `cursor`: use the `nextCursor` of a previous page");
    conds.push(lt(toolCallEvents.seq, Number(q.cursor)));
  }
  const rows = await ctx.db
    .select(eventColumns)
    .from(toolCallEvents)
    .innerJoin(companies, eq(companies.id, toolCallEvents.companyId))
    .leftJoin(agents, companyRow(agents, toolCallEvents.companyId, toolCallEvents.agentId))
    .leftJoin(issues, companyRow(issues, toolCallEvents.companyId, toolCallEvents.issueId))
    .where(and(...conds))
    .orderBy(desc(toolCallEvents.seq))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const policyNames = await namePolicies(ctx, companyId, [
    ...new Set(page.flatMap((e) => e.matchedPolicyIds)),
  ]);
  const profilesOf = await agentProfiles(
    ctx,
    companyId,
    page.map((e) => e.agentId),
  );
  return {
    calls: page.map((e) => ({
      id: e.id,
      invocationId: null,
      createdAt: e.createdAt,
      agentId: e.agentId,
      agentName: e.agentName,
      runId: e.runId,
      issueId: e.issueId,
      issueIdentifier: e.issueIdentifier,
      toolName: e.toolName,
      toolTitle: null,
      risk: e.risk,
      decision: e.decision,
      reasonCode: e.reasonCode,
      outcome: null,
      errorCode: e.errorClass,
      latencyMs: e.latencyMs,
      policies: e.matchedPolicyIds.map((id) => ({ id, name: policyNames.get(id) ?? null })),
      profiles: profilesOf(e.agentId),
      events: [e],
    })),
    nextCursor: rows.length > q.limit ? String(page[page.length - 1]!.seq) : null,
  };
}

/**
 * Policy id → name, in `companyId` only. INVARIANT: the lookup is scoped by company, so an id
 * copied from another company's policy never resolves (it is shown as an unnamed id).
 */
export async function namePolicies(
  ctx: ServiceContext,
  companyId: string,
  ids: string[],
): Promise<Map<string, string>> {
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: toolPolicies.id, name: toolPolicies.name })
    .from(toolPolicies)
    .where(and(eq(toolPolicies.companyId, companyId), inArray(toolPolicies.id, valid)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The profiles bound to each agent now (company-wide and to the agent itself): the profile set
 * the call was checked against unless someone changed the bindings since. Company-scoped.
 */
async function agentProfiles(
  ctx: ServiceContext,
  companyId: string,
  agentIds: (string | null)[],
): Promise<(agentId: string | null) => { id: string; name: string | null }[]> {
  const ids = [...new Set(agentIds.filter((a): a is string => a !== null))];
  if (ids.length === 0) return () => [];
  const rows = await ctx.db
    .select({
      id: toolProfiles.id,
      name: toolProfiles.name,
      targetType: toolProfileBindings.targetType,
      agentId: toolProfileBindings.agentId,
    })
    .from(toolProfileBindings)
    .innerJoin(
      toolProfiles,
      companyRow(toolProfiles, toolProfileBindings.companyId, toolProfileBindings.profileId),
    )
    .where(
      and(
        eq(toolProfileBindings.companyId, companyId),
        or(
          eq(toolProfileBindings.targetType, "company"),
          and(eq(toolProfileBindings.targetType, "agent"), inArray(toolProfileBindings.agentId, ids)),
        ),
      ),
    )
    .orderBy(asc(toolProfiles.name));
  return (agentId) => {
    if (!agentId) return [];
    const seen = new Set<string>();
    const out: { id: string; name: string | null }[] = [];
    for (const r of rows) {
      if (r.targetType === "agent" && r.agentId !== agentId) continue;
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ id: r.id, name: r.name });
    }
    return out;
  };
}
