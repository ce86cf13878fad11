import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFailureOf } from "@/server/database/unavailable";
import { CuttableProxy } from "@/server/testing/cuttable-proxy";
import { openDatabase } from "./client";
import { createTestDatabase } from "./test/database";

// A transaction whose connection dies mid-way (the database went away) must fail at once, send
// nothing more on the dead connection, and leave a pool that works when the database is back
// (db/client.ts `begin`: no rollback on a broken connection, the pool replaced).

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: CuttableProxy;

beforeAll(async () => {
  database = await createTestDatabase();
  const u = new URL(database.url);
  proxy = new CuttableProxy(u.hostname, Number(u.port || 5432));
  await proxy.open();
});
afterAll(async () => {
  await proxy?.cut();
  await database?.drop();
});

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<{ hung: true }>((r) => setTimeout(() => r({ hung: true }), ms).unref()),
  ]);

describe("a transaction whose connection dies", () => {
  it("fails at once as a connection failure, and the pool works again once the database is back", async () => {
    const u = new URL(database.url);
    u.port = String(proxy.port);
    const d = openDatabase(u.toString(), { max: 2 });
    try {
      await d.db.execute(sql`select 1`);
      const started = Date.now();
      const tx = await within(
        d.db.transaction(async (t) => {
          await t.execute(sql`select 1`);
          await proxy.cut();
          await t.execute(sql`select 2`);
        }),
        8000,
      );
      expect("hung" in tx, "the transaction hung").toBe(false);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(databaseFailureOf((tx as { error?: unknown }).error)).toBe("connection");

      await proxy.open();
      const deadline = Date.now() + 10_000;
      let ok = false;
      while (!ok && Date.now() < deadline) {
        const r = await within(d.db.execute(sql`select 1 as one`), 3000);
        ok = "value" in r;
        if (!ok) await new Promise((res) => setTimeout(res, 200));
      }
      expect(ok, "the pool never worked again").toBe(true);
      const again = await within(
        d.db.transaction((t) => t.execute(sql`select 3`)),
        3000,
      );
      expect("value" in again).toBe(true);
    } finally {
      await within(d.close(), 6000);
    }
  }, 30_000);
});
