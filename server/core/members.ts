import { asc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import { companyMemberships, passwordSetTokens, users } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Member } from "@/server/contracts/api/members";
import { MEMBERSHIP_ROLES } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { endUserSessions } from "../auth/sessions";
import { mintToken } from "../auth/tokens";
import { publicOrigin } from "../config/proxy";
import { actorUserId, type ServiceContext } from "../context";
import { conflict, notFound } from "../errors";
import { revokeMemberGrants } from "../oauth/store";

/** One-time set-password links live three days. */
export const PASSWORD_LINK_TTL_MS = 72 * 60 * 60 * 1000;

export const AddMemberInput = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  name: z.string().trim().min(1).max(120).optional(),
  role: z.enum(MEMBERSHIP_ROLES).default("member"),
});
export const ChangeMemberRoleInput = z.object({ role: z.enum(MEMBERSHIP_ROLES) });
export const MemberParams = z.object({ companyId: z.uuid(), userId: z.uuid() });

const memberColumns = {
  userId: users.id,
  email: users.email,
  name: users.name,
  role: companyMemberships.role,
  joinedAt: companyMemberships.createdAt,
  disabled: sql<boolean>`${users.disabledAt} is not null`,
  passwordSet: sql<boolean>`${users.passwordHash} is not null`,
};

/** Members of a company with their roles (any member may read it). */
export async function listMembers(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await ctx.db
    .select(memberColumns)
    .from(companyMemberships)
    .innerJoin(users, eq(users.id, companyMemberships.userId))
    .where(eq(companyMemberships.companyId, companyId))
    .orderBy(asc(users.email));
  return rows satisfies Served<typeof Member>[];
}

/**
 * Adds a person to the company. A new email gets an account without a password and a one-time
 * set-password link, returned here only (there is no email sending): the owner hands it over.
 */
export async function addMember(
  ctx: ServiceContext,
  companyId: string,
  input: z.infer<typeof AddMemberInput>,
) {
  await requireCompany(ctx, companyId, "members:manage");
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    let [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, input.email))
      .for("update");
    let link: { token: string } | null = null;
    if (!user) {
      [user] = await tx
        .insert(users)
        .values({ email: input.email, name: input.name ?? null })
        .returning({ id: users.id });
      const minted = mintToken("passwordSet");
      await tx.insert(passwordSetTokens).values({
        userId: user!.id,
        tokenHash: minted.hash,
        createdByUserId: actorUserId(ctx.actor),
        expiresAt: new Date(now.getTime() + PASSWORD_LINK_TTL_MS),
      });
      link = { token: minted.token };
    }
    const inserted = await tx
      .insert(companyMemberships)
      .values({ companyId, userId: user!.id, role: input.role })
      .onConflictDoNothing()
      .returning({ id: companyMemberships.id });
    if (inserted.length === 0) throw conflict("already_member", "this person is already a member");
    await logActivity(tx, ctx, {
      companyId,
      action: "member.add",
      entityType: "user",
      entityId: user!.id,
      details: { role: input.role, accountCreated: Boolean(link) },
    });
    const [member] = await tx
      .select(memberColumns)
      .from(companyMemberships)
      .innerJoin(users, eq(users.id, companyMemberships.userId))
      .where(inCompany(companyMemberships, companyId, eq(companyMemberships.userId, user!.id)));
    const path = link ? `/set-password#token=${link.token}` : null;
    return {
      member: member!,
      // Shown once: only the token's SHA-256 is stored.
      setPasswordPath: path,
      setPasswordUrl: path ? `${publicOrigin()}${path}` : null,
      setPasswordExpiresAt: link ? new Date(now.getTime() + PASSWORD_LINK_TTL_MS).toISOString() : null,
    };
  });
}

/**
 * Locks the target's membership and every owner's (in id order, so concurrent changes cannot
 * deadlock), so two owners demoting each other cannot leave the company without one.
 */
async function lockForChange(tx: Tx, companyId: string, userId: string) {
  const rows = await tx
    .select({ id: companyMemberships.id, userId: companyMemberships.userId, role: companyMemberships.role })
    .from(companyMemberships)
    .where(
      inCompany(
        companyMemberships,
        companyId,
        or(eq(companyMemberships.role, "owner"), eq(companyMemberships.userId, userId)),
      ),
    )
    .orderBy(asc(companyMemberships.id))
    .for("update");
  const target = rows.find((r) => r.userId === userId);
  if (!target) throw notFound("member");
  const owners = rows.filter((r) => r.role === "owner").length;
  return { target, owners };
}

const lastOwner = () =>
  conflict(
    "last_owner",
    "the company's last owner cannot be removed or demoted: make someone else owner first",
  );

/**
 * Changes a member's role; the last owner cannot be demoted. Their board keys follow at once;
 * their assistant connections whose scopes the new role no longer covers are revoked for good
 * in the same transaction (`role_reduced`), the others keep working.
 */
export async function changeMemberRole(
  ctx: ServiceContext,
  companyId: string,
  userId: string,
  input: z.infer<typeof ChangeMemberRoleInput>,
) {
  await requireCompany(ctx, companyId, "members:manage", "member");
  return ctx.db.transaction(async (tx) => {
    const { target, owners } = await lockForChange(tx, companyId, userId);
    if (target.role === "owner" && input.role !== "owner" && owners <= 1) throw lastOwner();
    await tx
      .update(companyMemberships)
      .set({ role: input.role, updatedAt: ctx.now() })
      .where(eq(companyMemberships.id, target.id));
    const connectionsRevoked = await revokeMemberGrants(tx, ctx, {
      userId,
      companyId,
      reason: "role_reduced",
      role: input.role,
    });
    await logActivity(tx, ctx, {
      companyId,
      action: "member.role_change",
      entityType: "user",
      entityId: userId,
      details: { from: target.role, to: input.role, connectionsRevoked },
    });
    return { userId, role: input.role };
  });
}

/**
 * Removes a member; the last owner cannot be removed. Their board keys stop at once (the key
 * check joins the membership); removal from their last company also ends their sessions. Their
 * assistant connections to the company are revoked for good in the same transaction
 * (`member_removed`, with tokens and event subscriptions): re-adding them needs a new consent.
 */
export async function removeMember(ctx: ServiceContext, companyId: string, userId: string) {
  await requireCompany(ctx, companyId, "members:manage", "member");
  return ctx.db.transaction(async (tx) => {
    const { target, owners } = await lockForChange(tx, companyId, userId);
    if (target.role === "owner" && owners <= 1) throw lastOwner();
    await tx.delete(companyMemberships).where(eq(companyMemberships.id, target.id));
    const [rest] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(companyMemberships)
      .where(eq(companyMemberships.userId, userId));
    const sessionsEnded = rest!.n === 0 ? await endUserSessions(tx, userId) : 0;
    const connectionsRevoked = await revokeMemberGrants(tx, ctx, {
      userId,
      companyId,
      reason: "member_removed",
    });
    await logActivity(tx, ctx, {
      companyId,
      action: "member.remove",
      entityType: "user",
      entityId: userId,
      details: { role: target.role, sessionsEnded, connectionsRevoked },
    });
    return { userId, removed: true };
  });
}
