import { eq, inArray } from "drizzle-orm";
import { companyRow, inCompany } from "@/db/join";
import { toolCatalogEntries, toolConnections } from "@/db/schema";
import { compileInputSchema } from "../access/argument-schema";
import { mutateAccess } from "../access/mutate";
import { requireCompany } from "../auth/authorize";
import { listUpstreamTools, upstreamTargetFor } from "../connectors";
import { loadConnection } from "../connectors/connection";
import { classifyUpstreamError } from "../connectors/test-errors";
import type { ServiceContext } from "../context";
import { jsonShapeProblem } from "../contracts/json-shape";
import { conflict, ServiceError } from "../errors";
import { logWarn } from "../log";
import { classifyRisk, sanitizeText, type ToolMetadata, toolHashes } from "./classify";

/** Upstream tool metadata → the catalog form, with untrusted text sanitised and bounded. */
export function normalizeTool(t: ToolMetadata) {
  const name = sanitizeText(t.name, 128) ?? "";
  let inputSchema: Record<string, unknown> =
    t.inputSchema && typeof t.inputSchema === "object" && !Array.isArray(t.inputSchema)
      ? t.inputSchema
      : { type: "object" };
  let annotations =
    t.annotations && typeof t.annotations === "object" && !Array.isArray(t.annotations)
      ? t.annotations
      : null;
  // Upstream metadata is bounded before anything recursive (hashing, storage) touches it.
  if (annotations && jsonShapeProblem(annotations, { maxDepth: 8, maxBytes: 16 * 1024 })) annotations = null;
  const compiled = compileInputSchema(inputSchema);
  const schemaProblem = compiled.ok ? null : compiled.problem;
  if (schemaProblem) {
    // A stand-in that refuses every call; the tool stays quarantined with the reason.
    inputSchema = { type: "object", not: {}, "x-paperclip-schema-problem": schemaProblem };
  }
  const clean: ToolMetadata = {
    name,
    title: sanitizeText(t.title, 200),
    description: sanitizeText(t.description, 2000),
    inputSchema,
    annotations,
  };
  return { ...clean, ...toolHashes(clean), risk: classifyRisk(clean), schemaProblem };
}

/** The catalog columns an upstream tool describes (written when it appears and when it changes). */
function upstreamColumns(t: ReturnType<typeof normalizeTool>) {
  return {
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: t.annotations,
    schemaHash: t.schemaHash,
    versionHash: t.versionHash,
    risk: t.risk,
    schemaProblem: t.schemaProblem,
  };
}

/**
 * Refreshes the catalog from the upstream. New write and destructive tools, and any tool
 * whose version hash changed, are quarantined until reviewed; new reads activate only when
 * the connection allows it; tools that disappeared become `removed`. Checks the actor first
 * (`tools:manage_connections`); the admin verb `refreshCatalog` in `server/tools/` and the
 * `tools/list_changed` watcher call it.
 */
export async function refreshConnectionCatalog(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  if (connection.status === "archived") throw conflict("connection_archived", "the connection is archived");
  let listed: ToolMetadata[];
  try {
    const target = await upstreamTargetFor(ctx.db, {
      companyId,
      application,
      connection,
      purpose: "catalog",
      actor: ctx.actor,
    });
    listed = await listUpstreamTools(target, { fresh: true });
  } catch (err) {
    // As for the connection test: a classified code and our sentence, never upstream text.
    const classified = classifyUpstreamError(err);
    logWarn("tool_connection.catalog_refresh_failed", {
      companyId,
      connectionId,
      code: classified.code,
      message: err instanceof Error ? err.message : String(err),
    });
    throw new ServiceError(classified.code, classified.message, classified.details);
  }
  const upstream = listed.map(normalizeTool).filter((t) => /^[A-Za-z0-9_.-]{1,128}$/.test(t.name));
  const seen = new Map(upstream.map((t) => [t.name, t]));
  const summary = {
    added: 0,
    changed: 0,
    unchanged: 0,
    removed: 0,
    quarantined: 0,
    /** Tools quarantined because their input schema cannot be used, with the reason. */
    unusableSchemas: [] as { name: string; problem: string }[],
  };
  await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const existing = await tx
        .select()
        .from(toolCatalogEntries)
        .where(
          inCompany(
            toolCatalogEntries,
            companyId,
            eq(toolCatalogEntries.connectionId, connectionId),
            eq(toolCatalogEntries.kind, "tool"),
          ),
        );
      const byName = new Map(existing.map((e) => [e.name, e]));
      const now = ctx.now();
      for (const t of seen.values()) {
        const old = byName.get(t.name);
        if (t.schemaProblem) summary.unusableSchemas.push({ name: t.name, problem: t.schemaProblem });
        if (!old) {
          const status =
            t.risk === "read" && connection.autoApproveReadTools && !t.schemaProblem
              ? "active"
              : "quarantined";
          if (status === "quarantined") summary.quarantined++;
          summary.added++;
          await tx.insert(toolCatalogEntries).values({
            companyId,
            connectionId,
            kind: "tool",
            name: t.name,
            ...upstreamColumns(t),
            status,
            reviewedVersion: status === "active" ? { ...t } : null,
            firstSeenAt: now,
            lastSeenAt: now,
          });
        } else if (old.versionHash !== t.versionHash || old.status === "removed") {
          summary.changed++;
          summary.quarantined++;
          // INVARIANT: a changed tool is quarantined; trust rules pinned to the old schema hash
          // stop matching because the entry's schema hash changes with it.
          await tx
            .update(toolCatalogEntries)
            .set({
              ...upstreamColumns(t),
              status: old.status === "disabled" ? "disabled" : "quarantined",
              lastSeenAt: now,
              updatedAt: now,
            })
            .where(eq(toolCatalogEntries.id, old.id));
        } else {
          summary.unchanged++;
          await tx
            .update(toolCatalogEntries)
            .set({ lastSeenAt: now })
            .where(eq(toolCatalogEntries.id, old.id));
        }
      }
      const gone = existing.filter((e) => !seen.has(e.name) && e.status !== "removed").map((e) => e.id);
      if (gone.length > 0) {
        summary.removed = gone.length;
        await tx
          .update(toolCatalogEntries)
          .set({ status: "removed", updatedAt: now })
          .where(inArray(toolCatalogEntries.id, gone));
      }
      await tx
        .update(toolConnections)
        .set({ catalogRefreshedAt: now, updatedAt: now })
        .where(companyRow(toolConnections, companyId, connectionId));
      return summary;
    },
    () => ({
      action: "tool_connection.catalog_refresh",
      entityType: "tool_connection",
      entityId: connectionId,
      details: summary,
    }),
  );
  return summary;
}
