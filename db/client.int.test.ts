import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
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

describe("transactions", () => {
  it("commit, rollback and savepoints behave on the reserved transaction connection", async () => {
    const d = openDatabase(database.url, { max: 2 });
    const company = (slug: string) => ({ name: slug, slug, issuePrefix: slug.slice(0, 4).toUpperCase() });
    const exists = async (slug: string) =>
      (await d.db.select().from(companies).where(eq(companies.slug, slug))).length === 1;
    try {
      await d.db.transaction(async (tx) => {
        await tx.insert(companies).values(company("txcommit"));
        // A failing nested transaction rolls back to its savepoint only.
        await tx
          .transaction(async (inner) => {
            await inner.insert(companies).values(company("txinner"));
            throw new Error("inner fails");
          })
          .catch(() => {});
      });
      await expect(
        d.db.transaction(async (tx) => {
          await tx.insert(companies).values(company("txrollback"));
          throw new Error("outer fails");
        }),
      ).rejects.toThrow("outer fails");
      expect([await exists("txcommit"), await exists("txinner"), await exists("txrollback")]).toEqual([
        true,
        false,
        false,
      ]);
    } finally {
      await d.close();
    }
  });
});

describe("transactions under concurrent load", () => {
  it("concurrent transactions and pipelined prepared statements never share a transaction's connection", async () => {
    const d = openDatabase(database.url, { max: 3 });
    try {
      const big = "x".repeat(40_000); // large statements fill the socket buffer (backpressure)
      for (let round = 0; round < 10; round++) {
        await Promise.all(
          Array.from({ length: 300 }, (_, i) =>
            i % 3 === 0
              ? d.db.transaction(async (tx) => {
                  const [{ txid }] = (await tx.execute(
                    sql`select txid_current()::text as txid, ${big}::text as pad`,
                  )) as unknown as [{ txid: string }];
                  const [{ again }] = (await tx.execute(
                    sql`select txid_current()::text as again, ${i}::int as n`,
                  )) as unknown as [{ again: string }];
                  // Both statements ran inside this one transaction.
                  expect(again).toBe(txid);
                })
              : d.db
                  .select()
                  .from(companies)
                  .where(sql`${companies.name} <> ${big + i}`),
          ),
        );
      }
      // Nothing was left open: no backend idle in a transaction.
      const open = await d.sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%'`;
      expect(open[0]!.n).toBe(0);
    } finally {
      await d.close();
    }
  });
});
