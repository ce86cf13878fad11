import { desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { inCompany } from "@/db/join";
import { boardApiKeys, users } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { BoardKey } from "@/server/contracts/api/core";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { selectBoardKeysWithCreator } from "../auth/board-key-creator";
import { boardKeyEffectiveRole } from "../auth/capabilities";
import { mintToken } from "../auth/tokens";
import { actorUserId, type ServiceContext } from "../context";
import { forbidden, notFound } from "../errors";

export const CreateBoardKeyInput = z.object({
  name: z.string().trim().min(1).max(100),
  role: z.enum(["admin", "member", "viewer"]).default("admin"),
});
export type CreateBoardKeyInput = z.infer<typeof CreateBoardKeyInput>;

const RANK = { viewer: 0, member: 1, admin: 2, owner: 3 } as const;

const keyColumns = {
  id: boardApiKeys.id,
  companyId: boardApiKeys.companyId,
  name: boardApiKeys.name,
  role: boardApiKeys.role,
  prefix: boardApiKeys.prefix,
  createdAt: boardApiKeys.createdAt,
  lastUsedAt: boardApiKeys.lastUsedAt,
  revokedAt: boardApiKeys.revokedAt,
};

/** Mints a board API key. The plaintext is in this response only; the table keeps its SHA-256. */
export async function createBoardKey(ctx: ServiceContext, companyId: string, input: CreateBoardKeyInput) {
  const access = await requireCompany(ctx, companyId, "board_keys:manage");
  // A key never outranks the person (or key) that made it.
  if (RANK[input.role] > RANK[access.role])
    throw forbidden(`you cannot create a key with role \`${input.role}\``);
  // A key acts for a person and is bounded by their membership: without one it could never work.
  const creator = actorUserId(ctx.actor);
  if (!creator) throw forbidden("a board key is created by a person");
  const minted = mintToken("boardKey");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(boardApiKeys)
      .values({
        companyId,
        createdByUserId: creator,
        name: input.name,
        role: input.role,
        prefix: minted.displayPrefix,
        keyHash: minted.hash,
      })
      .returning(keyColumns);
    await logActivity(tx, ctx, {
      companyId,
      action: "board_key.create",
      entityType: "board_api_key",
      entityId: row!.id,
      details: { name: input.name, role: input.role, prefix: minted.displayPrefix },
    });
    return { ...row!, key: minted.token };
  });
}

/**
 * The company's board keys with their state: `active` (acting with `effectiveRole`, the lesser
 * of the key's role and its creator's current role), `revoked`, or `creator_inactive` (the
 * creator was removed from the company, disabled or deleted: the key is refused, 401
 * `key_revoked`).
 */
export async function listBoardKeys(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "board_keys:manage");
  const rows = await selectBoardKeysWithCreator(ctx.db, {
    ...keyColumns,
    createdByUserId: boardApiKeys.createdByUserId,
    creatorEmail: users.email,
  })
    .where(eq(boardApiKeys.companyId, companyId))
    .orderBy(desc(boardApiKeys.createdAt));
  return rows.map(({ creatorId, creatorDisabledAt, creatorRole, ...k }) => {
    const effectiveRole = boardKeyEffectiveRole({ role: k.role, creatorId, creatorDisabledAt, creatorRole });
    return {
      ...k,
      status: k.revokedAt ? "revoked" : effectiveRole ? "active" : "creator_inactive",
      effectiveRole: k.revokedAt ? null : effectiveRole,
    } satisfies Served<typeof BoardKey>;
  });
}

export async function revokeBoardKey(ctx: ServiceContext, companyId: string, keyId: string) {
  await requireCompany(ctx, companyId, "board_keys:manage");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(boardApiKeys)
      .set({ revokedAt: ctx.now() })
      .where(inCompany(boardApiKeys, companyId, eq(boardApiKeys.id, keyId), isNull(boardApiKeys.revokedAt)))
      .returning(keyColumns);
    if (!row) throw notFound("board key");
    await logActivity(tx, ctx, {
      companyId,
      action: "board_key.revoke",
      entityType: "board_api_key",
      entityId: keyId,
    });
    return row;
  });
}
