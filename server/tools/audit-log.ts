import { and, desc, eq, getTableColumns, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow } from "@/db/join";
import { agents, companies, issues, toolCallEvents, toolInvocations } from "@/db/schema";
import type { AuditPage, InvocationsPage } from "@/server/contracts/api/audit";
import type { Served } from "@/server/contracts/api/common";
import { DECISIONS, TOOL_EVENT_TYPES } from "../audit/record-event";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { EXECUTION_STATUSES } from "../contracts/values";
import { outcomeUnknownSql } from "../ledger/invocations";
import { afterCursor, cursorAtSql, nextCursor } from "./keyset";

export const AuditQuery = z.object({
  runId: z.uuid().optional(),
  issueId: z.uuid().optional(),
  agentId: z.uuid().optional(),
  tool: z.string().trim().min(1).max(200).optional(),
  decision: z.enum(DECISIONS).optional(),
  eventType: z.enum(TOOL_EVENT_TYPES).optional(),
  /** Alias of eventType, as the issue names it. */
  outcome: z.enum(TOOL_EVENT_TYPES).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "a cursor from a previous page")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** The tool audit trail, newest first, with cursor pagination on the event sequence. */
export async function listAuditEvents(ctx: ServiceContext, companyId: string, q: AuditQuery) {
  await requireCompany(ctx, companyId, "tools:view_audit");
  const conds: SQL[] = [eq(toolCallEvents.companyId, companyId)];
  if (q.runId) conds.push(eq(toolCallEvents.runId, q.runId));
  if (q.issueId) conds.push(eq(toolCallEvents.issueId, q.issueId));
  if (q.agentId) conds.push(eq(toolCallEvents.agentId, q.agentId));
  if (q.tool) conds.push(eq(toolCallEvents.toolName, q.tool));
  if (q.decision) conds.push(eq(toolCallEvents.decision, q.decision));
  const type = q.eventType ?? q.outcome;
  if (type) conds.push(eq(toolCallEvents.eventType, type));
  if (q.cursor) conds.push(lt(toolCallEvents.seq, Number(q.cursor)));
  const rows = await ctx.db
    .select({
      id: toolCallEvents.id,
      seq: toolCallEvents.seq,
      eventType: toolCallEvents.eventType,
      createdAt: toolCallEvents.createdAt,
      actorType: toolCallEvents.actorType,
      agentId: toolCallEvents.agentId,
      agentName: agents.name,
      runId: toolCallEvents.runId,
      issueId: toolCallEvents.issueId,
      issueIdentifier: sql<
        string | null
      >`case when ${issues.id} is null then null else ${companies.issuePrefix} || '-' || ${issues.number} end`,
      invocationId: toolCallEvents.invocationId,
      toolName: toolCallEvents.toolName,
      risk: toolCallEvents.risk,
      decision: toolCallEvents.decision,
      reasonCode: toolCallEvents.reasonCode,
      matchedPolicyIds: toolCallEvents.matchedPolicyIds,
      actionRequestId: toolCallEvents.actionRequestId,
      trustRuleId: toolCallEvents.trustRuleId,
      argsHash: toolCallEvents.argsHash,
      argsSummary: toolCallEvents.argsSummary,
      resultSummary: toolCallEvents.resultSummary,
      resultSize: toolCallEvents.resultSize,
      latencyMs: toolCallEvents.latencyMs,
      errorClass: toolCallEvents.errorClass,
      redactions: toolCallEvents.redactions,
    })
    .from(toolCallEvents)
    .innerJoin(companies, eq(companies.id, toolCallEvents.companyId))
    .leftJoin(agents, companyRow(agents, toolCallEvents.companyId, toolCallEvents.agentId))
    .leftJoin(issues, companyRow(issues, toolCallEvents.companyId, toolCallEvents.issueId))
    .where(and(...conds))
    .orderBy(desc(toolCallEvents.seq))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    events: page,
    nextCursor: rows.length > q.limit ? String(page[page.length - 1]!.seq) : null,
  } satisfies Served<typeof AuditPage>;
}

export const InvocationsQuery = z.object({
  runId: z.uuid().optional(),
  issueId: z.uuid().optional(),
  agentId: z.uuid().optional(),
  tool: z.string().trim().min(1).max(200).optional(),
  decision: z.enum(DECISIONS).optional(),
  status: z.enum(EXECUTION_STATUSES).optional(),
  /** `unknown`: the rows a person must resolve (`outcomeUnknown`: lost, timed out, failed mid-call). */
  outcome: z.enum(["unknown"]).optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type InvocationsQuery = z.infer<typeof InvocationsQuery>;

/** The invocation ledger, newest first; the cursor is `<createdAt ISO>_<id>` of the last row. */
export async function listInvocations(ctx: ServiceContext, companyId: string, q: InvocationsQuery) {
  await requireCompany(ctx, companyId, "tools:view_audit");
  const conds: SQL[] = [eq(toolInvocations.companyId, companyId)];
  if (q.runId) conds.push(eq(toolInvocations.runId, q.runId));
  if (q.issueId) conds.push(eq(toolInvocations.issueId, q.issueId));
  if (q.agentId) conds.push(eq(toolInvocations.agentId, q.agentId));
  if (q.tool) conds.push(eq(toolInvocations.toolName, q.tool));
  if (q.decision) conds.push(eq(toolInvocations.decision, q.decision));
  if (q.status) conds.push(eq(toolInvocations.executionStatus, q.status));
  if (q.outcome === "unknown") conds.push(outcomeUnknownSql());
  if (q.cursor) conds.push(afterCursor(q.cursor, toolInvocations.createdAt, toolInvocations.id));
  const rows = await ctx.db
    .select({
      ...getTableColumns(toolInvocations),
      cursorAt: cursorAtSql(toolInvocations.createdAt),
    })
    .from(toolInvocations)
    .where(and(...conds))
    .orderBy(desc(toolInvocations.createdAt), desc(toolInvocations.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    // The kept result is ciphertext for replays only, the lease token a claim's own handle.
    invocations: page.map(
      ({
        idempotencyIdentity: _identity,
        cursorAt: _cursor,
        resultEncrypted: _kept,
        leaseToken: _token,
        ...rest
      }) => rest,
    ),
    nextCursor: nextCursor(rows.length > q.limit, last),
  } satisfies Served<typeof InvocationsPage>;
}
