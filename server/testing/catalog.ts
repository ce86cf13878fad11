import type { Db } from "@/db/client";
import { toolApplications, toolCatalogEntries, toolConnections } from "@/db/schema";
import type { CatalogStatus, Risk } from "@/server/contracts/values";
import { bumpAccessVersion } from "../access/snapshot";
import { canonicalHash } from "../ledger/canonical";

export interface SeededTool {
  id: string;
  name: string;
  qualifiedName: string;
  risk: Risk;
}

/**
 * Inserts an active application with one active, healthy connection and the given tools, as
 * the gateway's catalog refresh would leave them after review. For tests of the access core.
 */
export async function seedApplication(
  db: Db,
  companyId: string,
  slug: string,
  tools: { name: string; risk: Risk; status?: CatalogStatus }[],
): Promise<{ applicationId: string; connectionId: string; tools: Record<string, SeededTool> }> {
  const [app] = await db
    .insert(toolApplications)
    .values({ companyId, slug, name: slug[0]!.toUpperCase() + slug.slice(1), type: "mcp_http" })
    .returning();
  const [conn] = await db
    .insert(toolConnections)
    .values({
      companyId,
      applicationId: app!.id,
      name: `${slug} (managed)`,
      status: "active",
      enabled: true,
      healthStatus: "ok",
      transportConfig: { url: `https://${slug}.example/mcp` },
    })
    .returning();
  const out: Record<string, SeededTool> = {};
  for (const t of tools) {
    const schema = { type: "object", properties: { note: { type: "string" } } };
    const [e] = await db
      .insert(toolCatalogEntries)
      .values({
        companyId,
        connectionId: conn!.id,
        name: t.name,
        description: `${t.name} tool`,
        inputSchema: schema,
        schemaHash: canonicalHash(schema),
        versionHash: canonicalHash({ name: t.name, schema }),
        risk: t.risk,
        status: t.status ?? "active",
      })
      .returning();
    out[t.name] = { id: e!.id, name: t.name, qualifiedName: `${slug}__${t.name}`, risk: t.risk };
  }
  await db.transaction((tx) => bumpAccessVersion(tx, companyId));
  return { applicationId: app!.id, connectionId: conn!.id, tools: out };
}

/** Inserts an application of `companyId`; its id. */
export async function insertApplication(
  db: Db,
  companyId: string,
  slug: string,
  name: string,
  type: (typeof toolApplications.$inferInsert)["type"],
): Promise<string> {
  const [app] = await db.insert(toolApplications).values({ companyId, slug, name, type }).returning();
  return app!.id;
}

/** Inserts an active, enabled, healthy stdio connection of `templateId` (a template's launch). */
export async function insertStdioConnection(
  db: Db,
  v: { companyId: string; applicationId: string; templateId: string; name: string },
): Promise<typeof toolConnections.$inferSelect> {
  const [row] = await db
    .insert(toolConnections)
    .values({
      companyId: v.companyId,
      applicationId: v.applicationId,
      name: v.name,
      stdioTemplateId: v.templateId,
      status: "active",
      enabled: true,
      healthStatus: "ok",
    })
    .returning();
  return row!;
}
