/** The catalogue verbs of a connection: list, refresh from the upstream, review, override risk. */

import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { companyRow } from "@/db/join";
import { toolCatalogEntries, toolConnections } from "@/db/schema";
import type {
  CatalogRefreshResult,
  CatalogReviewResult,
  ConnectionCatalogEntry,
} from "@/server/contracts/api/catalog";
import type { Served } from "@/server/contracts/api/common";
import { RISKS } from "@/server/contracts/values";
import { mutateAccess } from "../access/mutate";
import { ofConnection } from "../access/rows";
import { requireCompany } from "../auth/authorize";
import { refreshConnectionCatalog } from "../catalog/refresh";
import { reviewFindings } from "../catalog/review-findings";
import { loadConnection } from "../connectors/connection";
import { actorUserId, type ServiceContext } from "../context";
import { conflict, notFound } from "../errors";

export const ReviewCatalogInput = z.object({
  entries: z
    .array(z.object({ id: z.uuid(), action: z.enum(["approve", "disable"]) }))
    .min(1)
    .max(1000),
});
export type ReviewCatalogInput = z.infer<typeof ReviewCatalogInput>;

/**
 * Refreshes the catalog from the upstream (`server/catalog/refresh.ts`) and answers with the
 * summary and the entries as they now are.
 */
export async function refreshCatalog(ctx: ServiceContext, companyId: string, connectionId: string) {
  const summary = await refreshConnectionCatalog(ctx, companyId, connectionId);
  return {
    ...summary,
    entries: await listCatalog(ctx, companyId, connectionId),
  } satisfies Served<typeof CatalogRefreshResult>;
}

export async function listCatalog(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "company:read");
  await loadConnection(ctx.db, companyId, connectionId);
  const rows = await ctx.db
    .select()
    .from(toolCatalogEntries)
    .where(ofConnection(toolCatalogEntries, companyId, connectionId))
    .orderBy(asc(toolCatalogEntries.name));
  return rows.map((row) => ({
    ...row,
    findings: reviewFindings({ ...row, risk: row.riskOverride ?? row.risk }),
  })) satisfies Served<typeof ConnectionCatalogEntry>[];
}

/** Approves (activates) or disables catalog entries; records the reviewed version. */
export async function reviewCatalog(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  input: ReviewCatalogInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  await loadConnection(ctx.db, companyId, connectionId);
  const reviewer = actorUserId(ctx.actor);
  await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const now = ctx.now();
      for (const e of input.entries) {
        const [row] = await tx
          .select()
          .from(toolCatalogEntries)
          .where(ofConnection(toolCatalogEntries, companyId, connectionId, eq(toolCatalogEntries.id, e.id)))
          .for("update");
        if (!row) throw notFound("catalog entry");
        if (row.status === "removed")
          throw conflict("entry_removed", `\`${row.name}\` is no longer offered upstream`);
        if (e.action === "approve" && row.schemaProblem)
          throw conflict("tool_schema_unusable", `\`${row.name}\` cannot be approved: ${row.schemaProblem}`);
        await tx
          .update(toolCatalogEntries)
          .set({
            status: e.action === "approve" ? "active" : "disabled",
            reviewedAt: now,
            reviewedByUserId: reviewer,
            reviewedVersion:
              e.action === "approve"
                ? {
                    name: row.name,
                    title: row.title,
                    description: row.description,
                    inputSchema: row.inputSchema,
                    annotations: row.annotations,
                    schemaHash: row.schemaHash,
                    versionHash: row.versionHash,
                  }
                : row.reviewedVersion,
            updatedAt: now,
          })
          .where(eq(toolCatalogEntries.id, row.id));
      }
      await tx
        .update(toolConnections)
        .set({ catalogReviewedAt: now, updatedAt: now })
        .where(companyRow(toolConnections, companyId, connectionId));
      return input.entries.length;
    },
    () => ({
      action: "tool_connection.catalog_review",
      entityType: "tool_connection",
      entityId: connectionId,
      details: { entries: input.entries },
    }),
  );
  return {
    reviewed: input.entries.length,
    entries: await listCatalog(ctx, companyId, connectionId),
  } satisfies Served<typeof CatalogReviewResult>;
}

export const OverrideRiskInput = z.object({
  /** null clears the override (back to the classifier's risk). */
  risk: z.enum(RISKS).nullable(),
  reason: z.string().trim().min(1).max(500),
});
export type OverrideRiskInput = z.infer<typeof OverrideRiskInput>;

/**
 * An admin's risk override for one catalog entry (audited with the reason). Upstream
 * annotations never lower risk on their own; a person may, with a recorded reason.
 */
export async function overrideRisk(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  entryId: string,
  input: OverrideRiskInput,
) {
  return updateCatalogEntry(
    ctx,
    companyId,
    connectionId,
    entryId,
    { riskOverride: input.risk },
    (before) => ({
      action: "tool_catalog_entry.risk_override",
      details: {
        tool: before.name,
        classified: before.risk,
        from: before.riskOverride,
        to: input.risk,
        reason: input.reason,
      },
    }),
  );
}

/**
 * One admin change of one catalog entry of a connection: the row locked, updated and audited
 * in one access mutation (which bumps the access version). 404 for an entry of another
 * connection or company.
 */
async function updateCatalogEntry(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  entryId: string,
  set: Partial<typeof toolCatalogEntries.$inferInsert>,
  audit: (before: typeof toolCatalogEntries.$inferSelect) => {
    action: string;
    details: Record<string, unknown>;
  },
) {
  await requireCompany(ctx, companyId, "tools:admin");
  await loadConnection(ctx.db, companyId, connectionId);
  return mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const [before] = await tx
        .select()
        .from(toolCatalogEntries)
        .where(ofConnection(toolCatalogEntries, companyId, connectionId, eq(toolCatalogEntries.id, entryId)))
        .for("update");
      if (!before) throw notFound("catalog entry");
      const [row] = await tx
        .update(toolCatalogEntries)
        .set({ ...set, updatedAt: ctx.now() })
        .where(eq(toolCatalogEntries.id, entryId))
        .returning();
      return { entry: row!, before };
    },
    (r) => ({ entityType: "tool_catalog_entry", entityId: entryId, ...audit(r.before) }),
  ).then((r) => r.entry);
}

export const SetRepeatableInput = z.object({
  repeatable: z.boolean(),
  /** Why (kept in the activity log); optional, as a toggle's context is often obvious. */
  reason: z.string().trim().min(1).max(500).optional(),
});
export type SetRepeatableInput = z.infer<typeof SetRepeatableInput>;

/**
 * Marks one catalog entry repeatable or not (audited, bumps the access version so the next
 * call uses it). A repeatable write's calls without an explicit idempotency key are each run
 * anew, never replayed from the ledger; calls with a key still replay (docs/access.md).
 */
export async function setRepeatable(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  entryId: string,
  input: SetRepeatableInput,
) {
  const entry = await updateCatalogEntry(
    ctx,
    companyId,
    connectionId,
    entryId,
    { repeatable: input.repeatable },
    (before) => ({
      action: "tool_catalog_entry.repeatable",
      details: {
        tool: before.name,
        from: before.repeatable,
        to: input.repeatable,
        ...(input.reason ? { reason: input.reason } : {}),
      },
    }),
  );
  return { ...entry, findings: reviewFindings({ ...entry, risk: entry.riskOverride ?? entry.risk }) };
}
