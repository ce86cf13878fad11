/**
 * The heartbeat queue: assigning an issue to an agent, or moving an assigned issue into a
 * runnable status (server/core/issue-transitions.ts), queues a heartbeat run for the assignee.
 * Creating work is not proof that an agent started it: the run stays `queued` until a runner
 * picks it up (server/core/runs.ts).
 */
import { and, eq, ne, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import { heartbeatRuns } from "@/db/schema";
import type { IssueStatus } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import { actorRef, type ServiceContext } from "../context";
import { isRunnable } from "./issue-transitions";

export interface SchedulableIssue {
  companyId: string;
  id: string;
  status: IssueStatus;
  assigneeAgentId?: string | null;
  projectId: string | null;
}

/**
 * Queues one heartbeat run for the issue's assignee when the issue is runnable and the agent is
 * active, unless a run of the issue is already queued or running; returns the new run's id (or
 * null). Call inside the change's transaction. A queued run of another agent (the previous
 * assignee) is cancelled first.
 *
 * INVARIANT: at most one queued run per issue. Concurrent callers race on the partial unique
 * index `heartbeat_runs_issue_queued_uq` (db/schema/core.ts): the loser's insert does nothing.
 */
export async function queueIssueHeartbeat(
  tx: Tx,
  ctx: ServiceContext,
  issue: SchedulableIssue,
): Promise<string | null> {
  const agentId = issue.assigneeAgentId;
  if (!agentId || !isRunnable(issue.status)) return null;
  const now = ctx.now();
  await tx
    .update(heartbeatRuns)
    .set({ status: "cancelled", finishedAt: now, error: "the issue was reassigned" })
    .where(
      inCompany(
        heartbeatRuns,
        issue.companyId,
        and(
          eq(heartbeatRuns.issueId, issue.id),
          eq(heartbeatRuns.status, "queued"),
          ne(heartbeatRuns.agentId, agentId),
        ),
      ),
    );
  const { actorType, actorId } = actorRef(ctx.actor);
  const rows = (await tx.execute(sql`
    insert into heartbeat_runs
      (company_id, agent_id, issue_id, project_id, status, started_by_actor_type, started_by_actor_id)
    select ${issue.companyId}, a.id, ${issue.id}, ${issue.projectId}, 'queued', ${actorType}, ${actorId}
    from agents a
    where a.company_id = ${issue.companyId} and a.id = ${agentId} and a.status = 'active'
      and not exists (
        select 1 from heartbeat_runs r
        where r.company_id = ${issue.companyId} and r.issue_id = ${issue.id}
          and r.status in ('queued', 'running'))
    on conflict do nothing
    returning id`)) as unknown as { id: string }[];
  const runId = rows[0]?.id ?? null;
  if (runId)
    await logActivity(tx, ctx, {
      companyId: issue.companyId,
      action: "issue.run_queued",
      entityType: "issue",
      entityId: issue.id,
      details: { runId, agentId },
    });
  return runId;
}

/**
 * Cancels the issue's queued (not yet started) runs when it stops being work for an agent:
 * finished, cancelled, blocked or unassigned. A running run is left to finish; it reads the
 * issue's current state. Call inside the change's transaction.
 */
export async function cancelQueuedIssueRuns(
  tx: Tx,
  ctx: ServiceContext,
  issue: { companyId: string; id: string },
  reason: string,
): Promise<number> {
  const cancelled = await tx
    .update(heartbeatRuns)
    .set({ status: "cancelled", finishedAt: ctx.now(), error: reason })
    .where(
      inCompany(
        heartbeatRuns,
        issue.companyId,
        and(eq(heartbeatRuns.issueId, issue.id), eq(heartbeatRuns.status, "queued")),
      ),
    )
    .returning({ id: heartbeatRuns.id });
  return cancelled.length;
}
