import { and, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { approvals, boardApiKeys, companies, toolPolicies, toolTrustRules } from "@/db/schema";
import type { FormalApproval } from "@/server/contracts/api/approvals";
import type { Served } from "@/server/contracts/api/common";
import { APPROVAL_STATUSES } from "@/server/contracts/values";
import { lockCompanyRow } from "../access/rows";
import { bumpAccessVersion } from "../access/snapshot";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { actorRef, actorUserId, type ServiceContext } from "../context";
import { conflict, forbidden, ServiceError } from "../errors";

/**
 * Formal approvals guard changes to future autonomy: a change is proposed, and a board member
 * with `tools:admin` who is another *person* than the proposer accepts it before it takes
 * effect (an owner only under the company's explicit owner exemption).
 *
 * Kinds: `trust_rule` (a trust rule becomes active) and `policy_enable` (an allow policy that
 * can grant write or destructive tools is enabled).
 */
export const FORMAL_APPROVAL_KINDS = ["trust_rule", "policy_enable"] as const;
export type FormalApprovalKind = (typeof FORMAL_APPROVAL_KINDS)[number];

export const ListApprovalsQuery = z.object({
  status: z.enum(APPROVAL_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const ApprovalNoteInput = z.object({ note: z.string().trim().max(2000).optional() });

/** Proposes a change inside the caller's transaction. */
export async function proposeFormalApproval(
  tx: Tx,
  ctx: ServiceContext,
  companyId: string,
  p: {
    kind: FormalApprovalKind;
    title: string;
    summary: string;
    payload: Record<string, unknown>;
    issueId?: string | null;
  },
) {
  const { actorType, actorId } = actorRef(ctx.actor);
  const [row] = await tx
    .insert(approvals)
    .values({
      companyId,
      kind: p.kind,
      status: "pending",
      title: p.title,
      summary: p.summary,
      payload: p.payload,
      issueId: p.issueId ?? null,
      requestedByActorType: actorType,
      requestedByActorId: actorId,
      requestedByUserId: actorUserId(ctx.actor),
    })
    .returning();
  await logActivity(tx, ctx, {
    companyId,
    action: "approval.propose",
    entityType: "approval",
    entityId: row!.id,
    details: { kind: p.kind, title: p.title },
  });
  return row!;
}

export async function listFormalApprovals(
  ctx: ServiceContext,
  companyId: string,
  q: z.infer<typeof ListApprovalsQuery>,
) {
  await requireCompany(ctx, companyId, "company:read");
  const conds: SQL[] = [eq(approvals.companyId, companyId)];
  if (q.status) conds.push(eq(approvals.status, q.status));
  const rows = await ctx.db
    .select()
    .from(approvals)
    .where(and(...conds))
    .orderBy(desc(approvals.createdAt))
    .limit(q.limit);
  return rows satisfies Served<typeof FormalApproval>[];
}

/**
 * What an accepted approval acts on, read from its jsonb payload at the boundary: an id that
 * is not a UUID (a row edited by hand, a payload of another kind) acts on nothing.
 */
const ApprovalTarget = z.looseObject({ trustRuleId: z.uuid().optional(), policyId: z.uuid().optional() });

async function applyApproval(
  tx: Tx,
  companyId: string,
  a: typeof approvals.$inferSelect,
  accepted: boolean,
  now: Date,
) {
  const parsed = ApprovalTarget.safeParse(a.payload);
  const payload = parsed.success ? parsed.data : {};
  if (a.kind === "trust_rule" && payload.trustRuleId) {
    await tx
      .update(toolTrustRules)
      .set(
        accepted
          ? { status: "active", updatedAt: now }
          : { status: "revoked", revokedAt: now, updatedAt: now },
      )
      .where(
        inCompany(
          toolTrustRules,
          companyId,
          eq(toolTrustRules.id, payload.trustRuleId),
          eq(toolTrustRules.status, "pending_approval"),
        ),
      );
  }
  if (a.kind === "policy_enable" && payload.policyId && accepted) {
    await tx
      .update(toolPolicies)
      .set({ enabled: true, updatedAt: now })
      .where(companyRow(toolPolicies, companyId, payload.policyId));
  }
  await bumpAccessVersion(tx, companyId);
}

/**
 * The person behind a proposal: recorded at proposal time; for older rows derived from the
 * proposing actor (a user, or a board key's creator). Null when nobody can be named.
 */
async function proposerOf(tx: Tx, a: typeof approvals.$inferSelect): Promise<string | null> {
  if (a.requestedByUserId) return a.requestedByUserId;
  if (a.requestedByActorType === "user") return a.requestedByActorId;
  if (a.requestedByActorType === "board_key") {
    const [key] = await tx
      .select({ userId: boardApiKeys.createdByUserId })
      .from(boardApiKeys)
      .where(eq(boardApiKeys.id, a.requestedByActorId));
    return key?.userId ?? null;
  }
  return null;
}

/** Accepts or rejects a pending formal approval; accepting applies the change in the same transaction. */
export async function decideFormalApproval(
  ctx: ServiceContext,
  companyId: string,
  approvalId: string,
  accept: boolean,
  note?: string,
) {
  const access = await requireCompany(ctx, companyId, "tools:admin", "approval");
  if (ctx.actor.type !== "user" && ctx.actor.type !== "board_key")
    throw forbidden("only a person can decide an approval");
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const a = await lockCompanyRow(tx, approvals, companyId, approvalId, "approval");
    if (a.status !== "pending") throw conflict("approval_decided", `the approval is already \`${a.status}\``);
    // Four eyes, counted in people: the person behind the deciding actor (a session's user,
    // a board key's creator) must not be the person behind the proposal, whichever
    // credentials each used. An owner may accept their own proposal only where the company's
    // policy says so (`owner_may_self_approve`), and the approval then says it was.
    const decider = actorUserId(ctx.actor);
    if (!decider) throw forbidden("only a person can decide an approval");
    const proposer = await proposerOf(tx, a);
    let ownerSelfApproved = false;
    // A person proposed it but can no longer be named (account deleted): fail closed.
    const unnamed =
      proposer === null && (a.requestedByActorType === "user" || a.requestedByActorType === "board_key");
    if (accept && (unnamed || proposer === decider)) {
      const [company] = await tx
        .select({ ownerMaySelfApprove: companies.ownerMaySelfApprove })
        .from(companies)
        .where(eq(companies.id, companyId));
      if (!(access.role === "owner" && company?.ownerMaySelfApprove && proposer === decider)) {
        await logActivity(ctx.db, ctx, {
          companyId,
          action: "approval.denied",
          entityType: "approval",
          entityId: approvalId,
          details: { kind: a.kind, code: "approval_same_person" },
        }).catch(() => {});
        throw new ServiceError(
          "approval_same_person",
          "another person must accept a change you proposed (whichever key or session proposed it)",
        );
      }
      ownerSelfApproved = true;
    }
    const userId = decider;
    const [row] = await tx
      .update(approvals)
      .set({
        status: accept ? "approved" : "rejected",
        decidedByUserId: userId,
        decidedAt: now,
        decisionNote: note ?? null,
        ownerSelfApproved,
        updatedAt: now,
      })
      .where(eq(approvals.id, approvalId))
      .returning();
    await applyApproval(tx, companyId, a, accept, now);
    await logActivity(tx, ctx, {
      companyId,
      action: accept ? "approval.accept" : "approval.reject",
      entityType: "approval",
      entityId: approvalId,
      details: { kind: a.kind, note: note ?? null, decidedByUserId: decider, ownerSelfApproved },
    });
    return row!;
  });
}
