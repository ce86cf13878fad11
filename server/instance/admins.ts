/**
 * Instance administrators — the host's operators. A company owner is not one: only an
 * instance admin changes what may run on, or be reached from, the host (approved stdio
 * commands, loopback/private upstream origins, instance settings). Board API keys and agent
 * keys never act as instance admins, whoever created them: they are company-scoped
 * credentials, and an instance change must come from a person's browser session or the CLI.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { instanceAdmins, users } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

export const instanceAdminRequired = () =>
  new ServiceError("instance_admin_required", "this needs an instance administrator");

export async function isInstanceAdmin(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: instanceAdmins.userId })
    .from(instanceAdmins)
    .innerJoin(users, eq(users.id, instanceAdmins.userId))
    .where(sql`${instanceAdmins.userId} = ${userId} and ${users.disabledAt} is null`)
    .limit(1);
  return Boolean(row);
}

/**
 * The first line of every instance-level verb: the system actor (CLI, start-up) passes; a
 * signed-in person passes when they are an instance admin; everything else is refused with
 * 403 `instance_admin_required` and the refusal is written to the instance activity log.
 */
export async function requireInstanceAdmin(ctx: ServiceContext): Promise<{ userId: string | null }> {
  const { actor } = ctx;
  if (actor.type === "system") return { userId: null };
  if (actor.type === "user" && (await isInstanceAdmin(ctx.db, actor.userId))) return { userId: actor.userId };
  await logActivity(ctx.db, ctx, {
    companyId: null,
    action: "instance.access_denied",
    entityType: "instance",
    details: { code: "instance_admin_required" },
  }).catch(() => {});
  throw instanceAdminRequired();
}

/**
 * Makes `userId` an instance admin when the instance has none yet (the first account of a
 * fresh install). Serialised by an advisory lock so two first sign-ups cannot both win.
 */
export async function ensureFirstInstanceAdmin(tx: Tx, userId: string): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('paperclip:first-instance-admin'))`);
  const [any] = await tx.select({ userId: instanceAdmins.userId }).from(instanceAdmins).limit(1);
  if (any) return false;
  await tx.insert(instanceAdmins).values({ userId });
  return true;
}

export interface InstanceAdminView {
  userId: string;
  email: string;
  name: string | null;
  grantedAt: Date;
}

export async function listInstanceAdmins(db: Db): Promise<InstanceAdminView[]> {
  return db
    .select({
      userId: instanceAdmins.userId,
      email: users.email,
      name: users.name,
      grantedAt: instanceAdmins.grantedAt,
    })
    .from(instanceAdmins)
    .innerJoin(users, eq(users.id, instanceAdmins.userId))
    .orderBy(asc(users.email));
}

/** The instance-wide activity row of a grant or revocation of `u`'s administration. */
function logAdminChange(
  tx: Tx,
  ctx: ServiceContext,
  change: "granted" | "revoked",
  u: { id: string; email: string },
) {
  return logActivity(tx, ctx, {
    companyId: null,
    action: `instance_admin.${change}`,
    entityType: "user",
    entityId: u.id,
    details: { email: u.email },
  });
}

async function userByEmail(db: Db | Tx, email: string) {
  const [u] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  if (!u) throw new ServiceError("not_found", `no account has the email \`${email}\``);
  return u;
}

/** Grants instance administration to an existing account (CLI or an instance admin). */
export async function grantInstanceAdmin(ctx: ServiceContext, email: string): Promise<InstanceAdminView> {
  const { userId: by } = await requireInstanceAdmin(ctx);
  return ctx.db.transaction(async (tx) => {
    const u = await userByEmail(tx, email);
    await tx
      .insert(instanceAdmins)
      .values({ userId: u.id, grantedByUserId: by })
      .onConflictDoNothing({ target: instanceAdmins.userId });
    await logAdminChange(tx, ctx, "granted", u);
    const [row] = await tx
      .select({ grantedAt: instanceAdmins.grantedAt })
      .from(instanceAdmins)
      .where(eq(instanceAdmins.userId, u.id));
    return { userId: u.id, email: u.email, name: null, grantedAt: row!.grantedAt };
  });
}

/**
 * Revokes instance administration. The last instance admin cannot be revoked (an instance
 * without an operator could never approve a command again); 409 `last_instance_admin`.
 */
export async function revokeInstanceAdmin(ctx: ServiceContext, email: string): Promise<void> {
  await requireInstanceAdmin(ctx);
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('paperclip:first-instance-admin'))`);
    const u = await userByEmail(tx, email);
    const [{ n }] = (await tx.execute(
      sql`select count(*)::int as n from instance_admins where user_id <> ${u.id}`,
    )) as unknown as [{ n: number }];
    if (Number(n) === 0)
      throw new ServiceError("last_instance_admin", "the last instance administrator cannot be revoked");
    const removed = await tx.delete(instanceAdmins).where(eq(instanceAdmins.userId, u.id)).returning();
    if (removed.length === 0)
      throw new ServiceError("not_found", `\`${email}\` is not an instance administrator`);
    await logAdminChange(tx, ctx, "revoked", u);
  });
}
