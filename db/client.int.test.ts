import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { agents, companies } from "./schema";
import { createTestDatabase } from "./test/database";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** The statements the one connection of a fresh single-connection pool has prepared after two queries. */
async function preparedAfterQueries(): Promise<string[]> {
  const d = openDatabase(database.url, { max: 1 });
  try {
    await d.db.select().from(companies).where(eq(companies.id, randomUUID()));
    // A transaction hands drizzle a transaction-scoped client: it must prepare too.
    await d.db.transaction((tx) => tx.select().from(agents).where(eq(agents.id, randomUUID())));
    const rows = await d.sql<{ statement: string }[]>`select statement from pg_prepared_statements`;
    return rows.map((r) => r.statement);
  } finally {
    await d.close();
  }
}

describe("database client", () => {
  it("runs drizzle's parameterised statements as prepared statements, inside transactions too", async () => {
    const statements = await preparedAfterQueries();
    expect(statements.some((s) => s.includes('from "companies"'))).toBe(true);
    expect(statements.some((s) => s.includes('from "agents"'))).toBe(true);
  });

  it("PAPERCLIP_DB_PREPARE=off leaves them unprepared (for poolers that cannot carry them)", async () => {
    process.env.PAPERCLIP_DB_PREPARE = "off";
    try {
      const statements = await preparedAfterQueries();
      expect(statements.filter((s) => s.includes('from "companies"') || s.includes('from "agents"'))).toEqual(
        [],
      );
    } finally {
      delete process.env.PAPERCLIP_DB_PREPARE;
    }
  });
});
