/**
 * Changing an issue after it was created: edits, assignment, status transitions (the table in
 * ./issue-transitions.ts), finishing and blocking, and the issue's history. Every change runs
 * in one transaction with its activity row, on the issue row locked `FOR UPDATE`, so two
 * concurrent changes see each other's result; assignment and wake-ups queue heartbeat runs
 * (./scheduling.ts).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { inCompany } from "@/db/join";
import { activityLog, agents, boardApiKeys, issueComments, issues, projects, users } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { IssueHistoryResponse } from "@/server/contracts/api/work";
import { ISSUE_STATUSES, type IssueStatus } from "@/server/contracts/values";
import { findCompanyRow, lockCompanyRow } from "../access/rows";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { type Actor, actorUserId, type ServiceContext } from "../context";
import { conflict } from "../errors";
import { allowedTransitions, canTransition, isRunnable } from "./issue-transitions";
import { issueQuery, loadIssueFor } from "./issues";
import { cancelQueuedIssueRuns, queueIssueHeartbeat } from "./scheduling";

export const UpdateIssueInput = z
  .strictObject({
    title: z.string().trim().min(1).max(300).optional(),
    body: z.string().max(100_000).optional(),
    status: z.enum(ISSUE_STATUSES).optional(),
    /** null unassigns. */
    assigneeAgentId: z.uuid().nullable().optional(),
    /** null removes the project. */
    projectId: z.uuid().nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "nothing to change" });
export type UpdateIssueInput = z.infer<typeof UpdateIssueInput>;

export const FinishIssueInput = z.strictObject({
  summary: z.string().trim().min(1).max(10_000).optional(),
});
export type FinishIssueInput = z.infer<typeof FinishIssueInput>;

export const BlockIssueInput = z.strictObject({
  reason: z.string().trim().min(1).max(2_000),
});
export type BlockIssueInput = z.infer<typeof BlockIssueInput>;

/** Board users and keys (and the system) are people for the transition table; agents are not. */
export const isPerson = (actor: Actor): boolean =>
  actor.type === "user" || actor.type === "board_key" || actor.type === "system";

/** The author columns of what the actor writes (a comment, a document revision). */
export function authorOf(actor: Actor): { userId: string | null; agentId: string | null } {
  if (actor.type === "agent" || actor.type === "agent_key") return { userId: null, agentId: actor.agentId };
  return { userId: actorUserId(actor), agentId: null };
}

/** The issue for a write: a member with `work:write` of its company (else 404 / 403). */
export async function loadIssueForWrite(ctx: ServiceContext, issueId: string) {
  const issue = await loadIssueFor(ctx, issueId);
  await requireCompany(ctx, issue.companyId, "work:write", "issue");
  return issue;
}

interface Change extends Omit<UpdateIssueInput, "status"> {
  status?: IssueStatus;
  blockedReason?: string;
}

/** The one write path of every issue change (edit, finish, block). */
async function changeIssue(
  ctx: ServiceContext,
  issueId: string,
  change: Change,
  activity: { action: string; comment?: string; details?: Record<string, unknown> },
) {
  const loaded = await loadIssueForWrite(ctx, issueId);
  const companyId = loaded.companyId;
  const result = await ctx.db.transaction(async (tx) => {
    const current = await lockCompanyRow(tx, issues, companyId, issueId, "issue");
    const from = current.status;
    const to = change.status ?? from;
    if (!canTransition(from, to, isPerson(ctx.actor)))
      throw conflict("invalid_transition", `a task in \`${from}\` cannot move to \`${to}\``, {
        from,
        to,
        allowed: [...allowedTransitions(from, isPerson(ctx.actor))],
      });
    if (change.assigneeAgentId) await findCompanyRow(tx, agents, companyId, change.assigneeAgentId, "agent");
    if (change.projectId) await findCompanyRow(tx, projects, companyId, change.projectId, "project");
    const now = ctx.now();
    const set: Partial<typeof issues.$inferInsert> = { updatedAt: now };
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    const note = <K extends "title" | "status" | "assigneeAgentId" | "projectId">(k: K) => {
      const next = k === "status" ? to : change[k as Exclude<K, "status">];
      if (next === undefined || next === current[k]) return;
      (set as Record<string, unknown>)[k] = next;
      changed[k] = { from: current[k], to: next };
    };
    note("title");
    note("status");
    note("assigneeAgentId");
    note("projectId");
    if (change.body !== undefined && change.body !== current.body) {
      set.body = change.body;
      changed.body = { from: current.body.length, to: change.body.length };
    }
    if (to === "done" && from !== "done") set.completedAt = now;
    if (from === "done" && to !== "done") set.completedAt = null;
    if (to === "blocked") set.blockedReason = change.blockedReason ?? current.blockedReason;
    else if (from === "blocked") set.blockedReason = null;
    await tx
      .update(issues)
      .set(set)
      .where(inCompany(issues, companyId, eq(issues.id, issueId)));
    if (activity.comment) {
      const author = authorOf(ctx.actor);
      await tx.insert(issueComments).values({
        companyId,
        issueId,
        authorType: author.agentId ? "agent" : author.userId ? "user" : "system",
        authorUserId: author.userId,
        authorAgentId: author.agentId,
        kind: "event",
        body: activity.comment,
        payload: { event: activity.action, status: to },
      });
    }
    await logActivity(tx, ctx, {
      companyId,
      action: activity.action,
      entityType: "issue",
      entityId: issueId,
      details: { changes: changed, ...(activity.details ?? {}) },
    });
    const assignee = change.assigneeAgentId !== undefined ? change.assigneeAgentId : current.assigneeAgentId;
    const wake =
      (changed.assigneeAgentId !== undefined && !!assignee) ||
      (changed.status !== undefined && !isRunnable(from) && isRunnable(to));
    // No longer work for an agent (finished, cancelled, blocked, unassigned): a run that has
    // not started would only wake the agent for nothing.
    if (
      (changed.status !== undefined && !isRunnable(to)) ||
      (changed.assigneeAgentId !== undefined && !assignee)
    )
      await cancelQueuedIssueRuns(
        tx,
        ctx,
        { companyId, id: issueId },
        `the issue is ${assignee ? to : "unassigned"}`,
      );
    const queuedRunId = wake
      ? await queueIssueHeartbeat(tx, ctx, {
          companyId,
          id: issueId,
          status: to,
          assigneeAgentId: assignee,
          projectId: change.projectId !== undefined ? change.projectId : current.projectId,
        })
      : null;
    const [updated] = await issueQuery({ ...ctx, db: tx as typeof ctx.db }).where(eq(issues.id, issueId));
    return { ...updated!, changed: Object.keys(changed), queuedRunId };
  });
  return result;
}

/**
 * Edits an issue: title, body, status (per the transition table), assignee, project. Blocking
 * needs a reason (`blockIssue`). Assigning an agent, or waking an assigned issue, queues a run.
 */
export async function updateIssue(ctx: ServiceContext, issueId: string, input: UpdateIssueInput) {
  if (input.status === "blocked")
    throw conflict("invalid_transition", "block the task with a reason (the block action)", {
      to: "blocked",
    });
  return changeIssue(ctx, issueId, input, { action: "issue.update" });
}

/** Moves an issue to `done`, with an optional summary posted to its thread. */
export async function finishIssue(ctx: ServiceContext, issueId: string, input: FinishIssueInput) {
  return changeIssue(
    ctx,
    issueId,
    { status: "done" },
    {
      action: "issue.finish",
      comment: input.summary ? `Finished: ${input.summary}` : "Finished",
      details: input.summary ? { summary: input.summary } : {},
    },
  );
}

/** Moves an issue to `blocked`; the reason is kept on the issue and posted to its thread. */
export async function blockIssue(ctx: ServiceContext, issueId: string, input: BlockIssueInput) {
  return changeIssue(
    ctx,
    issueId,
    { status: "blocked", blockedReason: input.reason },
    { action: "issue.block", comment: `Blocked: ${input.reason}`, details: { reason: input.reason } },
  );
}

export const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

/**
 * The issue's history, newest first and bounded: its activity rows (edits, transitions,
 * comments, documents, deliverables, queued runs) naming the person or agent and, for a
 * person acting through an assistant connection, the client ("via Claude").
 */
export async function issueHistory(
  ctx: ServiceContext,
  issueId: string,
  query: HistoryQuery = { limit: 50 },
) {
  const issue = await loadIssueFor(ctx, issueId);
  const rows = await ctx.db
    .select({
      id: activityLog.id,
      action: activityLog.action,
      actorType: activityLog.actorType,
      actorId: activityLog.actorId,
      actorName: sql<string>`coalesce(${agents.name}, ${users.name}, ${users.email}, 'board key ' || ${boardApiKeys.name}, ${activityLog.actorType})`,
      details: activityLog.details,
      createdAt: activityLog.createdAt,
    })
    .from(activityLog)
    .leftJoin(users, sql`${activityLog.actorType} = 'user' and ${users.id}::text = ${activityLog.actorId}`)
    .leftJoin(
      boardApiKeys,
      sql`${activityLog.actorType} = 'board_key' and ${boardApiKeys.companyId} = ${activityLog.companyId} and ${boardApiKeys.id}::text = ${activityLog.actorId}`,
    )
    .leftJoin(
      agents,
      sql`${activityLog.actorType} = 'agent' and ${agents.companyId} = ${activityLog.companyId} and ${agents.id}::text = ${activityLog.actorId}`,
    )
    .where(
      and(
        eq(activityLog.companyId, issue.companyId),
        eq(activityLog.entityType, "issue"),
        eq(activityLog.entityId, issue.id),
      ),
    )
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(query.limit);
  return {
    issueId: issue.id,
    identifier: issue.identifier,
    events: rows.map(({ details, ...row }) => {
      const { via, ...rest } = details as { via?: { clientName?: string | null; grantId?: string } };
      return {
        ...row,
        via: via ? { clientName: via.clientName ?? null, grantId: via.grantId ?? null } : null,
        details: rest,
      };
    }),
  } satisfies Served<typeof IssueHistoryResponse>;
}
