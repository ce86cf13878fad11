import { eq } from "drizzle-orm";
import * as templatesRoute from "@/app/api/companies/[companyId]/tools/stdio-templates/route";
import type { Db } from "@/db/client";
import { toolApplications, toolCatalogEntries, toolConnections, toolStdioTemplates } from "@/db/schema";
import type { CatalogStatus, Risk } from "@/server/contracts/values";
import { bumpAccessVersion } from "../access/snapshot";
import { systemContext } from "../context";
import type { DemoCredentials } from "../core/seed";
import { canonicalHash } from "../ledger/canonical";
import { CreateStdioCommandInput, createStdioCommand } from "../runtime/catalog";
import { call } from "./api";

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

/**
 * A stdio connection of the demo company running the `lab` fixture: the instance's `test.lab`
 * command (created on first use), a template of it made through the admin route as the board,
 * an application and a connection named `name`.
 */
export async function labStdioConnection(db: Db, demo: DemoCredentials, name: string) {
  const applicationId = await insertApplication(db, demo.companyId, "lab", "Lab", "mcp_stdio");
  await createStdioCommand(
    systemContext(db, "test"),
    CreateStdioCommandInput.parse({ key: "test.lab", name: "Lab (tests)", fixture: "lab" }),
  );
  const res = await call<{ id: string }>(templatesRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId },
    body: { name, catalogCommand: "test.lab" },
  });
  if (res.status !== 201)
    throw new Error(`creating the lab template: ${res.status} ${JSON.stringify(res.json)}`);
  const [template] = await db.select().from(toolStdioTemplates).where(eq(toolStdioTemplates.id, res.json.id));
  const connection = await insertStdioConnection(db, {
    companyId: demo.companyId,
    applicationId,
    templateId: template!.id,
    name,
  });
  return { template: template!, connection };
}
