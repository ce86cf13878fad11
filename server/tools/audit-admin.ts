import { and, desc, eq, gte, inArray, lte, not, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import {
  activityLog,
  agents,
  companySecrets,
  toolApplications,
  toolConnections,
  toolPolicies,
  toolProfiles,
  users,
} from "@/db/schema";
import type { AdminChangesPage } from "@/server/contracts/api/audit";
import type { Served } from "@/server/contracts/api/common";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { afterCursor, cursorAtSql, nextCursor } from "./keyset";

const Instant = z
  .string()
  .trim()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), "a date and time (ISO 8601, e.g. 2026-12-01T00:00:00Z)");

export const AdminChangesQuery = z.object({
  /** `admin` (default) leaves out the work trail of issues and runs; `all` keeps it. */
  scope: z.enum(["admin", "all"]).default("admin"),
  from: Instant.optional(),
  to: Instant.optional(),
  /** An action prefix (`tool_policy`, `tool_connection.catalog_review`). */
  action: z
    .string()
    .trim()
    .regex(/^[a-z_.]{1,100}$/, "an action or action prefix such as `tool_policy`")
    .optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AdminChangesQuery = z.infer<typeof AdminChangesQuery>;

/** The work trail (issues, comments, runs): activity of the work itself, not administration. */
export const WORK_TRAIL_ENTITY_TYPES = ["issue", "heartbeat_run"];
const WORK_TRAIL_ACTION = /^(issue|run)\./;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Entity types whose rows have a name, and the company-owned table to find it in. */
const NAMED = {
  tool_policy: toolPolicies,
  tool_connection: toolConnections,
  tool_application: toolApplications,
  tool_profile: toolProfiles,
  agent: agents,
  company_secret: companySecrets,
} as const;

/**
 * Administrative changes of a company (the activity log), newest first: who did what to which
 * object. Names of actors and objects are looked up in this company only.
 */
export async function listAdminChanges(
  ctx: ServiceContext,
  companyId: string,
  q: AdminChangesQuery,
): Promise<Served<typeof AdminChangesPage>> {
  await requireCompany(ctx, companyId, "tools:view_audit");
  const conds: SQL[] = [eq(activityLog.companyId, companyId)];
  if (q.scope === "admin") {
    conds.push(not(inArray(activityLog.entityType, WORK_TRAIL_ENTITY_TYPES)));
    conds.push(sql`${activityLog.action} !~ ${WORK_TRAIL_ACTION.source}`);
  }
  if (q.from) conds.push(gte(activityLog.createdAt, new Date(Date.parse(q.from))));
  if (q.to) conds.push(lte(activityLog.createdAt, new Date(Date.parse(q.to))));
  if (q.action) conds.push(sql`starts_with(${activityLog.action}, ${q.action})`);
  if (q.cursor) conds.push(afterCursor(q.cursor, activityLog.createdAt, activityLog.id));
  const rows = await ctx.db
    .select({
      id: activityLog.id,
      createdAt: activityLog.createdAt,
      cursorAt: cursorAtSql(activityLog.createdAt),
      actorType: activityLog.actorType,
      actorId: activityLog.actorId,
      action: activityLog.action,
      entityType: activityLog.entityType,
      entityId: activityLog.entityId,
      details: activityLog.details,
      actorName: sql<string | null>`coalesce(${users.name}, ${users.email}, ${agents.name})`,
    })
    .from(activityLog)
    .leftJoin(users, sql`${activityLog.actorType} = 'user' and ${users.id}::text = ${activityLog.actorId}`)
    .leftJoin(
      agents,
      sql`${activityLog.actorType} = 'agent' and ${agents.companyId} = ${activityLog.companyId} and ${agents.id}::text = ${activityLog.actorId}`,
    )
    .where(and(...conds))
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const names = await entityNames(ctx, companyId, page);
  return {
    changes: page.map(({ cursorAt: _c, ...r }) => ({
      ...r,
      entityName: r.entityId ? (names.get(`${r.entityType}:${r.entityId}`) ?? null) : null,
    })),
    nextCursor: nextCursor(rows.length > q.limit, last),
  };
}

async function entityNames(
  ctx: ServiceContext,
  companyId: string,
  rows: { entityType: string; entityId: string | null }[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(
    Object.entries(NAMED).map(async ([type, table]) => {
      const ids = [
        ...new Set(
          rows
            .filter((r) => r.entityType === type && r.entityId && UUID.test(r.entityId))
            .map((r) => r.entityId!),
        ),
      ];
      if (ids.length === 0) return;
      const found = await ctx.db
        .select({ id: table.id, name: table.name })
        .from(table)
        .where(and(eq(table.companyId, companyId), inArray(table.id, ids)));
      for (const f of found) out.set(`${type}:${f.id}`, f.name);
    }),
  );
  return out;
}
