import { eq } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { Db, Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import { boardApiKeys, companyMemberships, users } from "@/db/schema";

/**
 * Board keys with their creator's account and the creator's *current* membership in the key's
 * company, both left-joined: a missing account or membership leaves the `creator*` columns null,
 * which `boardKeyEffectiveRole` turns into "no access".
 */
export function selectBoardKeysWithCreator<T extends SelectedFields>(db: Db | Tx, columns: T) {
  return db
    .select({
      ...columns,
      creatorId: users.id,
      creatorDisabledAt: users.disabledAt,
      creatorRole: companyMemberships.role,
    })
    .from(boardApiKeys)
    .leftJoin(users, eq(users.id, boardApiKeys.createdByUserId))
    .leftJoin(
      companyMemberships,
      inCompany(
        companyMemberships,
        boardApiKeys.companyId,
        eq(companyMemberships.userId, boardApiKeys.createdByUserId),
      ),
    );
}
