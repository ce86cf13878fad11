import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { passwordSetTokens, users } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { PasswordChanged, SignedOutEverywhere } from "@/server/contracts/api/records";
import { logActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";
import { forbidden, ServiceError } from "../errors";
import { hashPassword, verifyPassword } from "./password";
import { endUserSessions } from "./sessions";
import { signInThrottled } from "./sign-in";
import { ACCOUNT_RULE, accountKey, reserveAttempt, settleAttempt } from "./throttle";
import { hashToken } from "./tokens";

/** Passwords: 12 to 1024 characters (length is what makes a password strong). */
export const NewPassword = z.string().min(12, "at least 12 characters").max(1024);

export const ChangePasswordInput = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: NewPassword,
});
export const SetPasswordInput = z.object({
  token: z.string().min(10).max(200),
  password: NewPassword,
});

function signedInUser(ctx: ServiceContext) {
  if (ctx.actor.type !== "user") throw forbidden("only a signed-in person can do this");
  return ctx.actor;
}

/** Ends every browser session of the signed-in user, this one included ("sign out everywhere"). */
export async function signOutEverywhere(ctx: ServiceContext) {
  const actor = signedInUser(ctx);
  return ctx.db.transaction(async (tx) => {
    const ended = await endUserSessions(tx, actor.userId);
    await logActivity(tx, ctx, {
      companyId: null,
      action: "auth.sign_out_everywhere",
      entityType: "user",
      entityId: actor.userId,
      details: { sessions: ended },
    });
    return { ended } satisfies Served<typeof SignedOutEverywhere>;
  });
}

/** Changes the signed-in user's password; every other session of theirs ends. */
export async function changePassword(ctx: ServiceContext, input: z.infer<typeof ChangePasswordInput>) {
  const actor = signedInUser(ctx);
  const [user] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId));
  // The current password is guessed against the same account throttle as sign-in, so a
  // stolen session cannot be used to brute-force it.
  const keys = [{ key: accountKey(actor.email), rule: ACCOUNT_RULE }];
  const reserved = await reserveAttempt(ctx.db, keys, ctx.now());
  if (!reserved.ok) throw signInThrottled(reserved.retryAfterMs);
  const ok = Boolean(user && (await verifyPassword(input.currentPassword, user.passwordHash)));
  await settleAttempt(ctx.db, keys, ok, ctx.now());
  if (!ok) throw ServiceError.withStatus("invalid_credentials", 403, "the current password is incorrect");
  const passwordHash = await hashPassword(input.newPassword);
  return ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, actor.userId));
    const ended = await endUserSessions(tx, actor.userId, actor.sessionId ?? null);
    await logActivity(tx, ctx, {
      companyId: null,
      action: "auth.password_changed",
      entityType: "user",
      entityId: actor.userId,
      details: { otherSessionsEnded: ended },
    });
    return { otherSessionsEnded: ended } satisfies Served<typeof PasswordChanged>;
  });
}

/**
 * Redeems a one-time set-password link: single use (a conditional update claims it), unexpired;
 * sets the password and ends any session of the account. Unknown, used and expired links get
 * the same answer.
 */
export async function redeemPasswordLink(ctx: ServiceContext, input: z.infer<typeof SetPasswordInput>) {
  const now = ctx.now();
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordSetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordSetTokens.tokenHash, hashToken(input.token)),
          isNull(passwordSetTokens.usedAt),
          gt(passwordSetTokens.expiresAt, now),
        ),
      )
      .returning({ userId: passwordSetTokens.userId });
    if (!claimed)
      throw new ServiceError("password_link_invalid", "the link is unknown, already used or expired");
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, claimed.userId), isNull(users.disabledAt)))
      .returning({ id: users.id, email: users.email });
    if (!user)
      throw new ServiceError("password_link_invalid", "the link is unknown, already used or expired");
    await endUserSessions(tx, user.id);
    await logActivity(
      tx,
      { ...ctx, actor: { type: "user", userId: user.id, email: user.email } },
      { companyId: null, action: "auth.password_set", entityType: "user", entityId: user.id },
    );
    return { email: user.email };
  });
}
