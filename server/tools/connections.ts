import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { companyRow, inCompany } from "@/db/join";
import { toolApplications, toolCatalogEntries, toolConnections } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Connection, ConnectionTestResult } from "@/server/contracts/api/connections";
import { mutateAccess } from "../access/mutate";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { listUpstreamTools, upstreamTargetFor } from "../connectors";
import { loadConnection, selectConnectionsWithApplication } from "../connectors/connection";
import { CONNECTION_TEST_ERRORS, classifyUpstreamError } from "../connectors/test-errors";
import type { ServiceContext } from "../context";
import { conflict, invalidRequest, isServiceError, notFound, ServiceError } from "../errors";
import { privateUpstreamGrants } from "../instance/private-upstreams";
import { logWarn } from "../log";
import { assertAllowedUrl } from "../net/guarded-fetch";
import { allowPrivateBy, grantsForUrl, visiblyPrivate } from "../net/private-upstreams";
import { stopConnectionSlots } from "../runtime";
import { assertNoInlineCredentials } from "../secrets/inline";
import { connectionSecretHealth } from "../secrets/resolve";

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
    /** Idle timeout of a call: progress from the upstream resets it. */
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
    /** The hard maximum of a call however much progress it reports (default 5 minutes). */
    maxCallMs: z.number().int().min(100).max(3_600_000).optional(),
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
  /** The upstream may ask the agent's model to sample (`sampling/createMessage`). */
  allowSampling: z.boolean().optional(),
  /** The upstream may ask the agent for input (`elicitation/create`). */
  allowElicitation: z.boolean().optional(),
});
export type CreateConnectionInput = z.infer<typeof CreateConnectionInput>;

export const UpdateConnectionInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    transportConfig: TransportConfig.optional(),
    autoApproveReadTools: z.boolean().optional(),
    allowSampling: z.boolean().optional(),
    allowElicitation: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "nothing to change");
export type UpdateConnectionInput = z.infer<typeof UpdateConnectionInput>;

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
          .where(companyRow(toolConnections, companyId, connectionId))
          .returning()
      )[0]!,
    activity,
  );
}

function present(c: typeof toolConnections.$inferSelect, app: typeof toolApplications.$inferSelect) {
  // The legacy `trusted_local` column grants nothing (the operator's list does): not shown.
  const { trustedLocal: _legacy, ...rest } = c;
  return {
    ...rest,
    application: { id: app.id, slug: app.slug, name: app.name, type: app.type, status: app.status },
  } satisfies Served<typeof Connection>;
}

export async function listConnections(
  ctx: ServiceContext,
  companyId: string,
  query: { applicationId?: string } = {},
) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await selectConnectionsWithApplication(ctx.db)
    .where(
      query.applicationId
        ? inCompany(toolConnections, companyId, eq(toolConnections.applicationId, query.applicationId))
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
  })) satisfies Served<typeof Connection>[];
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
    .where(companyRow(toolApplications, companyId, input.applicationId));
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
  return {
    health,
    error,
    errorCode,
    latencyMs,
    toolCount,
    connection: present(row, application),
  } satisfies Served<typeof ConnectionTestResult>;
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
