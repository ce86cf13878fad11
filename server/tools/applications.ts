import { asc, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { toolApplications, toolCatalogEntries, toolConnections } from "@/db/schema";
import type { Application, ApplicationRecord } from "@/server/contracts/api/applications";
import type { Served } from "@/server/contracts/api/common";
import { APPLICATION_TYPES, RISKS } from "@/server/contracts/values";
import { mutateAccess } from "../access/mutate";
import { companyRows, insertRow, lockCompanyRow } from "../access/rows";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { conflict } from "../errors";

export const CreateApplicationInput = z.object({
  slug: z
    .string()
    .trim()
    .regex(
      /^[a-z][a-z0-9-]{0,47}$/,
      "lowercase letters, digits and dashes, starting with a letter (agents see `<slug>__<tool>`)",
    ),
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(2000).optional(),
  type: z.enum(APPLICATION_TYPES),
});
export type CreateApplicationInput = z.infer<typeof CreateApplicationInput>;

export const UpdateApplicationInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(2000).nullable().optional(),
    /** Archiving is final: an archived application's tools are refused and it cannot come back. */
    status: z.literal("archived").optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "nothing to change");
export type UpdateApplicationInput = z.infer<typeof UpdateApplicationInput>;

export async function listApplications(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const apps = await companyRows(ctx.db, toolApplications, companyId, asc(toolApplications.name));
  const conns = await ctx.db
    .select({ applicationId: toolConnections.applicationId, status: toolConnections.status, n: count() })
    .from(toolConnections)
    .where(eq(toolConnections.companyId, companyId))
    .groupBy(toolConnections.applicationId, toolConnections.status);
  const tools = await ctx.db
    .select({
      applicationId: toolConnections.applicationId,
      status: toolCatalogEntries.status,
      risk: sql<string>`coalesce(${toolCatalogEntries.riskOverride}, ${toolCatalogEntries.risk})`,
      n: count(),
    })
    .from(toolCatalogEntries)
    .innerJoin(
      toolConnections,
      companyRow(toolConnections, toolCatalogEntries.companyId, toolCatalogEntries.connectionId),
    )
    .where(eq(toolCatalogEntries.companyId, companyId))
    .groupBy(
      toolConnections.applicationId,
      toolCatalogEntries.status,
      sql`coalesce(${toolCatalogEntries.riskOverride}, ${toolCatalogEntries.risk})`,
    );
  return apps.map((a) => ({
    ...a,
    connections: Object.fromEntries(
      conns.filter((c) => c.applicationId === a.id).map((c) => [c.status, c.n]),
    ),
    tools: {
      total: tools.filter((t) => t.applicationId === a.id).reduce((s, t) => s + t.n, 0),
      quarantined: tools
        .filter((t) => t.applicationId === a.id && t.status === "quarantined")
        .reduce((s, t) => s + t.n, 0),
      byRisk: Object.fromEntries(
        RISKS.map((r) => [
          r,
          tools.filter((t) => t.applicationId === a.id && t.risk === r).reduce((s, t) => s + t.n, 0),
        ]),
      ),
    },
  })) satisfies Served<typeof Application>[];
}

export async function createApplication(
  ctx: ServiceContext,
  companyId: string,
  input: CreateApplicationInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  return mutateAccess(
    ctx,
    companyId,
    async (tx) =>
      (await insertRow(tx, toolApplications, {
        companyId,
        ...input,
        ownerUserId: ctx.actor.type === "user" ? ctx.actor.userId : null,
      })) satisfies Served<typeof ApplicationRecord>,
    (a) => ({
      action: "tool_application.create",
      entityType: "tool_application",
      entityId: a.id,
      details: { slug: a.slug, type: a.type },
    }),
  );
}

export async function updateApplication(
  ctx: ServiceContext,
  companyId: string,
  applicationId: string,
  input: UpdateApplicationInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  return mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const current = await lockCompanyRow(tx, toolApplications, companyId, applicationId, "application");
      if (current.status === "archived")
        throw conflict("application_archived", "the application is archived; archiving is final");
      const now = ctx.now();
      const [row] = await tx
        .update(toolApplications)
        .set({ ...input, updatedAt: now, archivedAt: input.status === "archived" ? now : undefined })
        .where(companyRow(toolApplications, companyId, applicationId))
        .returning();
      if (input.status === "archived") {
        // Its connections are archived with it (also final).
        await tx
          .update(toolConnections)
          .set({ status: "archived", enabled: false, archivedAt: now, updatedAt: now })
          .where(inCompany(toolConnections, companyId, eq(toolConnections.applicationId, applicationId)));
      }
      return row! satisfies Served<typeof ApplicationRecord>;
    },
    (a) => ({
      action: input.status === "archived" ? "tool_application.archive" : "tool_application.update",
      entityType: "tool_application",
      entityId: a.id,
      details: { ...input },
    }),
  );
}
