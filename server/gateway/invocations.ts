import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolInvocations, toolResultArtifacts } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { GatewayInvocation } from "@/server/contracts/api/gateway";
import { notFound } from "../errors";
import type { GatewayContext } from "./sessions";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An invocation of this session's run, with its artifact ids. A malformed id, an unknown one
 * and one of another run or company are the same 404 (audited by the route wrapper).
 */
export async function getSessionInvocation(db: Db, gw: GatewayContext, invocationId: string) {
  if (!UUID.test(invocationId)) throw notFound("invocation");
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
  if (!inv) throw notFound("invocation");
  const artifacts = await db
    .select({ id: toolResultArtifacts.id, bytes: toolResultArtifacts.bytes })
    .from(toolResultArtifacts)
    .where(
      and(
        eq(toolResultArtifacts.companyId, gw.companyId),
        eq(toolResultArtifacts.invocationId, inv.id),
        gt(toolResultArtifacts.expiresAt, sql`now()`),
      ),
    );
  return { ...inv, artifacts } satisfies Served<typeof GatewayInvocation>;
}
