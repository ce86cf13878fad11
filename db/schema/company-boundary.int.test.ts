import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, pgCode } from "../test/database";
import {
  agents,
  companies,
  heartbeatRuns,
  issues,
  toolApplications,
  toolCallEvents,
  toolConnections,
} from ".";

/**
 * The uuid `*_id` columns of company-scoped tables that have no foreign key, each with its reason.
 * Any other such column without one fails the test below.
 *
 * tool_call_events: audit rows are recorded facts copied from a ledger row (whose own composite
 * foreign keys enforced the company boundary) or from an authenticated session row; its
 * invocation foreign key keeps the event's company equal to its ledger row's. The other
 * references are not re-verified per event because each costs an index probe and a KEY SHARE
 * lock on a shared parent row on every call (docs/benchmarks.md).
 */
const AUDIT_COPY = "audit fact copied from a checked ledger or session row (db/schema/gateway.ts)";
const UNREFERENCED_ID_COLUMNS: Record<string, string> = {
  "tool_call_events.run_id": AUDIT_COPY,
  "tool_call_events.issue_id": AUDIT_COPY,
  "tool_call_events.agent_id": AUDIT_COPY,
  "tool_call_events.project_id": AUDIT_COPY,
  "tool_call_events.routine_id": AUDIT_COPY,
  "tool_call_events.session_id": AUDIT_COPY,
  "tool_call_events.application_id": AUDIT_COPY,
  "tool_call_events.connection_id": AUDIT_COPY,
  "tool_call_events.catalog_entry_id": AUDIT_COPY,
  "tool_call_events.action_request_id": AUDIT_COPY,
  "tool_call_events.trust_rule_id": AUDIT_COPY,
  "tool_call_events.runtime_slot_id": AUDIT_COPY,
  // Not a reference: the UUID an assistant chose for one intended write (the receipt key).
  "mcp_event_deliveries.activity_id":
    "the activity_log row an event came from: the log is append-only history, a delivery receipt only names it (db/schema/events.ts)",
  "mcp_write_receipts.request_id": "client-chosen idempotency key, not a row id (db/schema/public-mcp.ts)",
  "mcp_file_transfers.request_id":
    "the assistant's own request UUID (the upload's idempotency key), not a reference to a row",
  // Older columns without a foreign key, listed as found; not reviewed here.
  "company_secret_access_events.invocation_id": "pre-existing: no foreign key in db/schema/secrets.ts",
  "tool_runtime_slots.template_id": "pre-existing: no foreign key in db/schema/gateway.ts",
  "tool_trust_rules.source_action_request_id": "pre-existing: no foreign key in db/schema/tools.ts",
};

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let acme: { id: string };
let globex: { id: string };
let globexAgent: { id: string };
let acmeAgent: { id: string };

beforeAll(async () => {
  database = await createTestDatabase();
  const company = async (name: string, issuePrefix: string) =>
    (
      await database.db.insert(companies).values({ name, slug: name.toLowerCase(), issuePrefix }).returning()
    )[0]!;
  acme = await company("Acme", "ACME");
  globex = await company("Globex", "GLX");
  acmeAgent = (await database.db.insert(agents).values({ companyId: acme.id, name: "A" }).returning())[0]!;
  globexAgent = (
    await database.db.insert(agents).values({ companyId: globex.id, name: "G" }).returning()
  )[0]!;
});

afterAll(async () => {
  await database.drop();
});

/** Foreign keys from a company-scoped table to companies or to another company-scoped table. */
async function companyScopedForeignKeys() {
  return (await database.db.execute(sql`
    select con.conname, cl.relname as tbl, ref.relname as ref,
      array(select att.attname from unnest(con.conkey) with ordinality k(attnum, ord) join pg_attribute att
            on att.attrelid = con.conrelid and att.attnum = k.attnum order by k.ord) as cols
    from pg_constraint con
    join pg_class cl on cl.oid = con.conrelid
    join pg_class ref on ref.oid = con.confrelid
    join pg_namespace ns on ns.oid = cl.relnamespace and ns.nspname = 'public'
    where con.contype = 'f'
      and (ref.relname = 'companies'
        or exists (select 1 from information_schema.columns c where c.table_name = ref.relname and c.column_name = 'company_id'))
      and exists (select 1 from information_schema.columns c where c.table_name = cl.relname and c.column_name = 'company_id')
    order by cl.relname, con.conname
  `)) as unknown as { conname: string; tbl: string; ref: string; cols: string[] }[];
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
    const rows = await companyScopedForeignKeys();
    expect(rows.length).toBeGreaterThan(50);
    const single = rows.filter((r) => !r.cols.includes("company_id") && r.ref !== "companies");
    expect(single).toEqual([]);
  });

  it("every id column of a company-scoped table is covered by a foreign key, or exempted by name", async () => {
    // Catches a composite foreign key that disappears: its column would be left unchecked.
    const covered = new Set(
      (
        (await database.db.execute(sql`
          select cl.relname || '.' || att.attname as col
          from pg_constraint con
          join pg_class cl on cl.oid = con.conrelid
          join pg_namespace ns on ns.oid = cl.relnamespace and ns.nspname = 'public'
          join pg_attribute att on att.attrelid = con.conrelid and att.attnum = any(con.conkey)
          where con.contype = 'f'
        `)) as unknown as { col: string }[]
      ).map((r) => r.col),
    );
    const columns = (await database.db.execute(sql`
      select c.table_name as tbl, c.column_name as col
      from information_schema.columns c
      where c.table_schema = 'public' and c.data_type = 'uuid' and right(c.column_name, 3) = '_id'
        and exists (select 1 from information_schema.columns k
                    where k.table_schema = 'public' and k.table_name = c.table_name and k.column_name = 'company_id')
      order by 1, 2
    `)) as unknown as { tbl: string; col: string }[];
    expect(columns.length).toBeGreaterThan(50);
    const unchecked = columns.map((c) => `${c.tbl}.${c.col}`).filter((c) => !covered.has(c));
    expect(unchecked.sort()).toEqual(Object.keys(UNREFERENCED_ID_COLUMNS).sort());
  });

  it("tool_call_events keeps exactly its company and invocation foreign keys", async () => {
    const rows = (await companyScopedForeignKeys()).filter((r) => r.tbl === "tool_call_events");
    expect(rows.map(({ conname, ref, cols }) => ({ conname, ref, cols }))).toEqual([
      { conname: "tool_call_events_company_id_companies_id_fk", ref: "companies", cols: ["company_id"] },
      {
        conname: "tool_call_events_invocation_fk",
        ref: "tool_invocations",
        cols: ["company_id", "invocation_id"],
      },
    ]);
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
