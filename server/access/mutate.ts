import type { Tx } from "@/db/client";
import { type ActivityOf, withActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";
import { bumpAccessVersion } from "./snapshot";

/** Runs an access-changing mutation: activity row and access-version bump in the same transaction. */
export async function mutateAccess<T>(
  ctx: ServiceContext,
  companyId: string,
  work: (tx: Tx) => Promise<T>,
  activity: ActivityOf<T>,
): Promise<T> {
  return withActivity(
    ctx,
    companyId,
    async (tx) => {
      const result = await work(tx);
      await bumpAccessVersion(tx, companyId);
      return result;
    },
    activity,
  );
}
