import { randomUUID } from "node:crypto";
import { and, eq, lte, ne, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import { issueComments, toolActionRequests } from "@/db/schema";
import type { Decision } from "../access/types";
import { recordToolEvents } from "../audit/record-event";
import { publicOrigin } from "../config/proxy";
import type { GatewayContext } from "../gateway/sessions";
import type { Invocation } from "../ledger/invocations";
import { encryptReviewedArgs, reviewedArgsOf } from "../secrets/reviewed-args";
import { signActionRequest } from "./signing";

/**
 * Action requests: a person's review of one tool call. This file creates them (with their
 * issue-thread card); `review.ts` lists, approves and declines them; `execute-approved.ts` runs
 * an approved one exactly once.
 */

export type ActionRequest = typeof toolActionRequests.$inferSelect;

/** Default time a person has to review a call (PAPERCLIP_APPROVAL_TTL_SECONDS overrides). */
export function approvalTtlSeconds(): number {
  const v = Number(process.env.PAPERCLIP_APPROVAL_TTL_SECONDS ?? 3600);
  return Number.isFinite(v) && v >= 60 ? Math.min(v, 7 * 24 * 3600) : 3600;
}

/** The fields an action request's signature covers. */
export const signedFields = (r: ActionRequest) => ({
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
export async function updateCard(
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
    .where(companyRow(issueComments, r.companyId, r.commentId));
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
  // The pending cards of this run for the same tool.
  const pendingOfTool = [
    eq(toolActionRequests.companyId, gw.companyId),
    eq(toolActionRequests.runId, gw.runId),
    eq(toolActionRequests.catalogEntryId, t.catalogEntryId),
    eq(toolActionRequests.status, "pending"),
  ];
  // Expired pending cards for this identity are closed first, so they are never reused.
  await tx
    .update(toolActionRequests)
    .set({ status: "expired", updatedAt: now })
    .where(and(...pendingOfTool, lte(toolActionRequests.expiresAt, now)));
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
      .where(and(...pendingOfTool, eq(toolActionRequests.argsHash, inv.argsHash)));
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
    .where(and(...pendingOfTool, ne(toolActionRequests.id, id)))
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
