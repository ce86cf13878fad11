import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/database";
import {
  agents,
  companies,
  heartbeatRuns,
  issues,
  toolApplications,
  toolCallEvents,
  toolConnections,
} from ".";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let acme: { id: string };
let globex: { id: string };
let globexAgent: { id: string };
let acmeAgent: { id: string };

beforeAll(async () => {
  database = await createTestDatabase();
  acme = (
    await database.db
      .insert(companies)
      .values({ name: "Acme", slug: "acme", issuePrefix: "ACME" })
      .returning()
  )[0]!;
  globex = (
    await database.db
      .insert(companies)
      .values({ name: "Globex", slug: "globex", issuePrefix: "GLX" })
      .returning()
  )[0]!;
  acmeAgent = (await database.db.insert(agents).values({ companyId: acme.id, name: "A" }).returning())[0]!;
  globexAgent = (
    await database.db.insert(agents).values({ companyId: globex.id, name: "G" }).returning()
  )[0]!;
});

afterAll(async () => {
  await database.drop();
});

/** The PostgreSQL error code of a failed statement. */
async function pgCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    return e.cause?.code ?? e.code;
  }
}

describe("company boundary in the database", () => {
  it("refuses a row that points at another company's row (composite foreign key)", async () => {
    const code = await pgCode(
      database.db
        .insert(issues)
        .values({ companyId: acme.id, number: 1, title: "x", assigneeAgentId: globexAgent.id }),
    );
    expect(code).toBe("23503"); // foreign_key_violation
    // The same insert pointing at its own company's agent succeeds, so the refusal above is the boundary.
    await database.db
      .insert(issues)
      .values({ companyId: acme.id, number: 1, title: "x", assigneeAgentId: acmeAgent.id });
  });

  it("refuses cross-company references among Tools & Access rows too", async () => {
    const [app] = await database.db
      .insert(toolApplications)
      .values({ companyId: globex.id, slug: "echo", name: "Echo", type: "mcp_http" })
      .returning();
    const code = await pgCode(
      database.db
        .insert(toolConnections)
        .values({ companyId: acme.id, applicationId: app!.id, name: "stolen" }),
    );
    expect(code).toBe("23503");
    const run = await pgCode(
      database.db.insert(heartbeatRuns).values({
        companyId: acme.id,
        agentId: globexAgent.id,
        status: "running",
        startedByActorType: "system",
        startedByActorId: "t",
      }),
    );
    expect(run).toBe("23503");
  });

  it("every company-scoped table has company_id and every reference between them is composite", async () => {
    // Foreign keys from a company-scoped table to another company-scoped table must include company_id.
    const rows = (await database.db.execute(sql`
      select con.conname, cl.relname as tbl, ref.relname as ref,
        array(select att.attname from unnest(con.conkey) k join pg_attribute att
              on att.attrelid = con.conrelid and att.attnum = k) as cols
      from pg_constraint con
      join pg_class cl on cl.oid = con.conrelid
      join pg_class ref on ref.oid = con.confrelid
      join pg_namespace ns on ns.oid = cl.relnamespace and ns.nspname = 'public'
      where con.contype = 'f'
        and exists (select 1 from information_schema.columns c where c.table_name = ref.relname and c.column_name = 'company_id')
        and exists (select 1 from information_schema.columns c where c.table_name = cl.relname and c.column_name = 'company_id')
    `)) as unknown as { conname: string; tbl: string; ref: string; cols: string[] }[];
    expect(rows.length).toBeGreaterThan(50);
    const single = rows.filter((r) => !r.cols.includes("company_id") && r.ref !== "companies");
    expect(single).toEqual([]);
  });

  it("keeps the tool audit trail append-only", async () => {
    const [event] = await database.db
      .insert(toolCallEvents)
      .values({ companyId: acme.id, eventType: "discovery", actorType: "system", actorId: "t" })
      .returning();
    expect(
      await pgCode(
        database.db.update(toolCallEvents).set({ decision: "allow" }).where(sql`id = ${event!.id}`),
      ),
    ).toBe("42501");
    expect(await pgCode(database.db.delete(toolCallEvents).where(sql`id = ${event!.id}`))).toBe("42501");
  });
});
