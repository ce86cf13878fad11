import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { heartbeatRuns, toolActionRequests, toolInvocations, toolResultArtifacts } from "@/db/schema";
import { decide } from "../access/decide";
import { getAccessSnapshot } from "../access/snapshot";
import { recordToolEvents } from "../audit/record-event";
import { actorRef, type ServiceContext } from "../context";
import { type ExecContext, execContextOf, executeInvocation } from "../gateway/execute";
import {
  type ExecOutcome,
  type GatewayCallInput,
  type GatewayCallOutcome,
  type OutcomeCode,
  refused,
  refusedBy,
} from "../gateway/outcome";
import type { GatewayContext } from "../gateway/sessions";
import { canonicalHash, canonicalJson } from "../ledger/canonical";
import { reviewedArgsOf } from "../secrets/reviewed-args";
import { type ActionRequest, signedFields, updateCard } from "./action-requests";
import { loadRequest, requireReviewer, stateError } from "./review";
import { verifyActionRequest } from "./signing";

/** The result recorded for an executed request (replayed to the agent's retry). */
async function recordedResult(db: Db, r: ActionRequest): Promise<GatewayCallOutcome> {
  const [artifact] = await db
    .select({ content: toolResultArtifacts.content })
    .from(toolResultArtifacts)
    .where(inCompany(toolResultArtifacts, r.companyId, eq(toolResultArtifacts.invocationId, r.invocationId)))
    .orderBy(desc(toolResultArtifacts.createdAt))
    .limit(1);
  const [inv] = await db
    .select({
      executionStatus: toolInvocations.executionStatus,
      resultSummary: toolInvocations.resultSummary,
      errorCode: toolInvocations.errorCode,
    })
    .from(toolInvocations)
    .where(companyRow(toolInvocations, r.companyId, r.invocationId));
  if (r.status === "failed" || inv?.executionStatus !== "succeeded") {
    return refused("approval_consumed", `the approved call already ran and ${inv?.errorCode ?? "failed"}`, {
      invocationId: r.invocationId,
    });
  }
  const result = artifact
    ? (JSON.parse(artifact.content) as { content: unknown[]; structuredContent?: Record<string, unknown> })
    : null;
  return {
    ok: true,
    invocationId: r.invocationId,
    replayed: true,
    result: result ?? {
      content: [{ type: "text", text: "The approved call ran; this is its recorded outcome." }],
      structuredContent: { replayed: true, result: inv?.resultSummary ?? null },
    },
  };
}

/**
 * Runs the stored, reviewed arguments of an approved request exactly once: the signature is
 * verified first, the tool's schema must be unchanged, the engine must still permit the call,
 * and the conditional update `approved → executing` lets exactly one of any number of
 * concurrent executors (people or the agent's retries) through.
 */
async function runApproved(
  db: Db,
  r: ActionRequest,
  ex: ExecContext,
  now: Date,
): Promise<GatewayCallOutcome> {
  // Decrypted once: what the signature covers is exactly what runs.
  const reviewed = reviewedArgsOf(r);
  if (reviewed === undefined || !verifyActionRequest(signedFields(r), r.signature, r.signatureKeyId)) {
    await recordToolEvents(db, [
      {
        companyId: r.companyId,
        eventType: "decision",
        actorType: ex.actorType,
        actorId: ex.actorId,
        invocationId: r.invocationId,
        runId: r.runId,
        issueId: r.issueId,
        agentId: r.agentId,
        toolName: r.toolName,
        decision: "deny",
        reasonCode: "approval_signature_invalid",
        actionRequestId: r.id,
      },
    ]);
    return refused(
      "approval_signature_invalid",
      "the stored request does not match its signature; it was not run",
    );
  }
  if (r.expiresAt.getTime() <= now.getTime()) return refused("approval_expired", "the request has expired");
  // Re-decide with the approval in hand: a block, a quarantine, a disabled connection or a
  // changed schema since the request was made all stop it.
  const snapshot = await getAccessSnapshot(db, r.companyId);
  const d = decide(snapshot, {
    purpose: "call",
    context: {
      companyId: r.companyId,
      agentId: r.agentId!,
      runId: r.runId,
      issueId: r.issueId,
      projectId: ex.projectId,
      routineId: ex.routineId,
      sessionValid: true,
    },
    target: { catalogEntryId: r.catalogEntryId },
    arguments: reviewed,
    approvalVerified: true,
    now: now.toISOString(),
  });
  if (d.target && d.target.schemaHash !== r.schemaHash) {
    return refused(
      "approval_schema_changed",
      "the tool's schema changed since the request was made; it was not run",
    );
  }
  if (!d.allowed) {
    return refused(
      "approval_no_longer_allowed",
      `the call is no longer permitted (${d.reasonCode}); it was not run`,
    );
  }
  const claimed = await db
    .update(toolActionRequests)
    .set({ status: "executing", updatedAt: now })
    .where(
      inCompany(
        toolActionRequests,
        r.companyId,
        eq(toolActionRequests.id, r.id),
        eq(toolActionRequests.status, "approved"),
      ),
    )
    .returning({ id: toolActionRequests.id });
  if (claimed.length === 0) {
    const current = await loadRequest(db, r.companyId, r.id);
    if (current.status === "executed" || current.status === "failed") return recordedResult(db, current);
    return refusedBy(stateError(current, now));
  }
  const outcome = await executeInvocation(
    db,
    ex,
    { id: r.invocationId, argsHash: r.argsHash, executionStatus: "awaiting_approval" },
    d,
    canonicalJson(reviewed),
    {
      approved: true,
      actionRequestId: r.id,
    },
  );
  await db.transaction(async (tx) => {
    if (outcome.ok && outcome.resultJson) {
      await tx.insert(toolResultArtifacts).values({
        companyId: r.companyId,
        invocationId: r.invocationId,
        content: outcome.resultJson,
        bytes: Buffer.byteLength(outcome.resultJson, "utf8"),
        sha256: canonicalHash(outcome.resultJson),
      });
    }
    const status = outcome.ok ? "executed" : "failed";
    await tx
      .update(toolActionRequests)
      .set({ status, executedAt: now, executionInvocationId: r.invocationId, updatedAt: now })
      .where(eq(toolActionRequests.id, r.id));
    await updateCard(tx, r, {
      status,
      executedAt: now.toISOString(),
      ...(outcome.ok ? {} : { error: outcome.code }),
    });
  });
  const { resultJson: _json, ...rest }: ExecOutcome = outcome;
  return rest;
}

/** `POST …/action-requests/:id/execute` by a person. */
export async function executeActionRequest(ctx: ServiceContext, companyId: string, id: string) {
  await requireReviewer(ctx, companyId);
  const r = await loadRequest(ctx.db, companyId, id);
  if (r.status === "executed" || r.status === "failed") return recordedResult(ctx.db, r);
  if (r.status !== "approved") throw stateError(r, ctx.now());
  const { actorType, actorId } = actorRef(ctx.actor);
  const [run] = await ctx.db
    .select({ projectId: heartbeatRuns.projectId, routineId: heartbeatRuns.routineId })
    .from(heartbeatRuns)
    .where(inCompany(heartbeatRuns, companyId, eq(heartbeatRuns.id, r.runId!)));
  return runApproved(
    ctx.db,
    r,
    {
      companyId,
      agentId: r.agentId!,
      runId: r.runId!,
      issueId: r.issueId,
      projectId: run?.projectId ?? null,
      routineId: run?.routineId ?? null,
      sessionId: null,
      actorType,
      actorId,
    },
    ctx.now(),
  );
}

/**
 * The agent's retry with `approvedActionRequestId`: it may consume only its own run's request
 * for exactly the same tool and canonical arguments; each mismatch has its own code.
 */
export async function consumeApprovalForAgent(
  db: Db,
  gw: GatewayContext,
  input: GatewayCallInput,
  now: Date,
): Promise<GatewayCallOutcome> {
  const [r] = await db
    .select()
    .from(toolActionRequests)
    .where(
      inCompany(toolActionRequests, gw.companyId, eq(toolActionRequests.id, input.approvedActionRequestId!)),
    );
  const refuse = (code: OutcomeCode, message: string): GatewayCallOutcome =>
    refused(code, message, { actionRequestId: r?.id ?? null });
  if (!r) return refuse("approval_not_found", "no such action request");
  if (r.runId !== gw.runId || r.agentId !== gw.agentId)
    return refuse("approval_wrong_run", "the request belongs to another run or agent");
  if (r.toolName !== input.tool)
    return refuse("approval_tool_mismatch", "the request approved a different tool");
  let argsHash: string;
  try {
    argsHash = canonicalHash(input.arguments ?? {});
  } catch {
    return refuse("approval_arguments_mismatch", "the arguments differ from the approved ones");
  }
  if (argsHash !== r.argsHash)
    return refuse("approval_arguments_mismatch", "the arguments differ from the approved ones");
  if (r.status === "executed" || r.status === "failed") return recordedResult(db, r);
  if (r.status !== "approved") {
    return refusedBy(stateError(r, now), { actionRequestId: r.id });
  }
  return runApproved(db, r, execContextOf(gw), now);
}
