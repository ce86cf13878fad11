import { asc, eq } from "drizzle-orm";
import { companyRow, inCompany } from "@/db/join";
import { heartbeatRuns, toolInvocations } from "@/db/schema";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";

/**
 * A run's tool calls, oldest first, as summarised decision/outcome state (members may read
 * it; the audit details behind each call stay behind `tools:view_audit`).
 */
export async function getRunTranscript(ctx: ServiceContext, companyId: string, runId: string) {
  await requireCompany(ctx, companyId, "company:read", "run");
  const [run] = await ctx.db
    .select({ id: heartbeatRuns.id })
    .from(heartbeatRuns)
    .where(companyRow(heartbeatRuns, companyId, runId));
  if (!run) throw notFound("run");
  return ctx.db
    .select({
      id: toolInvocations.id,
      createdAt: toolInvocations.createdAt,
      toolName: toolInvocations.toolName,
      decision: toolInvocations.decision,
      reasonCode: toolInvocations.reasonCode,
      executionStatus: toolInvocations.executionStatus,
      errorCode: toolInvocations.errorCode,
      latencyMs: toolInvocations.latencyMs,
      resultSize: toolInvocations.resultSize,
      attempts: toolInvocations.attempts,
    })
    .from(toolInvocations)
    .where(inCompany(toolInvocations, companyId, eq(toolInvocations.runId, runId)))
    .orderBy(asc(toolInvocations.createdAt))
    .limit(500);
}
