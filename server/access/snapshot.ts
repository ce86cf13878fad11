import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import {
  companies,
  companySecretBindings,
  toolApplications,
  toolCatalogEntries,
  toolConnections,
  toolPolicies,
  toolProfileBindings,
  toolProfileEntries,
  toolProfiles,
  toolStdioTemplates,
  toolTrustRules,
} from "@/db/schema";
import { processSingleton } from "../config/process-singleton";
import { databaseBreaker } from "../database/breaker";
import { privateUpstreamGrants } from "../instance/private-upstreams";
import type { PrivateUpstreamGrant } from "../net/private-upstreams";
import { accessChangedKey, GATEWAY_CHANNEL } from "./changes";
import type { AccessSnapshot, ProfileSelector, SnapshotProfile } from "./types";

/**
 * Bumps the company's access version in the caller's transaction. Every change to profiles,
 * entries, bindings, policies, trust rules, catalog or connections must call this, so every
 * process's cached snapshot is refreshed on its next decision (cross-replica invalidation
 * through the database, not through process memory).
 */
export async function bumpAccessVersion(tx: Tx, companyId: string): Promise<number> {
  const [row] = await tx
    .update(companies)
    .set({ accessVersion: sql`${companies.accessVersion} + 1` })
    .where(eq(companies.id, companyId))
    .returning({ v: companies.accessVersion });
  // Delivered at commit to every replica's listeners (list_changed streams, changes.ts).
  await tx.execute(sql`select pg_notify(${GATEWAY_CHANNEL}, ${accessChangedKey(companyId)})`);
  return row?.v ?? 0;
}

const TRANSPORT: Record<string, "http" | "stdio" | "self" | "plugin"> = {
  mcp_http: "http",
  mcp_stdio: "stdio",
  paperclip_self: "self",
  paperclip_plugin: "plugin",
};

function selectorOf(e: typeof toolProfileEntries.$inferSelect): ProfileSelector | null {
  switch (e.selectorType) {
    case "application":
      return e.applicationId ? { type: "application", applicationId: e.applicationId } : null;
    case "connection":
      return e.connectionId ? { type: "connection", connectionId: e.connectionId } : null;
    case "catalog_entry":
      return e.catalogEntryId ? { type: "catalog_entry", catalogEntryId: e.catalogEntryId } : null;
    case "tool_glob":
      return e.toolGlob ? { type: "tool_glob", glob: e.toolGlob } : null;
    case "risk":
      return e.risk ? { type: "risk", risk: e.risk } : null;
    default:
      return null;
  }
}

type ConnectionRow = typeof toolConnections.$inferSelect;
type ApplicationRow = typeof toolApplications.$inferSelect;

/**
 * What executing a call needs besides the decision, captured with the snapshot it was decided
 * on: the full connection and application rows and which connections have live secret
 * bindings. Every change to them bumps the access version (connections, applications,
 * templates, secret bindings and secrets all do), so a cached snapshot never serves stale
 * rows, and the gateway's hot path needs no per-call lookups for them.
 */
interface ExecutionRows {
  connections: Map<string, ConnectionRow>;
  applications: Map<string, ApplicationRow>;
  boundConnectionIds: Set<string>;
  /** The instance's private-upstream grants (changing them bumps every company's version). */
  privateUpstreams: PrivateUpstreamGrant[];
}
const executionRows = new WeakMap<AccessSnapshot, ExecutionRows>();

/**
 * The connection and application rows of `connectionId` as of `snapshot`, and whether it has
 * live secret bindings; null when the snapshot was not loaded from the database (tests build
 * snapshots by hand) or the connection is not in it.
 */
export function executionTargetOf(
  snapshot: AccessSnapshot,
  connectionId: string,
): {
  connection: ConnectionRow;
  application: ApplicationRow;
  secretsBound: boolean;
  privateUpstreams: PrivateUpstreamGrant[];
} | null {
  const rows = executionRows.get(snapshot);
  const connection = rows?.connections.get(connectionId);
  const application = connection ? rows?.applications.get(connection.applicationId) : undefined;
  if (!rows || !connection || !application) return null;
  return {
    connection,
    application,
    secretsBound: rows.boundConnectionIds.has(connectionId),
    privateUpstreams: rows.privateUpstreams,
  };
}

/** A drizzle transaction (it can roll back), as opposed to the database. */
const isTransaction = (db: Db | Tx): boolean => "rollback" in db;

/**
 * Reads a company's access state from the database into the engine's snapshot shape. Given the
 * database (not a transaction), the reads run in one read-only repeatable-read transaction:
 * one pooled connection per load (the eleven reads are pipelined on it) instead of eleven —
 * a request never holds more than one connection for its snapshot, so concurrent reloads
 * cannot drain the pool (issue 16) — and the snapshot is consistent.
 */
export async function loadAccessSnapshot(
  db: Db | Tx,
  companyId: string,
  version = 0,
): Promise<AccessSnapshot> {
  if (!isTransaction(db))
    return (db as Db).transaction((tx) => loadAccessSnapshot(tx, companyId, version), {
      isolationLevel: "repeatable read",
      accessMode: "read only",
    });
  const [
    apps,
    conns,
    templates,
    entries,
    profiles,
    profileEntries,
    bindings,
    policies,
    rules,
    bound,
    grants,
  ] = await Promise.all([
    db.select().from(toolApplications).where(eq(toolApplications.companyId, companyId)),
    db.select().from(toolConnections).where(eq(toolConnections.companyId, companyId)),
    db
      .select({ id: toolStdioTemplates.id, status: toolStdioTemplates.status })
      .from(toolStdioTemplates)
      .where(eq(toolStdioTemplates.companyId, companyId)),
    db
      .select({
        id: toolCatalogEntries.id,
        connectionId: toolCatalogEntries.connectionId,
        kind: toolCatalogEntries.kind,
        name: toolCatalogEntries.name,
        status: toolCatalogEntries.status,
        risk: toolCatalogEntries.risk,
        riskOverride: toolCatalogEntries.riskOverride,
        repeatable: toolCatalogEntries.repeatable,
        schemaHash: toolCatalogEntries.schemaHash,
        versionHash: toolCatalogEntries.versionHash,
        description: toolCatalogEntries.description,
        title: toolCatalogEntries.title,
        inputSchema: toolCatalogEntries.inputSchema,
        annotations: toolCatalogEntries.annotations,
        outputSchema: toolCatalogEntries.outputSchema,
        icons: toolCatalogEntries.icons,
        meta: toolCatalogEntries.meta,
      })
      .from(toolCatalogEntries)
      .where(eq(toolCatalogEntries.companyId, companyId)),
    db.select().from(toolProfiles).where(eq(toolProfiles.companyId, companyId)),
    db.select().from(toolProfileEntries).where(eq(toolProfileEntries.companyId, companyId)),
    db.select().from(toolProfileBindings).where(eq(toolProfileBindings.companyId, companyId)),
    db.select().from(toolPolicies).where(eq(toolPolicies.companyId, companyId)),
    db
      .select()
      .from(toolTrustRules)
      .where(and(eq(toolTrustRules.companyId, companyId), eq(toolTrustRules.status, "active"))),
    db
      .selectDistinct({ connectionId: companySecretBindings.connectionId })
      .from(companySecretBindings)
      .where(and(eq(companySecretBindings.companyId, companyId), isNull(companySecretBindings.revokedAt))),
    privateUpstreamGrants(db),
  ]);
  const appById = new Map(apps.map((a) => [a.id, a]));
  const templateById = new Map(templates.map((t) => [t.id, t]));
  const profileMap = new Map<string, SnapshotProfile>(
    profiles.map((p) => [p.id, { id: p.id, name: p.name, status: p.status, entries: [] }]),
  );
  for (const e of profileEntries) {
    const selector = selectorOf(e);
    const profile = profileMap.get(e.profileId);
    if (profile && selector)
      profile.entries.push({ id: e.id, mode: e.mode as "include" | "exclude", selector });
  }
  const snapshot: AccessSnapshot = {
    companyId,
    version,
    applications: apps.map((a) => ({ id: a.id, slug: a.slug, name: a.name, type: a.type, status: a.status })),
    connections: conns.map((c) => {
      const transport = TRANSPORT[appById.get(c.applicationId)?.type ?? ""];
      const template = c.stdioTemplateId ? templateById.get(c.stdioTemplateId) : undefined;
      return {
        id: c.id,
        applicationId: c.applicationId,
        name: c.name,
        status: c.status,
        enabled: c.enabled,
        healthStatus: c.healthStatus,
        transport,
        templateSafe: transport === "stdio" ? template?.status === "active" : undefined,
      };
    }),
    catalog: entries.map((e) => ({
      id: e.id,
      connectionId: e.connectionId,
      kind: e.kind,
      name: e.name,
      status: e.status,
      // An admin override is audited and wins over the classifier.
      risk: e.riskOverride ?? e.risk,
      ...(e.repeatable ? { repeatable: true } : {}),
      schemaHash: e.schemaHash,
      versionHash: e.versionHash,
      description: e.description,
      title: e.title,
      inputSchema: e.inputSchema,
      annotations: e.annotations,
      ...(e.outputSchema ? { outputSchema: e.outputSchema } : {}),
      ...(e.icons ? { icons: e.icons } : {}),
      ...(e.meta ? { meta: e.meta } : {}),
    })),
    profiles: [...profileMap.values()],
    bindings: bindings.map((b) => ({
      id: b.id,
      profileId: b.profileId,
      targetType: b.targetType,
      targetId: b.projectId ?? b.agentId ?? b.routineId ?? b.issueId ?? null,
    })),
    policies: policies.map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      priority: p.priority,
      enabled: p.enabled,
      selectors: p.selectors,
      conditions: p.conditions,
      effect: p.effect,
    })),
    trustRules: rules.map((r) => ({
      id: r.id,
      catalogEntryId: r.catalogEntryId,
      schemaHash: r.schemaHash,
      scopeType: r.scopeType as "company" | "project" | "agent" | "issue",
      scopeId: r.projectId ?? r.agentId ?? r.issueId ?? null,
      // The column defaults to `{}` (no constraints); the engine wants a list.
      argumentConstraints:
        Array.isArray(r.argumentConstraints) || Object.keys(r.argumentConstraints ?? {}).length > 0
          ? r.argumentConstraints
          : [],
      maxUses: r.maxUses,
      useCount: r.useCount,
      expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
      status: r.status,
    })),
  };
  executionRows.set(snapshot, {
    connections: new Map(conns.map((c) => [c.id, c])),
    applications: appById,
    boundConnectionIds: new Set(bound.map((b) => b.connectionId)),
    privateUpstreams: grants,
  });
  return snapshot;
}

type SnapshotCache = Map<string, { version: number; snapshot: AccessSnapshot }>;
const cache: SnapshotCache = processSingleton("snapshotCache", () => new Map());
const inFlight: Map<string, Promise<AccessSnapshot>> = processSingleton("snapshotLoads", () => new Map());
processSingleton("snapshotRecoveryHook", () => {
  // After an outage nothing cached from before it is trusted: the next call reloads.
  databaseBreaker().onRecovered(() => cache.clear());
  return true;
});

/**
 * The company's snapshot, from this process's cache when the database's access version still
 * matches (one indexed single-row read), else reloaded. Correct across processes: another
 * replica's change bumps the version in the database, and this process sees it on its next
 * call. A snapshot is immutable once built; compiled indexes are memoised per object.
 */
export async function getAccessSnapshot(
  db: Db | Tx,
  companyId: string,
  /** The access version the caller has just read in the same request (the gateway reads it with the session). */
  knownVersion?: number,
): Promise<AccessSnapshot> {
  const [row] =
    knownVersion === undefined
      ? await db.select({ v: companies.accessVersion }).from(companies).where(eq(companies.id, companyId))
      : [{ v: knownVersion }];
  if (!row) throw new Error(`company ${companyId} does not exist`);
  const hit = cache.get(companyId);
  if (hit && hit.version === row.v) return hit.snapshot;
  // One load per company and version in flight: concurrent requests that all miss the cache
  // (an access change, a restart, the end of an outage) share it instead of each running it.
  // (Inside a caller's transaction the load is its own: that transaction may see its own writes.)
  const key = `${companyId}:${row.v}`;
  let loading = isTransaction(db) ? undefined : inFlight.get(key);
  if (!loading) {
    loading = loadAccessSnapshot(db, companyId, row.v);
    if (!isTransaction(db)) {
      inFlight.set(key, loading);
      void loading.then(
        () => inFlight.delete(key),
        () => inFlight.delete(key),
      );
    }
  }
  const snapshot = await loading;
  // Only move forward: a slow loader must not replace a newer snapshot.
  const current = cache.get(companyId);
  if (!current || current.version <= row.v) cache.set(companyId, { version: row.v, snapshot });
  return snapshot;
}

/** For tests: forget cached snapshots. */
export function clearSnapshotCache(): void {
  cache.clear();
}
