// The production server loads db/client.ts twice — the node listener's bundle
// (scripts/server.ts) and the Next.js build — and the pool is opened by whichever copy asks
// first. What one copy registers for a pool (its breaker probe, its place in the list the
// process guard recycles and the shutdown closes) must be seen by the other: a module-level
// registry made the listener's breaker probe through the busy pool and recycle nothing, and the
// fault suite's recovery took 6.9 s on the production build (issue 35, item 4).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "@/db/test/database";

type Client = typeof import("./client");
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let first: Client;
let second: Client;

beforeAll(async () => {
  database = await createTestDatabase();
  vi.resetModules();
  first = await import("./client");
  vi.resetModules();
  second = await import("./client");
  expect(first).not.toBe(second);
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

describe("two copies of db/client.ts in one process", () => {
  it("probe a pool the other copy opened on a connection of its own", async () => {
    const opened = first.openDatabase(database.url, { max: 1 });
    try {
      // The pool's only connection is busy for 2 s: a probe through the pool would wait.
      // (then: drizzle's query runs only once it is awaited)
      const busy = opened.db.execute(sql`select pg_sleep(2)`).then(() => {});
      await new Promise((r) => setTimeout(r, 200));
      const started = performance.now();
      await second.databaseProbe(opened.db)();
      const ms = performance.now() - started;
      expect(ms).toBeLessThan(1000);
      await busy;
    } finally {
      await opened.close();
    }
  }, 20_000);

  it("close (and recycle) a pool the other copy opened", async () => {
    const opened = first.openDatabase(database.url, { max: 1 });
    await opened.db.execute(sql`select 1`);
    const pool = opened.sql;
    await second.recycleAllPools();
    expect(opened.sql).not.toBe(pool);
    await second.closeAllDatabases();
    await expect(opened.db.execute(sql`select 1`)).rejects.toThrow();
  }, 20_000);
});
