import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolInvocations, toolResultArtifacts } from "@/db/schema";
import { recordToolEvents } from "../audit/record-event";
import { notFound } from "../errors";
import type { GatewayContext } from "./sessions";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Refuses a lookup with 404 — the same answer for a malformed id, an unknown one, and one of
 * another run or company — and puts the refusal on the session's audit trail (an agent
 * probing for other runs' invocations is worth an operator's attention).
 */
async function refuseLookup(
  db: Db,
  gw: GatewayContext,
  cause: "malformed_id" | "not_in_run",
): Promise<never> {
  await recordToolEvents(db, [
    {
      companyId: gw.companyId,
      eventType: "decision",
      actorType: "gateway_session",
      actorId: gw.sessionId,
      sessionId: gw.sessionId,
      runId: gw.runId,
      agentId: gw.agentId,
      issueId: gw.issueId,
      projectId: gw.projectId,
      routineId: gw.routineId,
      decision: "deny",
      reasonCode: "invocation_not_found",
      errorClass: cause,
    },
  ]).catch(() => {});
  throw notFound("invocation");
}

/** An invocation of this session's run (anything else is 404), with its artifact ids. */
export async function getSessionInvocation(db: Db, gw: GatewayContext, invocationId: string) {
  if (!UUID.test(invocationId)) return refuseLookup(db, gw, "malformed_id");
  const [inv] = await db
    .select({
      id: toolInvocations.id,
      toolName: toolInvocations.toolName,
      decision: toolInvocations.decision,
      reasonCode: toolInvocations.reasonCode,
      approvalState: toolInvocations.approvalState,
      executionStatus: toolInvocations.executionStatus,
      resultSummary: toolInvocations.resultSummary,
      resultSize: toolInvocations.resultSize,
      errorCode: toolInvocations.errorCode,
      latencyMs: toolInvocations.latencyMs,
      attempts: toolInvocations.attempts,
      createdAt: toolInvocations.createdAt,
      completedAt: toolInvocations.completedAt,
    })
    .from(toolInvocations)
    .where(
      and(
        eq(toolInvocations.companyId, gw.companyId),
        eq(toolInvocations.runId, gw.runId),
        eq(toolInvocations.id, invocationId),
      ),
    );
  if (!inv) return refuseLookup(db, gw, "not_in_run");
  const artifacts = await db
    .select({ id: toolResultArtifacts.id, bytes: toolResultArtifacts.bytes })
    .from(toolResultArtifacts)
    .where(
      and(eq(toolResultArtifacts.companyId, gw.companyId), eq(toolResultArtifacts.invocationId, inv.id)),
    );
  return { ...inv, artifacts };
}
