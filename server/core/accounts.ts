/**
 * Disabling and re-enabling a person's account (instance administrators and the CLI). A
 * disabled account is refused everywhere at once (sessions, board keys, assistant connections
 * check `users.disabled_at`); disabling also ends its browser sessions and revokes its
 * assistant connections in every company for good, so enabling it again revives no session
 * and no connection: the person signs in and consents again.
 */
import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { users } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import { endUserSessions } from "../auth/sessions";
import type { ServiceContext } from "../context";
import { forbidden, ServiceError } from "../errors";
import { requireInstanceAdmin } from "../instance/admins";
import { revokeMemberGrants } from "../oauth/store";

async function lockAccount(tx: Tx, email: string) {
  const [u] = await tx
    .select({ id: users.id, email: users.email, disabledAt: users.disabledAt })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .for("update");
  if (!u) throw new ServiceError("not_found", `no account has the email \`${email.slice(0, 320)}\``);
  return u;
}

/**
 * Disables an account: in one transaction `disabled_at` is set, its sessions end and every
 * assistant connection of the person is revoked (`member_disabled`, with tokens and event
 * subscriptions). An instance administrator cannot disable their own account. Idempotent.
 */
export async function disableAccount(ctx: ServiceContext, email: string) {
  const { userId: by } = await requireInstanceAdmin(ctx);
  return ctx.db.transaction(async (tx) => {
    const u = await lockAccount(tx, email);
    if (u.id === by) throw forbidden("you cannot disable your own account");
    if (u.disabledAt) return { userId: u.id, disabled: true, sessionsEnded: 0, connectionsRevoked: 0 };
    await tx.update(users).set({ disabledAt: ctx.now(), updatedAt: ctx.now() }).where(eq(users.id, u.id));
    const sessionsEnded = await endUserSessions(tx, u.id);
    const connectionsRevoked = await revokeMemberGrants(tx, ctx, {
      userId: u.id,
      companyId: null,
      reason: "member_disabled",
    });
    await logActivity(tx, ctx, {
      companyId: null,
      action: "user.disable",
      entityType: "user",
      entityId: u.id,
      details: { sessionsEnded, connectionsRevoked },
    });
    return { userId: u.id, disabled: true, sessionsEnded, connectionsRevoked };
  });
}

/** Enables a disabled account again. Nothing revoked by the disable comes back. Idempotent. */
export async function enableAccount(ctx: ServiceContext, email: string) {
  await requireInstanceAdmin(ctx);
  return ctx.db.transaction(async (tx) => {
    const u = await lockAccount(tx, email);
    if (!u.disabledAt) return { userId: u.id, disabled: false };
    await tx.update(users).set({ disabledAt: null, updatedAt: ctx.now() }).where(eq(users.id, u.id));
    await logActivity(tx, ctx, {
      companyId: null,
      action: "user.enable",
      entityType: "user",
      entityId: u.id,
    });
    return { userId: u.id, disabled: false };
  });
}
