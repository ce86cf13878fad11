import { desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { heartbeatRuns, toolActionRequests, toolTrustRules } from "@/db/schema";
import type { TrustRule, TrustRuleCreated } from "@/server/contracts/api/approvals";
import type { Served } from "@/server/contracts/api/common";
import { ArgumentConstraint } from "@/server/contracts/policy-schema";
import { TRUST_RULE_SCOPES } from "@/server/contracts/values";
import { companyRows } from "../access/rows";
import { bumpAccessVersion } from "../access/snapshot";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { actorUserId, type ServiceContext } from "../context";
import { conflict, invalidRequest, notFound } from "../errors";
import { proposeFormalApproval } from "./formal";

export const CreateTrustRuleInput = z.object({
  scopeType: z.enum(TRUST_RULE_SCOPES),
  argumentConstraints: z.array(ArgumentConstraint).max(20).default([]),
  maxUses: z.number().int().min(1).max(100_000).optional(),
  expiresAt: z.iso.datetime().optional(),
});
export type CreateTrustRuleInput = z.infer<typeof CreateTrustRuleInput>;

/**
 * Promotes an executed action request into a bounded trust rule: same tool, pinned to the
 * schema hash that was reviewed, within a scope, with optional argument constraints, use
 * count and expiry. The rule starts `pending_approval` and becomes active only when another
 * admin accepts the formal approval created with it.
 */
export async function createTrustRuleFromRequest(
  ctx: ServiceContext,
  companyId: string,
  actionRequestId: string,
  input: CreateTrustRuleInput,
) {
  await requireCompany(ctx, companyId, "tools:admin", "action request");
  const [ar] = await ctx.db
    .select()
    .from(toolActionRequests)
    .where(companyRow(toolActionRequests, companyId, actionRequestId));
  if (!ar) throw notFound("action request");
  if (ar.status !== "executed")
    throw conflict("approval_not_executed", "only an executed approval can become a trust rule");
  if (input.expiresAt && new Date(input.expiresAt).getTime() <= ctx.now().getTime())
    throw invalidRequest("`expiresAt` is in the past");
  let projectId: string | null = null;
  if (input.scopeType === "project") {
    const [run] = await ctx.db
      .select({ projectId: heartbeatRuns.projectId })
      .from(heartbeatRuns)
      .where(inCompany(heartbeatRuns, companyId, eq(heartbeatRuns.id, ar.runId!)));
    projectId = run?.projectId ?? null;
    if (!projectId) throw invalidRequest("the approved call's run has no project; choose another scope");
  }
  if (input.scopeType === "issue" && !ar.issueId)
    throw invalidRequest("the approved call had no issue; choose another scope");
  return ctx.db.transaction(async (tx) => {
    const [rule] = await tx
      .insert(toolTrustRules)
      .values({
        companyId,
        catalogEntryId: ar.catalogEntryId,
        toolName: ar.toolName,
        schemaHash: ar.schemaHash,
        scopeType: input.scopeType,
        projectId,
        agentId: input.scopeType === "agent" ? ar.agentId : null,
        issueId: input.scopeType === "issue" ? ar.issueId : null,
        argumentConstraints: input.argumentConstraints,
        maxUses: input.maxUses ?? null,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        status: "pending_approval",
        sourceActionRequestId: ar.id,
        createdByUserId: actorUserId(ctx.actor),
      })
      .returning();
    const approval = await proposeFormalApproval(tx, ctx, companyId, {
      kind: "trust_rule",
      title: `Trust ${ar.toolName} without per-call approval (${input.scopeType})`,
      summary: `Calls to ${ar.toolName} matching the rule run without asking${input.maxUses ? `, at most ${input.maxUses} times` : ""}${input.expiresAt ? `, until ${input.expiresAt}` : ""}. Pinned to the reviewed schema.`,
      payload: {
        trustRuleId: rule!.id,
        actionRequestId: ar.id,
        scopeType: input.scopeType,
        argumentConstraints: input.argumentConstraints,
      },
      issueId: ar.issueId,
    });
    await tx.update(toolTrustRules).set({ approvalId: approval.id }).where(eq(toolTrustRules.id, rule!.id));
    await logActivity(tx, ctx, {
      companyId,
      action: "tool_trust_rule.create",
      entityType: "tool_trust_rule",
      entityId: rule!.id,
      details: { toolName: ar.toolName, scopeType: input.scopeType, approvalId: approval.id },
    });
    return {
      trustRule: { ...rule!, approvalId: approval.id },
      approval,
    } satisfies Served<typeof TrustRuleCreated>;
  });
}

export async function listTrustRules(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await companyRows(ctx.db, toolTrustRules, companyId, desc(toolTrustRules.createdAt));
  return rows satisfies Served<typeof TrustRule>[];
}

/** Revokes a rule (audited); it stops matching at once (access version bump). */
export async function revokeTrustRule(ctx: ServiceContext, companyId: string, ruleId: string) {
  await requireCompany(ctx, companyId, "tools:admin", "trust rule");
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(toolTrustRules)
      .set({
        status: "revoked",
        revokedAt: now,
        revokedByUserId: actorUserId(ctx.actor),
        updatedAt: now,
      })
      .where(
        inCompany(
          toolTrustRules,
          companyId,
          eq(toolTrustRules.id, ruleId),
          inArray(toolTrustRules.status, ["active", "pending_approval"]),
        ),
      )
      .returning();
    if (!row) {
      const [exists] = await tx
        .select({ status: toolTrustRules.status })
        .from(toolTrustRules)
        .where(companyRow(toolTrustRules, companyId, ruleId));
      if (!exists) throw notFound("trust rule");
      return { id: ruleId, status: exists.status };
    }
    await bumpAccessVersion(tx, companyId);
    await logActivity(tx, ctx, {
      companyId,
      action: "tool_trust_rule.revoke",
      entityType: "tool_trust_rule",
      entityId: ruleId,
    });
    return row;
  });
}
