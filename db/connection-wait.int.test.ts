import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFailureOf } from "@/server/database/unavailable";
import { openDatabase } from "./client";

// A server that accepts each connection and closes it during startup, as a PostgreSQL that is
// going down or coming up can: postgres.js 3.4.9 reconnects forever and the statement never
// settles (porsager/postgres#1193). The pool's wait bound must end it (db/client.ts `boundWait`).
let server: net.Server;
let url: string;
let accepted = 0;

beforeAll(async () => {
  server = net.createServer((socket) => {
    accepted++;
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `postgres://app:secret@127.0.0.1:${(server.address() as net.AddressInfo).port}/db`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const WAIT_MS = 800;

async function settleWithin<T>(
  work: Promise<T>,
  ms: number,
): Promise<{ value?: T; error?: unknown; hung?: true }> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<{ hung: true }>((resolve) => {
    timer = setTimeout(() => resolve({ hung: true }), ms);
  });
  try {
    return await Promise.race([
      work.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a statement waiting for a connection that never opens", () => {
  it("fails as a connection failure within the wait bound (a query and a transaction)", async () => {
    process.env.PAPERCLIP_DB_CONNECTION_WAIT_MS = String(WAIT_MS);
    const d = openDatabase(url, { max: 2 });
    try {
      const started = Date.now();
      const query = await settleWithin(d.db.execute(sql`select 1`), WAIT_MS * 5);
      expect(query.hung, "the statement hung").toBeUndefined();
      expect(Date.now() - started).toBeLessThan(WAIT_MS * 4);
      expect(databaseFailureOf(query.error)).toBe("connection");

      const tx = await settleWithin(
        d.db.transaction((t) => t.execute(sql`select 1`)),
        WAIT_MS * 5,
      );
      expect(tx.hung, "the transaction hung").toBeUndefined();
      expect(databaseFailureOf(tx.error)).toBe("connection");
      expect(accepted).toBeGreaterThan(0);
    } finally {
      delete process.env.PAPERCLIP_DB_CONNECTION_WAIT_MS;
      await Promise.race([d.close(), new Promise((r) => setTimeout(r, 1000))]);
    }
  });
});
