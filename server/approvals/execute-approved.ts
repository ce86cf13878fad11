import { desc, eq, lte, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { heartbeatRuns, toolActionRequests, toolInvocations, toolResultArtifacts } from "@/db/schema";
import { decide } from "../access/decide";
import { getAccessSnapshot } from "../access/snapshot";
import { type DecisionValue, recordToolEvents } from "../audit/record-event";
import { actorRef, type ServiceContext } from "../context";
import { storableText } from "../contracts/json-shape";
import { recordThroughOutage } from "../database/record-through";
import { type ExecContext, execContextOf, executeInvocation } from "../gateway/execute";
import {
  type ExecOutcome,
  type GatewayCallInput,
  type GatewayCallOutcome,
  inProgressRefusal,
  type OutcomeCode,
  refused,
  refusedBy,
  replayedOutcome,
  replayNotice,
  unclaimedRefusal,
} from "../gateway/outcome";
import type { GatewayContext } from "../gateway/sessions";
import { canonicalHash, canonicalJson } from "../ledger/canonical";
import { currentExecution, notYetRun } from "../ledger/invocations";
import { leaseMs, recordingDeadlineMs } from "../ledger/lease";
import { logError } from "../log";
import { reviewedArgsOf } from "../secrets/reviewed-args";
import { type ActionRequest, signedFields, updateCard } from "./action-requests";
import { loadRequest, requireReviewer, stateError } from "./review";
import { verifyActionRequest } from "./signing";

/**
 * The answer recorded for an executed request (replayed to a retry): the first answer as kept
 * on the ledger row (encrypted, `server/secrets/replay-result.ts`); requests executed before
 * results were kept answer with the copy stored as an artifact then, or the summary.
 */
async function recordedResult(db: Db, r: ActionRequest): Promise<GatewayCallOutcome> {
  const current = await currentExecution(db, r.companyId, r.invocationId);
  if (r.status === "executing") {
    // Between the request's claim and the invocation's, and after a failure that never
    // reached the upstream until the request is approved again, the winner is still at work:
    // in progress (retryable), never "outcome unknown" (issue 35 item 3).
    if (notYetRun(current)) return inProgressRefusal(r.invocationId);
    return unclaimedRefusal(current, "approved_call");
  }
  if (r.status === "failed" || current.executionStatus !== "succeeded") {
    return refused(
      "approval_consumed",
      `the approved call already ran and ${current.errorCode ?? "failed"}`,
      { invocationId: r.invocationId },
    );
  }
  if (current.resultEncrypted) return replayedOutcome(current, "approved_call");
  const [artifact] = await db
    .select({ content: toolResultArtifacts.content })
    .from(toolResultArtifacts)
    .where(inCompany(toolResultArtifacts, r.companyId, eq(toolResultArtifacts.invocationId, r.invocationId)))
    .orderBy(desc(toolResultArtifacts.createdAt))
    .limit(1);
  if (!artifact) return replayedOutcome(current, "approved_call");
  return {
    ok: true,
    invocationId: r.invocationId,
    replayed: true,
    notice: replayNotice("approved_call"),
    result: JSON.parse(artifact.content) as {
      content: unknown[];
      structuredContent?: Record<string, unknown>;
    },
  };
}

/**
 * Every attempt on an approved invocation — the agent's retry with the approval, a person's
 * execute — adds one to the row's `attempts` and writes one audit event (`decision`, or
 * `replayed`), like every other attempt (docs/gateway.md "Execution states").
 */
async function auditAttempt(
  db: Db,
  r: ActionRequest,
  ex: ExecContext,
  e: { eventType: "decision" | "replayed"; decision: DecisionValue; reasonCode: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(toolInvocations)
      .set({ attempts: sql`${toolInvocations.attempts} + 1`, updatedAt: sql`now()` })
      .where(companyRow(toolInvocations, r.companyId, r.invocationId));
    await recordToolEvents(tx, [
      {
        ...e,
        companyId: r.companyId,
        actorType: ex.actorType,
        actorId: ex.actorId,
        invocationId: r.invocationId,
        runId: r.runId,
        issueId: r.issueId,
        agentId: r.agentId,
        sessionId: ex.sessionId,
        catalogEntryId: r.catalogEntryId,
        toolName: r.toolName,
        argsHash: r.argsHash,
        actionRequestId: r.id,
      },
    ]);
  });
}

/** An attempt's answer, audited: a replay as `replayed`, a refusal as a `deny` decision. */
async function audited(
  db: Db,
  r: ActionRequest,
  ex: ExecContext,
  outcome: GatewayCallOutcome,
): Promise<GatewayCallOutcome> {
  await auditAttempt(
    db,
    r,
    ex,
    outcome.ok
      ? { eventType: "replayed", decision: "allow", reasonCode: "replayed" }
      : { eventType: "decision", decision: "deny", reasonCode: outcome.code },
  );
  return outcome;
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
    return audited(
      db,
      r,
      ex,
      refused(
        "approval_signature_invalid",
        "the stored request does not match its signature; it was not run",
      ),
    );
  }
  if (r.expiresAt.getTime() <= now.getTime())
    return audited(db, r, ex, refused("approval_expired", "the request has expired"));
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
    return audited(
      db,
      r,
      ex,
      refused(
        "approval_schema_changed",
        "the tool's schema changed since the request was made; it was not run",
      ),
    );
  }
  if (!d.allowed) {
    return audited(
      db,
      r,
      ex,
      refused(
        "approval_no_longer_allowed",
        `the call is no longer permitted (${d.reasonCode}); it was not run`,
      ),
    );
  }
  if (!(await moveRequest(db, r, "approved", { status: "executing", updatedAt: now }))) {
    const current = await loadRequest(db, r.companyId, r.id);
    return answerByState(db, current, ex, now);
  }
  // This attempt runs it: its decision is audited before `execution_started`.
  await auditAttempt(db, r, ex, { eventType: "decision", decision: "allow", reasonCode: "approved" });
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
  // The answer itself is kept on the ledger row, encrypted (recordOutcome), for replays. The
  // request follows the invocation: executed; approved again when the call never reached the
  // upstream (the next retry runs it afresh); left `executing` while the row is still running
  // (its outcome is recorded later, or the lease expires and a person resolves it); otherwise
  // failed (a failure mid-call: a person resolves the unknown outcome, and the request with it).
  // Written through a database outage like the outcome itself (`database/record-through.ts`).
  await recordThroughOutage(
    () =>
      db.transaction(async (tx) => {
        const current = await currentExecution(tx, r.companyId, r.invocationId);
        if (current.executionStatus === "running") return;
        const status = outcome.ok ? "executed" : notYetRun(current) ? "approved" : "failed";
        await moveRequest(
          tx,
          r,
          "executing",
          status === "approved"
            ? { status, updatedAt: now }
            : { status, executedAt: now, executionInvocationId: r.invocationId, updatedAt: now },
        );
        await updateCard(tx, r, {
          status,
          ...(status === "approved" ? {} : { executedAt: now.toISOString() }),
          ...(outcome.ok ? {} : { error: outcome.code }),
        });
      }),
    recordingDeadlineMs(),
    db,
  ).catch((err: unknown) => {
    // The database stayed away: the request stays `executing` until the lease sweeper and a
    // person's resolution move it; the agent still gets the call's answer.
    logError("approvals.request_update_failed", err, { actionRequestId: r.id });
  });
  const { resultJson: _json, ...rest }: ExecOutcome = outcome;
  return rest;
}

/**
 * A request left `executing` by an executor that died between claiming the request and
 * claiming its invocation (or before moving the request after a failure that never reached the
 * upstream): nothing ran, so once the claim is older than a lease it is approved again — one
 * conditional update on the claim's own `updated_at`, so one of any number of concurrent
 * retries resumes it. Returns whether this attempt did.
 */
async function resumeAbandoned(db: Db, r: ActionRequest, now: Date): Promise<boolean> {
  if (now.getTime() - r.updatedAt.getTime() < leaseMs()) return false;
  const current = await currentExecution(db, r.companyId, r.invocationId);
  if (!notYetRun(current)) return false;
  return moveRequest(
    db,
    r,
    "executing",
    { status: "approved", updatedAt: now },
    // Still the old claim (a concurrent resumer has moved `updated_at` on).
    lte(toolActionRequests.updatedAt, new Date(now.getTime() - leaseMs())),
  );
}

/**
 * Moves a request out of `from` with one conditional update (so of any number of concurrent
 * attempts, exactly one moves it); `also` narrows which rows qualify. Whether this one did.
 */
async function moveRequest(
  db: Db | Tx,
  r: ActionRequest,
  from: ActionRequest["status"],
  set: Partial<typeof toolActionRequests.$inferInsert>,
  ...also: SQL[]
): Promise<boolean> {
  const moved = await db
    .update(toolActionRequests)
    .set(set)
    .where(
      inCompany(
        toolActionRequests,
        r.companyId,
        eq(toolActionRequests.id, r.id),
        eq(toolActionRequests.status, from),
        ...also,
      ),
    )
    .returning({ id: toolActionRequests.id });
  return moved.length === 1;
}

/**
 * The answer for a request that is not (or no longer) `approved`, audited: an executed one's
 * replay, an executing one decided from its invocation's lease, any other state's refusal.
 */
async function answerByState(
  db: Db,
  r: ActionRequest,
  ex: ExecContext,
  now: Date,
): Promise<GatewayCallOutcome> {
  if (r.status === "executing" && (await resumeAbandoned(db, r, now)))
    return runApproved(db, { ...r, status: "approved", updatedAt: now }, ex, now);
  if (r.status === "executed" || r.status === "failed" || r.status === "executing")
    return audited(db, r, ex, await recordedResult(db, r));
  return audited(db, r, ex, refusedBy(stateError(r, now), { actionRequestId: r.id }));
}

/** `POST …/action-requests/:id/execute` by a person. */
export async function executeActionRequest(ctx: ServiceContext, companyId: string, id: string) {
  await requireReviewer(ctx, companyId);
  const r = await loadRequest(ctx.db, companyId, id);
  const { actorType, actorId } = actorRef(ctx.actor);
  const [run] = await ctx.db
    .select({ projectId: heartbeatRuns.projectId, routineId: heartbeatRuns.routineId })
    .from(heartbeatRuns)
    .where(inCompany(heartbeatRuns, companyId, eq(heartbeatRuns.id, r.runId!)));
  const ex: ExecContext = {
    companyId,
    agentId: r.agentId!,
    runId: r.runId!,
    issueId: r.issueId,
    projectId: run?.projectId ?? null,
    routineId: run?.routineId ?? null,
    sessionId: null,
    actorType,
    actorId,
  };
  if (r.status !== "approved") return answerByState(ctx.db, r, ex, ctx.now());
  return runApproved(ctx.db, r, ex, ctx.now());
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
  // Not an attempt on the request's invocation (another run's, another call): audited on
  // its own, without an invocation.
  const refuse = async (code: OutcomeCode, message: string): Promise<GatewayCallOutcome> => {
    await recordToolEvents(db, [
      {
        companyId: gw.companyId,
        eventType: "decision",
        actorType: "gateway_session",
        actorId: gw.sessionId,
        runId: gw.runId,
        issueId: gw.issueId,
        agentId: gw.agentId,
        sessionId: gw.sessionId,
        toolName: storableText(input.tool),
        decision: "deny",
        reasonCode: code,
        actionRequestId: r?.id ?? null,
      },
    ]);
    return refused(code, message, { actionRequestId: r?.id ?? null });
  };
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
  const ex = execContextOf(gw);
  if (r.status !== "approved") return answerByState(db, r, ex, now);
  return runApproved(db, r, ex, now);
}
