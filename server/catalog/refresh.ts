import { eq, inArray } from "drizzle-orm";
import { companyRow } from "@/db/join";
import { toolCatalogEntries, toolConnections } from "@/db/schema";
import { compileInputSchema } from "../access/argument-schema";
import { mutateAccess } from "../access/mutate";
import { ofConnection } from "../access/rows";
import { requireCompany } from "../auth/authorize";
import { listUpstreamTools, upstreamTargetFor } from "../connectors";
import { loadConnection } from "../connectors/connection";
import { listUpstreamSurface } from "../connectors/mcp-surface";
import { classifyUpstreamError } from "../connectors/test-errors";
import type { ServiceContext } from "../context";
import { jsonShapeProblem } from "../contracts/json-shape";
import type { CATALOG_KINDS } from "../contracts/values";
import { conflict, ServiceError } from "../errors";
import { logWarn } from "../log";
import { classifyRisk, sanitizeText, type ToolMetadata, toolHashes } from "./classify";
import {
  type CatalogColumns,
  type CatalogItem,
  checkOutputSchema,
  cleanIcons,
  cleanMeta,
  normalizeSurface,
} from "./surface";

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
  const output = checkOutputSchema(t.outputSchema);
  const schemaProblem = compiled.ok ? output.problem : compiled.problem;
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
  const icons = cleanIcons(t.icons);
  const meta = cleanMeta(t.meta);
  // The MCP metadata is reviewable too, hashed with the annotations only when present (so the
  // version hash of a tool without any is what it always was).
  const extras = {
    ...(output.schema ? { outputSchema: output.schema } : {}),
    ...(icons ? { icons } : {}),
    ...(meta ? { meta } : {}),
  };
  const hashed =
    Object.keys(extras).length > 0 ? { ...clean, annotations: { ...(annotations ?? {}), ...extras } } : clean;
  return {
    ...clean,
    outputSchema: output.schema,
    icons,
    meta,
    ...toolHashes(hashed),
    risk: classifyRisk(clean),
    schemaProblem,
  };
}

/** The catalog columns an upstream tool describes (written when it appears and when it changes). */
function upstreamColumns(t: CatalogColumns) {
  return {
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: t.annotations,
    outputSchema: t.outputSchema ?? null,
    icons: t.icons,
    meta: t.meta,
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
  let surface: CatalogItem[] | null = null;
  try {
    const target = await upstreamTargetFor(ctx.db, {
      companyId,
      application,
      connection,
      purpose: "catalog",
      actor: ctx.actor,
    });
    listed = await listUpstreamTools(target, { fresh: true });
    // Resources, templates and prompts: a failure there leaves their entries as they were.
    surface = await listUpstreamSurface(target).then(normalizeSurface, (err: unknown) => {
      logWarn("tool_connection.surface_refresh_failed", {
        companyId,
        connectionId,
        message: err instanceof Error ? err.message : String(err),
      });
      return null;
    });
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
  const kinds: [(typeof CATALOG_KINDS)[number], Map<string, CatalogColumns>][] = [
    ["tool", new Map(upstream.map((t) => [t.name, t]))],
  ];
  if (surface)
    for (const kind of ["resource", "resource_template", "prompt"] as const)
      kinds.push([kind, new Map(surface.filter((x) => x.kind === kind).map((x) => [x.name, x]))]);
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
      const now = ctx.now();
      for (const [kind, seen] of kinds) {
        const existing = await tx
          .select()
          .from(toolCatalogEntries)
          .where(
            ofConnection(toolCatalogEntries, companyId, connectionId, eq(toolCatalogEntries.kind, kind)),
          );
        const byName = new Map(existing.map((e) => [e.name, e]));
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
              kind,
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
          summary.removed += gone.length;
          await tx
            .update(toolCatalogEntries)
            .set({ status: "removed", updatedAt: now })
            .where(inArray(toolCatalogEntries.id, gone));
        }
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
