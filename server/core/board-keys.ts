import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { boardApiKeys } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { mintToken } from "../auth/tokens";
import type { ServiceContext } from "../context";
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
  const minted = mintToken("boardKey");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(boardApiKeys)
      .values({
        companyId,
        createdByUserId:
          ctx.actor.type === "user"
            ? ctx.actor.userId
            : ctx.actor.type === "board_key"
              ? ctx.actor.userId
              : null,
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

export async function listBoardKeys(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "board_keys:manage");
  return ctx.db
    .select(keyColumns)
    .from(boardApiKeys)
    .where(eq(boardApiKeys.companyId, companyId))
    .orderBy(desc(boardApiKeys.createdAt));
}

export async function revokeBoardKey(ctx: ServiceContext, companyId: string, keyId: string) {
  await requireCompany(ctx, companyId, "board_keys:manage");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(boardApiKeys)
      .set({ revokedAt: ctx.now() })
      .where(
        and(
          eq(boardApiKeys.companyId, companyId),
          eq(boardApiKeys.id, keyId),
          isNull(boardApiKeys.revokedAt),
        ),
      )
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
