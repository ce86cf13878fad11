import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

/**
 * A direct connection to the e2e instance's embedded database (its password is in the
 * instance home). Used only to put catalog rows in place until the gateway's own catalog
 * refresh and example installer exist; assertions always go through the UI or the API.
 */
export function e2eDatabase() {
  const home = process.env.E2E_PAPERCLIP_HOME!;
  const password = readFileSync(path.join(home, "db-password"), "utf8").trim();
  const port = Number(process.env.E2E_PORT ?? 3199) + 50_000;
  return postgres({
    host: "127.0.0.1",
    port,
    user: "postgres",
    password,
    database: "paperclip",
    max: 1,
    onnotice: () => {},
  });
}

/** An active GitHub-like application with a read and a destructive tool. */
export async function seedGithubCatalog(companyId: string) {
  const sql = e2eDatabase();
  try {
    const existing =
      await sql`select id from tool_applications where company_id = ${companyId} and slug = 'github'`;
    if (existing.length > 0) return;
    const [app] = await sql`insert into tool_applications (company_id, slug, name, type)
      values (${companyId}, 'github', 'GitHub', 'mcp_http') returning id`;
    const [conn] =
      await sql`insert into tool_connections (company_id, application_id, name, status, enabled, health_status)
      values (${companyId}, ${app!.id}, 'GitHub (managed)', 'active', true, 'ok') returning id`;
    for (const [name, risk] of [
      ["list_issues", "read"],
      ["delete_repo", "destructive"],
    ]) {
      await sql`insert into tool_catalog_entries (company_id, connection_id, name, description, schema_hash, version_hash, risk, status)
        values (${companyId}, ${conn!.id}, ${name!}, ${`${name} on GitHub`}, ${`schema-${name}`}, ${`version-${name}`}, ${risk!}, 'active')`;
    }
    await sql`update companies set access_version = access_version + 1 where id = ${companyId}`;
  } finally {
    await sql.end();
  }
}
