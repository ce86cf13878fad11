/**
 * The cross-replica relay of the MCP endpoint: PostgreSQL `LISTEN/NOTIFY` on one channel.
 *
 * A call in progress runs on one replica, but the agent's next POST — the answer to a
 * server-to-client request, or a `notifications/cancelled` — may reach any replica. That
 * replica writes what must survive (the answer, in `tool_gateway_relay_requests`) and then
 * announces a key (`answer:<session>:<relay id>` or `cancel:<session>:<request id>`); the
 * replica holding the call hears it and acts. A notification carries only the key (NOTIFY
 * payloads are bounded at 8000 bytes and are visible to every listener); the data is read from
 * the table, so a missed notification is recovered by the waiter's periodic re-read.
 *
 * One LISTEN connection per process and database (postgres.js re-listens after a reconnect).
 */
import type postgres from "postgres";
import type { Db } from "@/db/client";
import { GATEWAY_CHANNEL } from "../../access/changes";
import { logWarn } from "../../log";

/** One channel for the relay and for access changes (`server/access/changes.ts`). */
export const RELAY_CHANNEL = GATEWAY_CHANNEL;

type Handler = () => void;

interface Bus {
  handlers: Map<string, Set<Handler>>;
  ready: Promise<unknown>;
}

const buses = new WeakMap<object, Bus>();

function rawSql(db: Db): postgres.Sql {
  return (db as unknown as { $client: postgres.Sql }).$client;
}

function busFor(db: Db): Bus {
  const sql = rawSql(db);
  let bus = buses.get(sql);
  if (bus) return bus;
  const handlers = new Map<string, Set<Handler>>();
  const ready = sql
    .listen(RELAY_CHANNEL, (key) => {
      for (const h of handlers.get(key) ?? []) {
        try {
          h();
        } catch (err) {
          logWarn("gateway.relay_handler_failed", { message: (err as Error).message });
        }
      }
    })
    .catch((err: unknown) => {
      // Without LISTEN, waiters still complete through their periodic re-read of the table.
      logWarn("gateway.relay_listen_failed", { message: (err as Error).message });
      buses.delete(sql);
    });
  bus = { handlers, ready };
  buses.set(sql, bus);
  return bus;
}

export const answerKey = (sessionId: string, relayId: string) => `answer:${sessionId}:${relayId}`;
/** A JSON-RPC request id is a string or an integer: both spellings are kept apart. */
export const cancelKey = (sessionId: string, requestId: string | number) =>
  `cancel:${sessionId}:${JSON.stringify(requestId)}`;

/**
 * Calls `handler` whenever `key` is announced, on any replica. Resolves once this process is
 * listening (so an announcement made after it cannot be missed); returns the unsubscribe.
 */
export async function subscribe(db: Db, key: string, handler: Handler): Promise<() => void> {
  const bus = busFor(db);
  let set = bus.handlers.get(key);
  if (!set) {
    set = new Set();
    bus.handlers.set(key, set);
  }
  set.add(handler);
  await bus.ready;
  return () => {
    const s = bus.handlers.get(key);
    s?.delete(handler);
    if (s?.size === 0) bus.handlers.delete(key);
  };
}

/** Announces `key` to every replica (after the caller's write is committed). */
export async function announce(db: Db, key: string): Promise<void> {
  await rawSql(db)`select pg_notify(${RELAY_CHANNEL}, ${key})`;
}
