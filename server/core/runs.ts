import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { agents, companies, heartbeatRuns, issues, routines, toolGatewaySessions } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Run } from "@/server/contracts/api/core";
import type { RunDetail } from "@/server/contracts/api/records";
import { RUN_FINAL_STATUSES } from "@/server/contracts/values";
import { findCompanyRow } from "../access/rows";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { actorRef, type ServiceContext } from "../context";
import { conflict, notFound, ServiceError } from "../errors";
import { DEFAULT_SESSION_TTL_MINUTES, mintGatewaySession } from "../gateway/sessions";
import { stopRunSlots } from "../runtime";

export const StartRunInput = z.object({
  issueId: z.uuid().optional(),
  projectId: z.uuid().optional(),
  routineId: z.uuid().optional(),
});
export type StartRunInput = z.infer<typeof StartRunInput>;

export const FinishRunInput = z.object({
  status: z.enum(RUN_FINAL_STATUSES),
  error: z.string().max(2000).optional(),
});
export type FinishRunInput = z.infer<typeof FinishRunInput>;

export const ListRunsQuery = z.object({
  agentId: z.uuid().optional(),
  issueId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListRunsQuery = z.infer<typeof ListRunsQuery>;

const runSelect = {
  id: heartbeatRuns.id,
  companyId: heartbeatRuns.companyId,
  agentId: heartbeatRuns.agentId,
  agentName: agents.name,
  issueId: heartbeatRuns.issueId,
  issueIdentifier: sql<
    string | null
  >`case when ${issues.id} is null then null else ${companies.issuePrefix} || '-' || ${issues.number} end`,
  projectId: heartbeatRuns.projectId,
  routineId: heartbeatRuns.routineId,
  status: heartbeatRuns.status,
  error: heartbeatRuns.error,
  createdAt: heartbeatRuns.createdAt,
  startedAt: heartbeatRuns.startedAt,
  finishedAt: heartbeatRuns.finishedAt,
};

function runQuery(ctx: ServiceContext) {
  return ctx.db
    .select(runSelect)
    .from(heartbeatRuns)
    .innerJoin(companies, eq(companies.id, heartbeatRuns.companyId))
    .innerJoin(agents, companyRow(agents, heartbeatRuns.companyId, heartbeatRuns.agentId))
    .leftJoin(issues, companyRow(issues, heartbeatRuns.companyId, heartbeatRuns.issueId));
}

/**
 * The project a run (or a simulated call) works in: the given one, else the issue's, else the
 * routine's. The issue and routine must belong to the company (404 otherwise).
 */
export async function resolveRunProject(
  ctx: ServiceContext,
  companyId: string,
  input: { issueId?: string | null; projectId?: string | null; routineId?: string | null },
): Promise<string | null> {
  let projectId = input.projectId ?? null;
  if (input.issueId) {
    // Looked up even when a project is given: a foreign issue id is a 404 either way.
    const issue = await findCompanyRow(ctx.db, issues, companyId, input.issueId, "issue");
    projectId ??= issue.projectId;
  }
  if (input.routineId) {
    const routine = await findCompanyRow(ctx.db, routines, companyId, input.routineId, "routine");
    projectId ??= routine.projectId;
  }
  return projectId;
}

/** Board member (runs:manage) of the run's company, or the run's own agent; else 404. */
async function authorizeRunAccess(ctx: ServiceContext, companyId: string, agentId: string, write: boolean) {
  if (ctx.actor.type === "agent_key") {
    if (ctx.actor.companyId !== companyId || ctx.actor.agentId !== agentId) throw notFound("run");
    return;
  }
  await requireCompany(ctx, companyId, write ? "runs:manage" : "company:read", "run");
}

const scopeForbidden = (message: string) => new ServiceError("run_scope_forbidden", message);

/**
 * An agent key starts runs only for its own work, so the gateway scope a run carries (and the
 * issue/routine/project profiles it grants) always matches work the agent owns: an issue
 * assigned to it, a routine of its own, and a project only as the project of that issue or
 * routine. The model has no agent-to-project membership, so an unassigned issue (or a bare
 * project) is not the agent's work: a board member assigns it first. Board actors start any.
 */
async function requireOwnWork(ctx: ServiceContext, companyId: string, agentId: string, input: StartRunInput) {
  let derivedProject: string | null = null;
  if (input.issueId) {
    const [issue] = await ctx.db
      .select({ assignee: issues.assigneeAgentId, projectId: issues.projectId })
      .from(issues)
      .where(companyRow(issues, companyId, input.issueId));
    if (!issue) throw notFound("issue");
    if (issue.assignee !== agentId) throw scopeForbidden("the issue is not assigned to this agent");
    derivedProject = issue.projectId;
  }
  if (input.routineId) {
    const [routine] = await ctx.db
      .select({ agentId: routines.agentId, projectId: routines.projectId })
      .from(routines)
      .where(companyRow(routines, companyId, input.routineId));
    if (!routine) throw notFound("routine");
    if (routine.agentId !== agentId) throw scopeForbidden("the routine belongs to another agent");
    derivedProject ??= routine.projectId;
  }
  if (input.projectId && input.projectId !== derivedProject)
    throw scopeForbidden(
      "an agent starts project runs only through its own issue or routine of that project",
    );
}

/**
 * Starts a heartbeat run for an agent: by a board member, or by the agent's own key. The
 * issue, project and routine must belong to the agent's company (composite FKs enforce it);
 * a run on an issue inherits the issue's project, a routine run its routine's project.
 */
export async function startRun(ctx: ServiceContext, agentId: string, input: StartRunInput) {
  const [agent] = await ctx.db
    .select({ id: agents.id, companyId: agents.companyId, status: agents.status })
    .from(agents)
    .where(eq(agents.id, agentId));
  if (!agent) throw notFound("agent");
  if (ctx.actor.type === "agent_key") {
    if (ctx.actor.companyId !== agent.companyId || ctx.actor.agentId !== agent.id) throw notFound("agent");
  } else {
    await requireCompany(ctx, agent.companyId, "runs:manage", "agent");
  }
  if (agent.status !== "active") throw conflict("agent_not_active", `the agent is \`${agent.status}\``);
  const companyId = agent.companyId;
  if (ctx.actor.type === "agent_key") {
    await requireOwnWork(ctx, companyId, agentId, input).catch(async (err) => {
      if ((err as ServiceError).code === "run_scope_forbidden")
        await logActivity(ctx.db, ctx, {
          companyId,
          action: "run.start_denied",
          entityType: "agent",
          entityId: agentId,
          details: { ...input, code: "run_scope_forbidden" },
        }).catch(() => {});
      throw err;
    });
  }
  const projectId = await resolveRunProject(ctx, companyId, input);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const { actorType, actorId } = actorRef(ctx.actor);
    const [run] = await tx
      .insert(heartbeatRuns)
      .values({
        companyId,
        agentId,
        issueId: input.issueId ?? null,
        projectId,
        routineId: input.routineId ?? null,
        status: "running",
        startedByActorType: actorType,
        startedByActorId: actorId,
        startedAt: now,
      })
      .returning({ id: heartbeatRuns.id });
    await logActivity(tx, ctx, {
      companyId,
      action: "run.start",
      entityType: "heartbeat_run",
      entityId: run!.id,
      details: { agentId, issueId: input.issueId ?? null, projectId, routineId: input.routineId ?? null },
    });
    const [created] = await runQuery({ ...ctx, db: tx as typeof ctx.db }).where(
      eq(heartbeatRuns.id, run!.id),
    );
    // The run starts with its gateway session: the adapter gets the gateway's MCP config and
    // a short-lived token, never an upstream URL or credential.
    const gateway = await mintGatewaySession(tx, ctx, created!, DEFAULT_SESSION_TTL_MINUTES);
    return { ...created!, gateway };
  });
}

/**
 * Finishes a run once: a conditional update from queued/running, so two finishers cannot both
 * win. Every gateway session of the run is revoked in the same transaction.
 */
export async function finishRun(ctx: ServiceContext, runId: string, input: FinishRunInput) {
  const [run] = await ctx.db
    .select({ companyId: heartbeatRuns.companyId, agentId: heartbeatRuns.agentId })
    .from(heartbeatRuns)
    .where(eq(heartbeatRuns.id, runId));
  if (!run) throw notFound("run");
  await authorizeRunAccess(ctx, run.companyId, run.agentId, true);
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(heartbeatRuns)
      .set({ status: input.status, finishedAt: now, error: input.error ?? null })
      .where(
        inCompany(
          heartbeatRuns,
          run.companyId,
          eq(heartbeatRuns.id, runId),
          inArray(heartbeatRuns.status, ["queued", "running"]),
        ),
      )
      .returning({ id: heartbeatRuns.id });
    if (!updated) throw conflict("run_already_finished", "the run has already finished");
    await tx
      .update(toolGatewaySessions)
      .set({ revokedAt: now, revokedReason: "run_finished" })
      .where(
        inCompany(
          toolGatewaySessions,
          run.companyId,
          eq(toolGatewaySessions.runId, runId),
          isNull(toolGatewaySessions.revokedAt),
        ),
      );
    await logActivity(tx, ctx, {
      companyId: run.companyId,
      action: "run.finish",
      entityType: "heartbeat_run",
      entityId: runId,
      details: { status: input.status },
    });
    const [finished] = await runQuery({ ...ctx, db: tx as typeof ctx.db }).where(eq(heartbeatRuns.id, runId));
    return finished!;
  });
  // A finished run's per-run runtime slots stop (best effort; idle TTL catches the rest).
  void stopRunSlots(runId).catch(() => {});
  return result;
}

export async function getRun(ctx: ServiceContext, runId: string) {
  const [run] = await runQuery(ctx).where(eq(heartbeatRuns.id, runId));
  if (!run) throw notFound("run");
  await authorizeRunAccess(ctx, run.companyId, run.agentId, false);
  return run satisfies Served<typeof RunDetail>;
}

export async function listRuns(ctx: ServiceContext, companyId: string, query: ListRunsQuery) {
  await requireCompany(ctx, companyId, "company:read");
  const conds = [eq(heartbeatRuns.companyId, companyId)];
  if (query.agentId) conds.push(eq(heartbeatRuns.agentId, query.agentId));
  if (query.issueId) conds.push(eq(heartbeatRuns.issueId, query.issueId));
  const rows = await runQuery(ctx)
    .where(and(...conds))
    .orderBy(desc(heartbeatRuns.createdAt))
    .limit(query.limit);
  return rows satisfies Served<typeof Run>[];
}
