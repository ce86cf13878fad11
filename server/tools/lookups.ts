import { desc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import {
  agents,
  companies,
  issues,
  projects,
  routines,
  toolApplications,
  toolCatalogEntries,
  toolConnections,
} from "@/db/schema";
import type { CatalogEntriesResponse } from "@/server/contracts/api/catalog";
import type { Served } from "@/server/contracts/api/common";
import type { ToolTargets } from "@/server/contracts/api/profiles";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";

/** Names of a company's targets and tool objects, for labels and pickers. */
export async function loadNames(db: Db | Tx, companyId: string) {
  const [agentRows, projectRows, routineRows, issueRows, appRows, connRows, entryRows] = await Promise.all([
    db
      .select({ id: agents.id, name: agents.name })
      .from(agents)
      .where(eq(agents.companyId, companyId))
      .orderBy(agents.name),
    db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(eq(projects.companyId, companyId))
      .orderBy(projects.name),
    db
      .select({ id: routines.id, name: routines.name })
      .from(routines)
      .where(eq(routines.companyId, companyId))
      .orderBy(routines.name),
    db
      .select({
        id: issues.id,
        identifier: sql<string>`${companies.issuePrefix} || '-' || ${issues.number}`,
        title: issues.title,
      })
      .from(issues)
      .innerJoin(companies, eq(companies.id, issues.companyId))
      .where(eq(issues.companyId, companyId))
      .orderBy(desc(issues.number))
      .limit(500),
    db
      .select({ id: toolApplications.id, slug: toolApplications.slug, name: toolApplications.name })
      .from(toolApplications)
      .where(eq(toolApplications.companyId, companyId))
      .orderBy(toolApplications.name),
    db
      .select({
        id: toolConnections.id,
        name: toolConnections.name,
        applicationId: toolConnections.applicationId,
        authKind: toolConnections.authKind,
      })
      .from(toolConnections)
      .where(eq(toolConnections.companyId, companyId))
      .orderBy(toolConnections.name),
    db
      .select({
        id: toolCatalogEntries.id,
        name: toolCatalogEntries.name,
        risk: sql<string>`coalesce(${toolCatalogEntries.riskOverride}, ${toolCatalogEntries.risk})`,
        status: toolCatalogEntries.status,
        connectionId: toolCatalogEntries.connectionId,
      })
      .from(toolCatalogEntries)
      .where(inCompany(toolCatalogEntries, companyId, eq(toolCatalogEntries.kind, "tool")))
      .orderBy(toolCatalogEntries.name),
  ]);
  return {
    agents: agentRows,
    projects: projectRows,
    routines: routineRows,
    issues: issueRows,
    applications: appRows,
    connections: connRows,
    entries: entryRows,
  };
}

export type Names = Awaited<ReturnType<typeof loadNames>>;

/** Pickers for profile bindings and policy selectors: agents, projects, routines, issues. */
export async function listTargets(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const n = await loadNames(ctx.db, companyId);
  return {
    agents: n.agents,
    projects: n.projects,
    routines: n.routines,
    issues: n.issues,
  } satisfies Served<typeof ToolTargets>;
}

/** Catalog entries with their application and connection, for selector pickers. */
export async function listCatalogEntries(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const n = await loadNames(ctx.db, companyId);
  const conns = new Map(n.connections.map((c) => [c.id, c]));
  const apps = new Map(n.applications.map((a) => [a.id, a]));
  return {
    entries: n.entries.flatMap((e) => {
      const conn = conns.get(e.connectionId);
      const app = conn ? apps.get(conn.applicationId) : undefined;
      if (!conn || !app) return [];
      return [
        {
          id: e.id,
          name: e.name,
          qualifiedName: `${app.slug}__${e.name}`,
          risk: e.risk,
          status: e.status,
          applicationId: app.id,
          applicationSlug: app.slug,
          applicationName: app.name,
          connectionId: conn.id,
          connectionName: conn.name,
        },
      ];
    }),
    applications: n.applications,
    connections: n.connections,
  } satisfies Served<typeof CatalogEntriesResponse>;
}
