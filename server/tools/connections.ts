import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { toolApplications, toolCatalogEntries, toolConnections } from "@/db/schema";
import { compileInputSchema } from "../access/argument-schema";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { classifyRisk, sanitizeText, type ToolMetadata, toolHashes } from "../catalog/classify";
import { listUpstreamTools, upstreamTargetFor } from "../connectors";
import { CONNECTION_TEST_ERRORS, classifyUpstreamError } from "../connectors/test-errors";
import type { ServiceContext } from "../context";
import { jsonShapeProblem } from "../core/json-shape";
import { conflict, invalidRequest, isServiceError, notFound, ServiceError } from "../errors";
import { privateUpstreamGrants } from "../instance/private-upstreams";
import { logWarn } from "../log";
import { assertAllowedUrl } from "../net/guarded-fetch";
import { allowPrivateBy, grantsForUrl, visiblyPrivate } from "../net/private-upstreams";
import { stopConnectionSlots } from "../runtime";
import { assertNoInlineCredentials } from "../secrets/inline";
import { connectionSecretHealth } from "../secrets/resolve";
import { mutateAccess } from "./profiles";

const Url = z
  .string()
  .trim()
  .max(2000)
  .refine((u) => {
    try {
      const p = new URL(u);
      return p.protocol === "http:" || p.protocol === "https:";
    } catch {
      return false;
    }
  }, "an http(s) URL");

/** Non-secret transport settings; credentials go in company secrets bound to the connection. */
export const TransportConfig = z
  .object({
    url: Url.optional(),
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
    maxResultBytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .optional(),
    headers: z.record(z.string().max(100), z.string().max(2000)).optional(),
    pluginId: z.string().max(48).optional(),
  })
  .strict();
export type TransportConfig = z.infer<typeof TransportConfig>;

export const CreateConnectionInput = z.object({
  applicationId: z.uuid(),
  name: z.string().trim().min(1).max(100),
  transportConfig: TransportConfig.default({}),
  stdioTemplateId: z.uuid().optional(),
  autoApproveReadTools: z.boolean().default(false),
});
export type CreateConnectionInput = z.infer<typeof CreateConnectionInput>;

export const UpdateConnectionInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    transportConfig: TransportConfig.optional(),
    autoApproveReadTools: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "nothing to change");
export type UpdateConnectionInput = z.infer<typeof UpdateConnectionInput>;

export const ReviewCatalogInput = z.object({
  entries: z
    .array(z.object({ id: z.uuid(), action: z.enum(["approve", "disable"]) }))
    .min(1)
    .max(1000),
});
export type ReviewCatalogInput = z.infer<typeof ReviewCatalogInput>;

export const DisableConnectionInput = z.object({ reason: z.string().trim().max(500).optional() });

function checkConfig(type: string, config: TransportConfig, stdioTemplateId?: string | null) {
  assertNoInlineCredentials(config);
  if (type === "mcp_http" && !config.url)
    throw invalidRequest("an `mcp_http` connection needs `transportConfig.url`");
  if (type === "paperclip_plugin" && !config.pluginId) {
    throw invalidRequest("a `paperclip_plugin` connection needs `transportConfig.pluginId`");
  }
  if (type === "mcp_stdio" && !stdioTemplateId) {
    throw invalidRequest(
      "an `mcp_stdio` connection needs `stdioTemplateId` (an admin-made command template)",
    );
  }
}

/**
 * A company admin may not point a connection at the host's loopback or private network: an
 * IP-literal or `localhost` URL must be on the instance's private-upstream list (else 403
 * `upstream_requires_operator`, recorded in the company's activity log). Host names are not
 * resolved here (no DNS from an admin form); the guarded fetch checks every resolved address
 * on each test and call, so a name resolving to a private address fails closed there.
 */
async function assertUpstreamPermitted(
  ctx: ServiceContext,
  companyId: string,
  url: string | undefined,
  connectionId: string | null,
) {
  if (!url) return;
  const grants = grantsForUrl(url, await privateUpstreamGrants(ctx.db));
  const allow = allowPrivateBy(grants);
  try {
    const parsed = assertAllowedUrl(url, allow);
    if (visiblyPrivate(parsed) && !allow(parsed)) {
      throw new ServiceError(
        "upstream_requires_operator",
        `${parsed.hostname} is a loopback name; only an instance administrator can allow this origin (Settings › Instance › Private upstreams)`,
        { host: parsed.hostname, origin: parsed.origin },
      );
    }
  } catch (err) {
    if (
      isServiceError(err) &&
      (err.code === "upstream_requires_operator" || err.code === "upstream_blocked")
    ) {
      let origin: string | null = null;
      try {
        origin = new URL(url).origin;
      } catch {}
      await logActivity(ctx.db, ctx, {
        companyId,
        action: "tool_connection.upstream_refused",
        entityType: "tool_connection",
        entityId: connectionId,
        details: { code: err.code, origin },
      }).catch(() => {});
    }
    throw err;
  }
}

/**
 * Updates one connection row (and its `updatedAt`) as an access change: in one transaction
 * with the access-version bump and the activity entry (`mutateAccess`).
 */
function setConnection(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  values: Partial<typeof toolConnections.$inferInsert>,
  activity: Parameters<typeof mutateAccess<typeof toolConnections.$inferSelect>>[3],
) {
  return mutateAccess(
    ctx,
    companyId,
    async (tx) =>
      (
        await tx
          .update(toolConnections)
          .set({ ...values, updatedAt: ctx.now() })
          .where(and(eq(toolConnections.companyId, companyId), eq(toolConnections.id, connectionId)))
          .returning()
      )[0]!,
    activity,
  );
}

/** A connection of the company with its application; 404 `not_found` when there is none. */
export async function loadConnection(tx: Tx | ServiceContext["db"], companyId: string, connectionId: string) {
  const [row] = await tx
    .select({ connection: toolConnections, application: toolApplications })
    .from(toolConnections)
    .innerJoin(
      toolApplications,
      and(
        eq(toolApplications.companyId, toolConnections.companyId),
        eq(toolApplications.id, toolConnections.applicationId),
      ),
    )
    .where(and(eq(toolConnections.companyId, companyId), eq(toolConnections.id, connectionId)));
  if (!row) throw notFound("connection");
  return row;
}

function present(c: typeof toolConnections.$inferSelect, app: typeof toolApplications.$inferSelect) {
  // The legacy `trusted_local` column grants nothing (the operator's list does): not shown.
  const { trustedLocal: _legacy, ...rest } = c;
  return {
    ...rest,
    application: { id: app.id, slug: app.slug, name: app.name, type: app.type, status: app.status },
  };
}

export async function listConnections(
  ctx: ServiceContext,
  companyId: string,
  query: { applicationId?: string } = {},
) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await ctx.db
    .select({ connection: toolConnections, application: toolApplications })
    .from(toolConnections)
    .innerJoin(
      toolApplications,
      and(
        eq(toolApplications.companyId, toolConnections.companyId),
        eq(toolApplications.id, toolConnections.applicationId),
      ),
    )
    .where(
      query.applicationId
        ? and(
            eq(toolConnections.companyId, companyId),
            eq(toolConnections.applicationId, query.applicationId),
          )
        : eq(toolConnections.companyId, companyId),
    )
    .orderBy(asc(toolApplications.name), asc(toolConnections.name));
  const counts = await ctx.db
    .select({
      connectionId: toolCatalogEntries.connectionId,
      status: toolCatalogEntries.status,
      n: sql<number>`count(*)::int`,
    })
    .from(toolCatalogEntries)
    .where(eq(toolCatalogEntries.companyId, companyId))
    .groupBy(toolCatalogEntries.connectionId, toolCatalogEntries.status);
  return rows.map((r) => ({
    ...present(r.connection, r.application),
    catalog: Object.fromEntries(
      counts.filter((c) => c.connectionId === r.connection.id).map((c) => [c.status, c.n]),
    ),
  }));
}

export async function getConnection(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  return present(connection, application);
}

/** Creates a connection in Draft: it exposes nothing until tested, reviewed and enabled. */
export async function createConnection(ctx: ServiceContext, companyId: string, input: CreateConnectionInput) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const [app] = await ctx.db
    .select()
    .from(toolApplications)
    .where(and(eq(toolApplications.companyId, companyId), eq(toolApplications.id, input.applicationId)));
  if (!app) throw notFound("application");
  if (app.status !== "active") throw conflict("application_archived", "the application is archived");
  checkConfig(app.type, input.transportConfig, input.stdioTemplateId);
  if (app.type === "mcp_http") await assertUpstreamPermitted(ctx, companyId, input.transportConfig.url, null);
  const row = await mutateAccess(
    ctx,
    companyId,
    async (tx) =>
      (
        await tx
          .insert(toolConnections)
          .values({ companyId, ...input, status: "draft", enabled: false, healthStatus: "unknown" })
          .returning()
      )[0]!,
    (c) => ({
      action: "tool_connection.create",
      entityType: "tool_connection",
      entityId: c.id,
      details: {
        applicationId: c.applicationId,
        name: c.name,
        url: c.transportConfig.url ?? null,
      },
    }),
  );
  return present(row, app);
}

/**
 * Updates settings. A transport change on an active connection takes it out of service
 * (Disabled, reason `config_changed`) until it is tested and enabled again.
 */
export async function updateConnection(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  input: UpdateConnectionInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  if (connection.status === "archived")
    throw conflict("connection_archived", "the connection is archived; archiving is final");
  if (input.transportConfig) {
    checkConfig(application.type, input.transportConfig, connection.stdioTemplateId);
    if (application.type === "mcp_http")
      await assertUpstreamPermitted(ctx, companyId, input.transportConfig.url, connectionId);
  }
  const transportChanged =
    input.transportConfig &&
    JSON.stringify(input.transportConfig) !== JSON.stringify(connection.transportConfig);
  const row = await setConnection(
    ctx,
    companyId,
    connectionId,
    {
      ...input,
      ...(transportChanged ? { healthStatus: "unknown" as const, healthError: null } : {}),
      ...(transportChanged && connection.status === "active"
        ? { status: "disabled" as const, enabled: false, disabledReason: "config_changed" }
        : {}),
    },
    (c) => ({
      action: "tool_connection.update",
      entityType: "tool_connection",
      entityId: c.id,
      details: {
        changes: {
          ...input,
          transportConfig: input.transportConfig ? { url: input.transportConfig.url ?? null } : undefined,
        },
      },
    }),
  );
  // Running local (stdio) processes of the connection stop with it.
  void stopConnectionSlots(companyId, connectionId).catch(() => {});
  return present(row, application);
}

/** Health check: secrets present, upstream reachable and answering tools/list. */
export async function testConnection(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  if (connection.status === "archived") throw conflict("connection_archived", "the connection is archived");
  const started = performance.now();
  let health: "ok" | "error" | "missing_secret" = "ok";
  let error: string | null = null;
  let errorCode: string | null = null;
  let toolCount: number | null = null;
  if ((await connectionSecretHealth(ctx.db, companyId, connectionId)) === "missing_secret") {
    health = "missing_secret";
    errorCode = "missing_secret";
    error = `missing_secret: ${CONNECTION_TEST_ERRORS.missing_secret}`;
  } else {
    try {
      const target = await upstreamTargetFor(ctx.db, {
        companyId,
        application,
        connection,
        purpose: "health",
        actor: ctx.actor,
      });
      toolCount = (await listUpstreamTools(target, { fresh: true })).length;
    } catch (err) {
      // Never the upstream's own text (it may carry anything): a stable code and our sentence.
      const classified = classifyUpstreamError(err);
      health = classified.code === "missing_secret" ? "missing_secret" : "error";
      errorCode = classified.code;
      // `code: sentence`, the shape this field always had.
      error = `${classified.code}: ${classified.message}`;
      logWarn("tool_connection.test_failed", {
        companyId,
        connectionId,
        code: classified.code,
        cause: isServiceError(err) ? err.code : "error",
        message: err instanceof Error ? err.message : String(err),
      });
    }
  }
  const latencyMs = Math.round(performance.now() - started);
  const row = await setConnection(
    ctx,
    companyId,
    connectionId,
    {
      healthStatus: health,
      healthError: error,
      healthCheckedAt: ctx.now(),
    },
    () => ({
      action: "tool_connection.test",
      entityType: "tool_connection",
      entityId: connectionId,
      details: { health, latencyMs, ...(errorCode ? { errorCode } : {}) },
    }),
  );
  return { health, error, errorCode, latencyMs, toolCount, connection: present(row, application) };
}

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

/**
 * Refreshes the catalog from the upstream. New write and destructive tools, and any tool
 * whose version hash changed, are quarantined until reviewed; new reads activate only when
 * the connection allows it; tools that disappeared become `removed`.
 */
export async function refreshCatalog(ctx: ServiceContext, companyId: string, connectionId: string) {
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
          and(
            eq(toolCatalogEntries.companyId, companyId),
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
            title: t.title,
            description: t.description,
            inputSchema: t.inputSchema,
            annotations: t.annotations,
            schemaHash: t.schemaHash,
            versionHash: t.versionHash,
            risk: t.risk,
            schemaProblem: t.schemaProblem,
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
              title: t.title,
              description: t.description,
              inputSchema: t.inputSchema,
              annotations: t.annotations,
              schemaHash: t.schemaHash,
              versionHash: t.versionHash,
              risk: t.risk,
              schemaProblem: t.schemaProblem,
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
        .where(and(eq(toolConnections.companyId, companyId), eq(toolConnections.id, connectionId)));
      return summary;
    },
    () => ({
      action: "tool_connection.catalog_refresh",
      entityType: "tool_connection",
      entityId: connectionId,
      details: summary,
    }),
  );
  return { ...summary, entries: await listCatalog(ctx, companyId, connectionId) };
}

export async function listCatalog(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "company:read");
  await loadConnection(ctx.db, companyId, connectionId);
  return ctx.db
    .select()
    .from(toolCatalogEntries)
    .where(
      and(eq(toolCatalogEntries.companyId, companyId), eq(toolCatalogEntries.connectionId, connectionId)),
    )
    .orderBy(asc(toolCatalogEntries.name));
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
  const reviewer =
    ctx.actor.type === "user" ? ctx.actor.userId : ctx.actor.type === "board_key" ? ctx.actor.userId : null;
  await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const now = ctx.now();
      for (const e of input.entries) {
        const [row] = await tx
          .select()
          .from(toolCatalogEntries)
          .where(
            and(
              eq(toolCatalogEntries.companyId, companyId),
              eq(toolCatalogEntries.connectionId, connectionId),
              eq(toolCatalogEntries.id, e.id),
            ),
          )
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
        .where(and(eq(toolConnections.companyId, companyId), eq(toolConnections.id, connectionId)));
      return input.entries.length;
    },
    () => ({
      action: "tool_connection.catalog_review",
      entityType: "tool_connection",
      entityId: connectionId,
      details: { entries: input.entries },
    }),
  );
  return { reviewed: input.entries.length, entries: await listCatalog(ctx, companyId, connectionId) };
}

/** Draft/Disabled → Active: needs a passing health check and a reviewed catalog. */
export async function enableConnection(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  if (connection.status === "archived") throw conflict("connection_archived", "the connection is archived");
  if (application.status !== "active") throw conflict("application_archived", "the application is archived");
  const missing: string[] = [];
  if (connection.healthStatus !== "ok")
    missing.push(`a passing health check (now \`${connection.healthStatus}\`)`);
  if (!connection.catalogReviewedAt) missing.push("a reviewed catalog");
  if (missing.length > 0) {
    throw conflict(
      "connection_not_ready",
      `the connection needs ${missing.join(" and ")} before it can be enabled`,
      { missing },
    );
  }
  const row = await setConnection(
    ctx,
    companyId,
    connectionId,
    { status: "active", enabled: true, disabledReason: null },
    () => ({ action: "tool_connection.enable", entityType: "tool_connection", entityId: connectionId }),
  );
  return present(row, application);
}

export async function disableConnection(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  reason?: string,
) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  if (connection.status === "archived") throw conflict("connection_archived", "the connection is archived");
  const row = await setConnection(
    ctx,
    companyId,
    connectionId,
    {
      status: "disabled",
      enabled: false,
      disabledReason: reason ?? "operator",
    },
    () => ({
      action: "tool_connection.disable",
      entityType: "tool_connection",
      entityId: connectionId,
      details: { reason: reason ?? null },
    }),
  );
  // Running local (stdio) processes of the connection stop with it.
  void stopConnectionSlots(companyId, connectionId).catch(() => {});
  return present(row, application);
}

export async function archiveConnection(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  if (connection.status === "archived") return present(connection, application);
  const row = await setConnection(
    ctx,
    companyId,
    connectionId,
    { status: "archived", enabled: false, archivedAt: ctx.now() },
    () => ({ action: "tool_connection.archive", entityType: "tool_connection", entityId: connectionId }),
  );
  // Running local (stdio) processes of the connection stop with it.
  void stopConnectionSlots(companyId, connectionId).catch(() => {});
  return present(row, application);
}

export const OverrideRiskInput = z.object({
  /** null clears the override (back to the classifier's risk). */
  risk: z.enum(["read", "write", "destructive"]).nullable(),
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
  await requireCompany(ctx, companyId, "tools:admin");
  await loadConnection(ctx.db, companyId, connectionId);
  return mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const [before] = await tx
        .select({
          risk: toolCatalogEntries.risk,
          riskOverride: toolCatalogEntries.riskOverride,
          name: toolCatalogEntries.name,
        })
        .from(toolCatalogEntries)
        .where(
          and(
            eq(toolCatalogEntries.companyId, companyId),
            eq(toolCatalogEntries.connectionId, connectionId),
            eq(toolCatalogEntries.id, entryId),
          ),
        )
        .for("update");
      if (!before) throw notFound("catalog entry");
      const [row] = await tx
        .update(toolCatalogEntries)
        .set({ riskOverride: input.risk, updatedAt: ctx.now() })
        .where(eq(toolCatalogEntries.id, entryId))
        .returning();
      return { entry: row!, before };
    },
    (r) => ({
      action: "tool_catalog_entry.risk_override",
      entityType: "tool_catalog_entry",
      entityId: entryId,
      details: {
        tool: r.before.name,
        classified: r.before.risk,
        from: r.before.riskOverride,
        to: input.risk,
        reason: input.reason,
      },
    }),
  ).then((r) => r.entry);
}
