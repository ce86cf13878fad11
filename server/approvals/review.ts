import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import { agents, companies, issues, toolActionRequests, toolInvocations, users } from "@/db/schema";
import type { ActionRequest as ActionRequestSchema } from "@/server/contracts/api/approvals";
import type { Served } from "@/server/contracts/api/common";
import { ACTION_REQUEST_STATUSES } from "@/server/contracts/values";
import { recordToolEvents } from "../audit/record-event";
import { requireCompany } from "../auth/authorize";
import { actorRef, actorUserId, type ServiceContext } from "../context";
import { conflict, forbidden, notFound, type ServiceError } from "../errors";
import { currentExecution, notYetRun, outcomeUnknownSql } from "../ledger/invocations";
import { leaseMs } from "../ledger/lease";
import { expireLeaseIfPast } from "../ledger/sweep";
import { type ActionRequest, updateCard } from "./action-requests";

// ————————————————————————————— board review —————————————————————————————

export const ListActionRequestsQuery = z.object({
  status: z.enum(ACTION_REQUEST_STATUSES).optional(),
  issueId: z.uuid().optional(),
  runId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListActionRequestsQuery = z.infer<typeof ListActionRequestsQuery>;

export const DecisionNoteInput = z.object({ note: z.string().trim().max(2000).optional() });

const publicColumns = {
  id: toolActionRequests.id,
  invocationId: toolActionRequests.invocationId,
  runId: toolActionRequests.runId,
  agentId: toolActionRequests.agentId,
  issueId: toolActionRequests.issueId,
  commentId: toolActionRequests.commentId,
  catalogEntryId: toolActionRequests.catalogEntryId,
  toolName: toolActionRequests.toolName,
  argsHash: toolActionRequests.argsHash,
  schemaHash: toolActionRequests.schemaHash,
  preview: toolActionRequests.preview,
  status: toolActionRequests.status,
  supersededById: toolActionRequests.supersededById,
  expiresAt: toolActionRequests.expiresAt,
  decidedByUserId: toolActionRequests.decidedByUserId,
  decidedAt: toolActionRequests.decidedAt,
  decisionNote: toolActionRequests.decisionNote,
  executedAt: toolActionRequests.executedAt,
  createdAt: toolActionRequests.createdAt,
};

/** Lists action requests (metadata and the redacted preview; never the raw reviewed arguments). */
export async function listActionRequests(ctx: ServiceContext, companyId: string, q: ListActionRequestsQuery) {
  await requireCompany(ctx, companyId, "company:read");
  const conds: SQL[] = [eq(toolActionRequests.companyId, companyId)];
  if (q.status) conds.push(eq(toolActionRequests.status, q.status));
  if (q.issueId) conds.push(eq(toolActionRequests.issueId, q.issueId));
  if (q.runId) conds.push(eq(toolActionRequests.runId, q.runId));
  const rows = await ctx.db
    .select({
      ...publicColumns,
      // Names a person reads in the inbox (issue 21): the agent's name and the issue's key.
      agentName: agents.name,
      issueIdentifier: sql<string | null>`${companies.issuePrefix} || '-' || ${issues.number}`,
    })
    .from(toolActionRequests)
    .leftJoin(agents, companyRow(agents, toolActionRequests.companyId, toolActionRequests.agentId))
    .leftJoin(issues, companyRow(issues, toolActionRequests.companyId, toolActionRequests.issueId))
    .leftJoin(companies, eq(companies.id, issues.companyId))
    .where(and(...conds))
    .orderBy(desc(toolActionRequests.createdAt))
    .limit(q.limit);
  const now = ctx.now().getTime();
  // A pending request past its expiry is reported as expired even before anything touches it.
  return rows.map((r) =>
    r.status === "pending" && r.expiresAt.getTime() <= now ? { ...r, status: "expired" as const } : r,
  ) satisfies Served<typeof ActionRequestSchema>[];
}

export async function loadRequest(db: Db | Tx, companyId: string, id: string, lock = false) {
  const q = db
    .select()
    .from(toolActionRequests)
    .where(companyRow(toolActionRequests, companyId, id));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw notFound("action request");
  return row;
}

/** Reviews are made by people: a signed-in board member or a board key, never an agent. */
export async function requireReviewer(ctx: ServiceContext, companyId: string) {
  if (ctx.actor.type !== "user" && ctx.actor.type !== "board_key")
    throw forbidden("only a person can review a tool call");
  await requireCompany(ctx, companyId, "tools:approve", "action request");
}

export function stateError(r: ActionRequest, now: Date): ServiceError {
  if (r.status === "pending" && r.expiresAt.getTime() <= now.getTime())
    return conflict("approval_expired", "the request has expired");
  switch (r.status) {
    case "declined":
      return conflict("approval_declined", "the request was declined");
    case "expired":
      return conflict("approval_expired", "the request has expired");
    case "superseded":
      return conflict("approval_superseded", "a newer request from the same run replaced this one", {
        supersededById: r.supersededById,
      });
    case "executing":
      return conflict("invocation_in_progress", "the approved call is executing");
    case "executed":
      return conflict("approval_consumed", "the approved call has already run");
    case "failed":
      return conflict("approval_consumed", "the approved call already ran and failed");
    case "pending":
      return conflict("approval_pending", "the request has not been approved yet");
    default:
      return conflict("approval_invalid", `the request is \`${r.status}\``);
  }
}

/**
 * Writes a reviewer's decision on a request (locked by the caller): the request row, its
 * invocation (a declined one is `denied`), the issue card and the approval event.
 */
async function recordDecision(
  tx: Tx,
  ctx: ServiceContext,
  companyId: string,
  r: Awaited<ReturnType<typeof loadRequest>>,
  now: Date,
  decision: "approved" | "declined",
  note: string | undefined,
) {
  const userId = actorUserId(ctx.actor);
  await tx
    .update(toolActionRequests)
    .set({
      status: decision,
      decidedByUserId: userId,
      decidedAt: now,
      decisionNote: note ?? null,
      updatedAt: now,
    })
    .where(eq(toolActionRequests.id, r.id));
  await tx
    .update(toolInvocations)
    .set(
      decision === "approved"
        ? { approvalState: "approved", updatedAt: now }
        : {
            approvalState: "declined",
            // A call that may have reached the upstream keeps its state: declining stops it
            // running again, it does not say whether it ran (a person still resolves that).
            executionStatus: sql`case when ${outcomeUnknownSql()} then ${toolInvocations.executionStatus} else 'denied' end`,
            updatedAt: now,
          },
    )
    .where(companyRow(toolInvocations, companyId, r.invocationId));
  // The card names the person who decided (a board key's creator, not the key) and carries the
  // note of either decision: the thread reads "Approved by Ada: …" without another lookup.
  const [decider] = userId
    ? await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId))
    : [];
  await updateCard(tx, r, {
    status: decision,
    decidedAt: now.toISOString(),
    decidedByUserId: userId,
    decidedByName: decider ? (decider.name ?? decider.email) : null,
    note: note ?? null,
  });
  const approved = decision === "approved";
  await recordToolEvents(tx, [
    {
      companyId,
      eventType: approved ? "approval_accepted" : "approval_rejected",
      ...actorRef(ctx.actor),
      invocationId: r.invocationId,
      runId: r.runId,
      issueId: r.issueId,
      agentId: r.agentId,
      catalogEntryId: r.catalogEntryId,
      toolName: r.toolName,
      decision: approved ? "allow" : "deny",
      reasonCode: approved ? "approved" : "declined",
      actionRequestId: r.id,
      argsHash: r.argsHash,
    },
  ]);
}

/**
 * A reviewer's decision on a request, under its row lock. Deciding what already stands is a
 * no-op (idempotent); `refuse` throws for a request that cannot take the decision.
 */
async function decide<D extends "approved" | "declined">(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  decision: D,
  note: string | undefined,
  refuse: (tx: Tx, r: Awaited<ReturnType<typeof loadRequest>>, now: Date) => Promise<void>,
) {
  await requireReviewer(ctx, companyId);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const r = await loadRequest(tx, companyId, id, true);
    if (r.status === decision) return { id, status: decision };
    await refuse(tx, r, now);
    await recordDecision(tx, ctx, companyId, r, now, decision, note);
    return { id, status: decision };
  });
}

export const approveActionRequest = (ctx: ServiceContext, companyId: string, id: string, note?: string) =>
  decide(ctx, companyId, id, "approved", note, async (tx, r, now) => {
    if (r.status !== "pending" || r.expiresAt.getTime() <= now.getTime()) {
      if (r.status === "pending")
        await tx
          .update(toolActionRequests)
          .set({ status: "expired", updatedAt: now })
          .where(eq(toolActionRequests.id, id));
      throw stateError(r, now);
    }
  });

/**
 * Declining is possible until the call completed (issue 35 item 1): a pending or approved
 * request, and one whose call did not finish — left `executing` by a crash (its lease gone) or
 * `failed`. A call running under a live lease is in progress; one that succeeded was executed.
 */
export const declineActionRequest = (ctx: ServiceContext, companyId: string, id: string, note?: string) =>
  decide(ctx, companyId, id, "declined", note, async (tx, r, now) => {
    if (r.status === "pending" || r.status === "approved") return;
    if (r.status !== "executing" && r.status !== "failed") throw stateError(r, now);
    // A lease nobody renewed is swept first (audited), so the row says the outcome is unknown.
    await expireLeaseIfPast(tx, companyId, r.invocationId);
    const current = await currentExecution(tx, companyId, r.invocationId);
    if (current.leaseLive) throw stateError({ ...r, status: "executing" }, now);
    // Claimed a moment ago and not yet run: its executor is between the two claims.
    if (r.status === "executing" && notYetRun(current) && now.getTime() - r.updatedAt.getTime() < leaseMs())
      throw stateError(r, now);
    if (current.executionStatus === "succeeded") throw stateError({ ...r, status: "executed" }, now);
  });
