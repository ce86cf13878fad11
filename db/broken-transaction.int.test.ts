import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFailureOf } from "@/server/database/unavailable";
import { openDatabase } from "./client";
import { createTestDatabase } from "./test/database";

// A transaction whose connection dies mid-way (the database went away) must fail at once, send
// nothing more on the dead connection, and leave a pool that works when the database is back
// (db/client.ts `begin`: no rollback on a broken connection, the pool replaced).

/** A TCP proxy to PostgreSQL that can be cut (every connection reset, new ones refused) and reopened. */
class CuttableProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}
  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => server.listen(this.port, "127.0.0.1", r));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((r) => server.close(r));
  }
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: CuttableProxy;

beforeAll(async () => {
  database = await createTestDatabase();
  const u = new URL(database.url);
  proxy = new CuttableProxy({ host: u.hostname, port: Number(u.port || 5432) });
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
