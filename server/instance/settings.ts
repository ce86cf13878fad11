/**
 * Instance-wide settings (key → JSON) that only instance administrators change. Each setting
 * is declared once with its zod schema and default, so a malformed stored value reads as the
 * default (fail closed: defaults are the restrictive choice) instead of crashing a request.
 */
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { instanceSettings } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";
import { invalidRequest } from "../errors";
import { requireInstanceAdmin } from "./admins";

export interface InstanceSetting<T> {
  key: string;
  schema: z.ZodType<T>;
  /** Used when nothing is stored or the stored value no longer parses: the safe choice. */
  fallback: T;
}

export const defineInstanceSetting = <T>(
  key: string,
  schema: z.ZodType<T>,
  fallback: T,
): InstanceSetting<T> => ({
  key,
  schema,
  fallback,
});

export async function readInstanceSetting<T>(db: Db | Tx, setting: InstanceSetting<T>): Promise<T> {
  const [row] = await db
    .select({ value: instanceSettings.value })
    .from(instanceSettings)
    .where(eq(instanceSettings.key, setting.key))
    .limit(1);
  if (!row) return setting.fallback;
  const parsed = setting.schema.safeParse(row.value);
  return parsed.success ? parsed.data : setting.fallback;
}

/** Stores a setting (instance admins only), with an `instance_setting.updated` activity row. */
export async function writeInstanceSetting<T>(
  ctx: ServiceContext,
  setting: InstanceSetting<T>,
  value: unknown,
): Promise<T> {
  await requireInstanceAdmin(ctx);
  const parsed = setting.schema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw invalidRequest(`invalid \`${setting.key}\`: ${first?.message ?? "malformed"}`);
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(instanceSettings)
      .values({ key: setting.key, value: parsed.data as object })
      .onConflictDoUpdate({
        target: instanceSettings.key,
        set: { value: parsed.data as object, updatedAt: sql`now()` },
      });
    await logActivity(tx, ctx, {
      companyId: null,
      action: "instance_setting.updated",
      entityType: "instance_setting",
      entityId: setting.key,
      details: { value: parsed.data as unknown as Record<string, unknown> },
    });
  });
  return parsed.data;
}
