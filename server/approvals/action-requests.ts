import { randomUUID } from "node:crypto";
import { and, desc, eq, lte, ne, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import {
  heartbeatRuns,
  issueComments,
  toolActionRequests,
  toolInvocations,
  toolResultArtifacts,
} from "@/db/schema";
import { ACTION_REQUEST_STATUSES } from "@/db/schema/values";
import { decide } from "../access/decide";
import { getAccessSnapshot } from "../access/snapshot";
import type { Decision } from "../access/types";
import { recordToolEvents } from "../audit/record-event";
import { requireCompany } from "../auth/authorize";
import { actorRef, type ServiceContext } from "../context";
import { conflict, ERRORS, type ErrorCode, forbidden, notFound, type ServiceError } from "../errors";
import {
  type ExecContext,
  execContextOf,
  executeInvocation,
  type GatewayCallInput,
  type GatewayCallOutcome,
} from "../gateway/call-tool";
import { type GatewayContext, publicOrigin } from "../gateway/sessions";
import { canonicalHash, canonicalJson } from "../ledger/canonical";
import type { Invocation } from "../ledger/invocations";
import { encryptReviewedArgs, reviewedArgsOf } from "./reviewed-args";
import { signActionRequest, verifyActionRequest } from "./signing";

export type ActionRequest = typeof toolActionRequests.$inferSelect;

/** Default time a person has to review a call (PAPERCLIP_APPROVAL_TTL_SECONDS overrides). */
export function approvalTtlSeconds(): number {
  const v = Number(process.env.PAPERCLIP_APPROVAL_TTL_SECONDS ?? 3600);
  return Number.isFinite(v) && v >= 60 ? Math.min(v, 7 * 24 * 3600) : 3600;
}

const signedFields = (r: ActionRequest) => ({
  id: r.id,
  companyId: r.companyId,
  invocationId: r.invocationId,
  runId: r.runId,
  agentId: r.agentId,
  issueId: r.issueId,
  catalogEntryId: r.catalogEntryId,
  toolName: r.toolName,
  reviewedArgs: reviewedArgsOf(r),
  argsHash: r.argsHash,
  schemaHash: r.schemaHash,
  versionHash: r.versionHash,
  expiresAt: r.expiresAt.toISOString(),
});

/** Keeps the issue-thread card in step with the request (status, links, outcome). */
async function updateCard(
  tx: Tx,
  r: Pick<ActionRequest, "companyId" | "commentId">,
  patch: Record<string, unknown>,
) {
  if (!r.commentId) return;
  await tx
    .update(issueComments)
    .set({
      payload: sql`coalesce(${issueComments.payload}, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(issueComments.companyId, r.companyId), eq(issueComments.id, r.commentId)));
}

/**
 * Creates the action request and its issue-thread card in the attempt's transaction. The same
 * run, tool and arguments hash while a card is pending returns that card (no floods); a newer,
 * different request for the same tool from the same run supersedes the older pending one.
 * A run without an issue has no thread to ask on: `pathMissing`.
 */
export async function createActionRequestInTx(
  tx: Tx,
  gw: GatewayContext,
  inv: Invocation,
  d: Decision,
  canonicalArguments: string,
  now: Date,
): Promise<Record<string, unknown>> {
  if (!gw.issueId || !d.target) return { pathMissing: true };
  const t = d.target;
  // Expired pending cards for this identity are closed first, so they are never reused.
  await tx
    .update(toolActionRequests)
    .set({ status: "expired", updatedAt: now })
    .where(
      and(
        eq(toolActionRequests.companyId, gw.companyId),
        eq(toolActionRequests.runId, gw.runId),
        eq(toolActionRequests.catalogEntryId, t.catalogEntryId),
        eq(toolActionRequests.status, "pending"),
        lte(toolActionRequests.expiresAt, now),
      ),
    );
  const id = randomUUID();
  const ttl = d.approvalExpiresInSeconds ?? approvalTtlSeconds();
  const expiresAt = new Date(now.getTime() + ttl * 1000);
  const reviewedArgs = JSON.parse(canonicalArguments) as unknown;
  const fields = {
    id,
    companyId: gw.companyId,
    invocationId: inv.id,
    runId: gw.runId,
    agentId: gw.agentId,
    issueId: gw.issueId,
    catalogEntryId: t.catalogEntryId,
    toolName: t.toolName,
    reviewedArgs,
    argsHash: inv.argsHash,
    schemaHash: t.schemaHash,
    versionHash: t.versionHash,
    expiresAt: expiresAt.toISOString(),
  };
  const { signature, keyId } = signActionRequest(fields);
  // Stored encrypted (bound to the company and this request), never in clear.
  const { reviewedArgs: _clear, ...stored } = fields;
  const reviewedArgsEncrypted = encryptReviewedArgs(gw.companyId, id, canonicalArguments);
  const preview = {
    tool: t.toolName,
    risk: t.risk,
    arguments: inv.argsSummary ?? {},
    reason: d.explanation.at(-1) ?? "a policy requires approval",
    policyIds: d.matchedPolicyIds,
  };
  const inserted = await tx
    .insert(toolActionRequests)
    .values({
      ...stored,
      reviewedArgs: null,
      reviewedArgsEncrypted,
      expiresAt,
      signature,
      signatureKeyId: keyId,
      preview,
      status: "pending",
    })
    .onConflictDoNothing({
      target: [
        toolActionRequests.companyId,
        toolActionRequests.runId,
        toolActionRequests.catalogEntryId,
        toolActionRequests.argsHash,
      ],
      where: sql`${toolActionRequests.status} = 'pending'`,
    })
    .returning({ id: toolActionRequests.id });
  const issueUrl = `${publicOrigin()}/c/${gw.companyId}/issues/${gw.issueId}`;
  if (inserted.length === 0) {
    const [existing] = await tx
      .select({ id: toolActionRequests.id, expiresAt: toolActionRequests.expiresAt })
      .from(toolActionRequests)
      .where(
        and(
          eq(toolActionRequests.companyId, gw.companyId),
          eq(toolActionRequests.runId, gw.runId),
          eq(toolActionRequests.catalogEntryId, t.catalogEntryId),
          eq(toolActionRequests.argsHash, inv.argsHash),
          eq(toolActionRequests.status, "pending"),
        ),
      );
    return {
      actionRequestId: existing!.id,
      expiresAt: existing!.expiresAt.toISOString(),
      issueUrl,
      reused: true,
    };
  }
  // Supersede older pending cards of this run for the same tool (different arguments).
  const superseded = await tx
    .update(toolActionRequests)
    .set({ status: "superseded", supersededById: id, updatedAt: now })
    .where(
      and(
        eq(toolActionRequests.companyId, gw.companyId),
        eq(toolActionRequests.runId, gw.runId),
        eq(toolActionRequests.catalogEntryId, t.catalogEntryId),
        eq(toolActionRequests.status, "pending"),
        ne(toolActionRequests.id, id),
      ),
    )
    .returning({
      id: toolActionRequests.id,
      companyId: toolActionRequests.companyId,
      commentId: toolActionRequests.commentId,
    });
  for (const old of superseded) await updateCard(tx, old, { status: "superseded", supersededBy: id });

  const [comment] = await tx
    .insert(issueComments)
    .values({
      companyId: gw.companyId,
      issueId: gw.issueId,
      authorType: "agent",
      authorAgentId: gw.agentId,
      kind: "action_card",
      body: `Requests approval to call \`${t.toolName}\` (${t.risk}). ${preview.reason}.`,
      payload: {
        actionRequestId: id,
        title: `Approve ${t.toolName}?`,
        status: "pending",
        tool: t.toolName,
        risk: t.risk,
        arguments: preview.arguments,
        reason: preview.reason,
        expiresAt: expiresAt.toISOString(),
      },
    })
    .returning({ id: issueComments.id });
  await tx.update(toolActionRequests).set({ commentId: comment!.id }).where(eq(toolActionRequests.id, id));
  await recordToolEvents(tx, [
    {
      companyId: gw.companyId,
      eventType: "approval_requested",
      actorType: "gateway_session",
      actorId: gw.sessionId,
      invocationId: inv.id,
      runId: gw.runId,
      issueId: gw.issueId,
      agentId: gw.agentId,
      projectId: gw.projectId,
      routineId: gw.routineId,
      sessionId: gw.sessionId,
      applicationId: t.applicationId,
      connectionId: t.connectionId,
      catalogEntryId: t.catalogEntryId,
      toolName: t.toolName,
      risk: t.risk,
      decision: "approval_required",
      reasonCode: "approval_required",
      matchedPolicyIds: d.matchedPolicyIds,
      actionRequestId: id,
      argsHash: inv.argsHash,
      argsSummary: inv.argsSummary ?? null,
    },
  ]);
  return { actionRequestId: id, expiresAt: expiresAt.toISOString(), issueUrl, reused: false };
}

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
    .select(publicColumns)
    .from(toolActionRequests)
    .where(and(...conds))
    .orderBy(desc(toolActionRequests.createdAt))
    .limit(q.limit);
  const now = ctx.now().getTime();
  // A pending request past its expiry is reported as expired even before anything touches it.
  return rows.map((r) =>
    r.status === "pending" && r.expiresAt.getTime() <= now ? { ...r, status: "expired" as const } : r,
  );
}

async function loadRequest(db: Db | Tx, companyId: string, id: string, lock = false) {
  const q = db
    .select()
    .from(toolActionRequests)
    .where(and(eq(toolActionRequests.companyId, companyId), eq(toolActionRequests.id, id)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw notFound("action request");
  return row;
}

/** Reviews are made by people: a signed-in board member or a board key, never an agent. */
async function requireReviewer(ctx: ServiceContext, companyId: string) {
  if (ctx.actor.type !== "user" && ctx.actor.type !== "board_key")
    throw forbidden("only a person can review a tool call");
  await requireCompany(ctx, companyId, "tools:approve", "action request");
}

function stateError(r: ActionRequest, now: Date): ServiceError {
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

export async function approveActionRequest(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  note?: string,
) {
  await requireReviewer(ctx, companyId);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const r = await loadRequest(tx, companyId, id, true);
    if (r.status === "approved") return { id, status: "approved" as const };
    if (r.status !== "pending" || r.expiresAt.getTime() <= now.getTime()) {
      if (r.status === "pending")
        await tx
          .update(toolActionRequests)
          .set({ status: "expired", updatedAt: now })
          .where(eq(toolActionRequests.id, id));
      throw stateError(r, now);
    }
    const userId =
      ctx.actor.type === "user" ? ctx.actor.userId : ctx.actor.type === "board_key" ? ctx.actor.userId : null;
    await tx
      .update(toolActionRequests)
      .set({
        status: "approved",
        decidedByUserId: userId,
        decidedAt: now,
        decisionNote: note ?? null,
        updatedAt: now,
      })
      .where(eq(toolActionRequests.id, id));
    await tx
      .update(toolInvocations)
      .set({ approvalState: "approved", updatedAt: now })
      .where(and(eq(toolInvocations.companyId, companyId), eq(toolInvocations.id, r.invocationId)));
    // The card names the person who decided (a board key's creator, not the key).
    await updateCard(tx, r, { status: "approved", decidedAt: now.toISOString(), decidedByUserId: userId });
    await recordToolEvents(tx, [
      {
        companyId,
        eventType: "approval_accepted",
        ...actorRef(ctx.actor),
        invocationId: r.invocationId,
        runId: r.runId,
        issueId: r.issueId,
        agentId: r.agentId,
        catalogEntryId: r.catalogEntryId,
        toolName: r.toolName,
        decision: "allow",
        reasonCode: "approved",
        actionRequestId: id,
        argsHash: r.argsHash,
      },
    ]);
    return { id, status: "approved" as const };
  });
}

export async function declineActionRequest(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  note?: string,
) {
  await requireReviewer(ctx, companyId);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const r = await loadRequest(tx, companyId, id, true);
    if (r.status === "declined") return { id, status: "declined" as const };
    if (r.status !== "pending" && r.status !== "approved") throw stateError(r, now);
    const userId =
      ctx.actor.type === "user" ? ctx.actor.userId : ctx.actor.type === "board_key" ? ctx.actor.userId : null;
    await tx
      .update(toolActionRequests)
      .set({
        status: "declined",
        decidedByUserId: userId,
        decidedAt: now,
        decisionNote: note ?? null,
        updatedAt: now,
      })
      .where(eq(toolActionRequests.id, id));
    await tx
      .update(toolInvocations)
      .set({ approvalState: "declined", executionStatus: "denied", updatedAt: now })
      .where(and(eq(toolInvocations.companyId, companyId), eq(toolInvocations.id, r.invocationId)));
    await updateCard(tx, r, {
      status: "declined",
      decidedAt: now.toISOString(),
      decidedByUserId: userId,
      note: note ?? null,
    });
    await recordToolEvents(tx, [
      {
        companyId,
        eventType: "approval_rejected",
        ...actorRef(ctx.actor),
        invocationId: r.invocationId,
        runId: r.runId,
        issueId: r.issueId,
        agentId: r.agentId,
        catalogEntryId: r.catalogEntryId,
        toolName: r.toolName,
        decision: "deny",
        reasonCode: "declined",
        actionRequestId: id,
        argsHash: r.argsHash,
      },
    ]);
    return { id, status: "declined" as const };
  });
}

/** The result recorded for an executed request (replayed to the agent's retry). */
async function recordedResult(db: Db, r: ActionRequest): Promise<GatewayCallOutcome> {
  const [artifact] = await db
    .select({ content: toolResultArtifacts.content })
    .from(toolResultArtifacts)
    .where(
      and(
        eq(toolResultArtifacts.companyId, r.companyId),
        eq(toolResultArtifacts.invocationId, r.invocationId),
      ),
    )
    .orderBy(desc(toolResultArtifacts.createdAt))
    .limit(1);
  const [inv] = await db
    .select({
      executionStatus: toolInvocations.executionStatus,
      resultSummary: toolInvocations.resultSummary,
      errorCode: toolInvocations.errorCode,
    })
    .from(toolInvocations)
    .where(and(eq(toolInvocations.companyId, r.companyId), eq(toolInvocations.id, r.invocationId)));
  if (r.status === "failed" || inv?.executionStatus !== "succeeded") {
    return {
      ok: false,
      status: ERRORS.approval_consumed.status,
      code: "approval_consumed",
      message: `the approved call already ran and ${inv?.errorCode ?? "failed"}`,
      invocationId: r.invocationId,
    };
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
    return {
      ok: false,
      status: ERRORS.approval_signature_invalid.status,
      code: "approval_signature_invalid",
      message: "the stored request does not match its signature; it was not run",
    };
  }
  if (r.expiresAt.getTime() <= now.getTime())
    return {
      ok: false,
      status: ERRORS.approval_expired.status,
      code: "approval_expired",
      message: "the request has expired",
    };
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
    return {
      ok: false,
      status: ERRORS.approval_schema_changed.status,
      code: "approval_schema_changed",
      message: "the tool's schema changed since the request was made; it was not run",
    };
  }
  if (!d.allowed) {
    return {
      ok: false,
      status: ERRORS.approval_no_longer_allowed.status,
      code: "approval_no_longer_allowed",
      message: `the call is no longer permitted (${d.reasonCode}); it was not run`,
    };
  }
  const claimed = await db
    .update(toolActionRequests)
    .set({ status: "executing", updatedAt: now })
    .where(
      and(
        eq(toolActionRequests.companyId, r.companyId),
        eq(toolActionRequests.id, r.id),
        eq(toolActionRequests.status, "approved"),
      ),
    )
    .returning({ id: toolActionRequests.id });
  if (claimed.length === 0) {
    const current = await loadRequest(db, r.companyId, r.id);
    if (current.status === "executed" || current.status === "failed") return recordedResult(db, current);
    const err = stateError(current, now);
    return { ok: false, status: err.status, code: err.code, message: err.message };
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
  const { resultJson: _json, ...rest } = outcome as GatewayCallOutcome & { resultJson?: string };
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
    .where(and(eq(heartbeatRuns.companyId, companyId), eq(heartbeatRuns.id, r.runId!)));
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
      and(
        eq(toolActionRequests.companyId, gw.companyId),
        eq(toolActionRequests.id, input.approvedActionRequestId!),
      ),
    );
  const refuse = (code: ErrorCode, message: string): GatewayCallOutcome => ({
    ok: false,
    status: ERRORS[code].status,
    code,
    message,
    actionRequestId: r?.id ?? null,
  });
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
    const err = stateError(r, now);
    return refuse(err.code, err.message);
  }
  return runApproved(db, r, execContextOf(gw), now);
}
