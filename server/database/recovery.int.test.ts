// Issue 35, item 4: after an outage the breaker closes as soon as the database accepts
// connections again, not when postgres.js's reconnect backoff (up to 20 s after a run of failed
// connects) lets a connection try again. A loopback TCP proxy in front of the test database
// plays the outage: while "down" it refuses every connection.
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, databaseProbe, openDatabase } from "@/db/client";
import { createTestDatabase } from "@/db/test/database";
import { DatabaseBreaker } from "./breaker";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: { port: number; setUp: (up: boolean) => void; close: () => Promise<void> };
let behind: Database;

/**
 * A TCP proxy to `target`. Down, it stops listening (connects are refused, as by a stopped
 * PostgreSQL) and cuts every open connection; up, it listens on the same port again.
 */
async function startProxy(target: URL): Promise<typeof proxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    setUp(up) {
      if (up) server.listen(port, "127.0.0.1");
      else {
        server.close();
        for (const s of sockets) s.destroy();
      }
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        if (server.listening) server.close(() => r());
        else r();
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  database = await createTestDatabase();
  const target = new URL(database.url);
  proxy = await startProxy(target);
  const url = new URL(database.url);
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  behind = openDatabase(url.toString(), { max: 2 });
}, 60_000);

afterAll(async () => {
  await behind?.close().catch(() => {});
  await proxy?.close();
  await database?.drop();
});

describe("recovery after a database outage", () => {
  it("closes the breaker within 2 s of the database accepting connections, after many failed probes", async () => {
    const breaker = new DatabaseBreaker({ probeTimeoutMs: 2000, probeIntervalMs: 100 });
    const probe = databaseProbe(behind.db);
    await behind.db.execute(sql`select 1`);
    proxy.setUp(false);
    // The pool's requests fail, the breaker opens and probes every 100 ms: a long run of failed
    // connects, as a 40 s outage with 1 s probes gives (postgres.js's backoff then reaches 20 s).
    await expect(behind.db.execute(sql`select 1`)).rejects.toThrow();
    breaker.observe(Object.assign(new Error("down"), { code: "ECONNREFUSED" }), probe);
    for (let i = 0; i < 200 && breaker.state === "closed"; i++) await sleep(25);
    expect(breaker.state).not.toBe("closed");
    for (let i = 0; i < 6; i++) await expect(behind.db.execute(sql`select 1`)).rejects.toThrow();
    while (breaker.status().probes < 12) await sleep(50);
    expect(breaker.state).not.toBe("closed");

    proxy.setUp(true);
    const backAt = performance.now();
    while (breaker.state !== "closed" && performance.now() - backAt < 25_000) await sleep(20);
    const closedMs = performance.now() - backAt;
    // The pool answers at once too (its connections' backoff is bounded).
    await behind.db.execute(sql`select 1`);
    const answeredMs = performance.now() - backAt;
    console.log(
      `breaker closed ${Math.round(closedMs)} ms, pool answered ${Math.round(answeredMs)} ms after the database came back`,
    );
    expect(closedMs).toBeLessThan(2000);
    expect(answeredMs).toBeLessThan(2000);
    // The pool is at most its capped backoff (0.5 s) behind the breaker.
    expect(answeredMs - closedMs).toBeLessThan(500);
  }, 60_000);
});
