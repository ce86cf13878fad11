import path from "node:path";
import { sql as drizzleSql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { processSingleton } from "../server/config/process-singleton";
import { databaseFailureOf } from "./connection-failures";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction or the database: verbs accept either so callers can compose them. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export interface Database {
  db: Db;
  /** The pool now in use (`recycle` replaces it). */
  readonly sql: postgres.Sql;
  close: () => Promise<void>;
  /** Replaces the pool with a fresh one; the old one ends (its queries get up to 5 s). */
  recycle: () => Promise<void>;
}

export const MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations");

type Unsafe = (
  query: string,
  params?: unknown[],
  options?: Record<string, unknown>,
) => postgres.PendingQuery<postgres.Row[]>;
type TxCallback = (tx: postgres.TransactionSql) => unknown;

/** Awaits what a transaction or savepoint callback returned (postgres.js also takes an array of queries). */
const settle = async (x: unknown) => (Array.isArray(x) ? Promise.all(x) : x);

/**
 * The client drizzle is given. Two departures from plain postgres.js:
 *
 * 1. **Prepared statements** (unless `PAPERCLIP_DB_PREPARE=off`). drizzle-orm sends its
 *    queries through `unsafe(…, { prepare: false })` unless built with `.prepare(name)`, and
 *    postgres.js then asks the server to describe each unnamed parameterised statement before
 *    executing it — two round trips, and a parse and plan, per statement. Prepared, a
 *    statement is described once per connection and then executed in one round trip
 *    (postgres.js keys its per-connection cache by text and parameter types). On the gateway's
 *    hot path this halves the round trips per governed call (docs/benchmarks.md).
 *
 * 2. **Transactions on a reserved connection.** postgres.js 3.4.9's `sql.begin` can write
 *    `BEGIN` on a connection without reserving it when the `BEGIN` is pipelined behind other
 *    queries or meets socket back-pressure (porsager/postgres#823 and #1189; the fixes #1207
 *    and #1218 are unmerged): the transaction fails with `UNSAFE_TRANSACTION`, or the
 *    connection goes back to the pool inside an open transaction and unrelated queries run in
 *    it. Prepared statements make connections pipelinable, which is when this shows (it did,
 *    in the cross-process rate-limit test). So `begin` takes a connection with
 *    `sql.reserve()` — an idle one, for this transaction alone — and runs `BEGIN`, the
 *    callback, `COMMIT` (or `ROLLBACK`) and savepoints on it itself.
 */
/** The error a statement gets when no connection took it within `ms` (a connection failure). */
function connectionWaitTimeout(ms: number, cause?: unknown): Error {
  return Object.assign(new Error(`no database connection took the statement within ${ms} ms`), {
    code: "CONNECT_TIMEOUT",
    cause,
  });
}

interface PendingQueryInternals {
  /** Set by postgres.js when the statement is written to a connection. */
  state?: unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  cancel: () => unknown;
}

/**
 * Bounds how long a statement may wait for a connection. postgres.js 3.4.9 can keep a query
 * waiting forever for a connection that keeps closing during startup (it reconnects with no
 * delay and no deadline, porsager/postgres#1193, fix #1214 unmerged) — what a TCP proxy or
 * PgBouncer in front of a database that is down does. Once a statement is written to a
 * connection, `statement_timeout` and the socket bound it; before that, nothing did. So a
 * statement still unsent after `ms` is cancelled — postgres.js removes it from its queue and
 * never runs a cancelled query (`execute` skips it), so nothing it would have written happens
 * later — and fails as a connection failure (`CONNECT_TIMEOUT`), which the breaker checks
 * with a probe of its own. Hand-written because the driver has no such option.
 */
function boundWait<Q>(q: Q, ms: number): Q {
  const query = q as unknown as PendingQueryInternals;
  if (ms <= 0 || typeof query?.cancel !== "function" || typeof query.reject !== "function") return q;
  let timedOut = false;
  const timer = setTimeout(() => {
    if (query.state) return;
    timedOut = true;
    try {
      void Promise.resolve(query.cancel()).catch(() => {});
    } catch {
      // a query that settled meanwhile has nothing to cancel
    }
  }, ms);
  timer.unref?.();
  const { resolve, reject } = query;
  query.resolve = (value) => {
    clearTimeout(timer);
    resolve(value);
  };
  query.reject = (err) => {
    clearTimeout(timer);
    reject(timedOut ? connectionWaitTimeout(ms, err) : err);
  };
  return q;
}

/**
 * `sql.reserve()` with the same bound (a transaction waits for its connection the same way);
 * a connection granted after the deadline is released at once.
 */
async function reserveWithin(sql: postgres.Sql, ms: number): Promise<postgres.ReservedSql> {
  const pending = sql.reserve();
  if (ms <= 0) return pending;
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(connectionWaitTimeout(ms));
    }, ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([pending, deadline]);
  } finally {
    clearTimeout(timer);
    if (late) void pending.then((r) => r.release()).catch(() => {});
  }
}

/** How long a rollback after a failed statement may take before the connection counts as broken. */
const ROLLBACK_MS = 2000;

/** Whether `err` (or a cause) says the connection failed, not a statement on a working one. */
const connectionFailed = (err: unknown): boolean => databaseFailureOf(err) === "connection";

/** `work`, or a rejection after `ms`. */
function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      timer.unref?.();
    }),
  ]).finally(() => clearTimeout(timer));
}

function clientFor(current: () => postgres.Sql, prepare: boolean, onBroken: () => void): postgres.Sql {
  const waitMs = databaseTimeouts().connectionWaitMs;
  const unsafeOf = (target: postgres.Sql | postgres.ReservedSql): Unsafe => {
    const unsafe = target.unsafe as unknown as Unsafe;
    return prepare
      ? (query, params, options = {}) =>
          boundWait(
            unsafe.call(target, query, params, {
              ...options,
              prepare: Array.isArray(params) && params.length > 0,
            }),
            waitMs,
          )
      : (query, params, options) => boundWait(unsafe.call(target, query, params, options), waitMs);
  };

  /** The transaction-scoped client drizzle runs a transaction's statements on. */
  const transactionClient = (reserved: postgres.ReservedSql): postgres.TransactionSql => {
    let savepoints = 0;
    const unsafe = unsafeOf(reserved);
    const client: postgres.TransactionSql = new Proxy(reserved, {
      get(target, prop) {
        if (prop === "unsafe") return unsafe;
        if (prop === "savepoint") {
          return async (...args: unknown[]) => {
            const fn = args.find((a) => typeof a === "function") as TxCallback;
            const name = `s${savepoints++}`;
            await reserved.unsafe(`savepoint ${name}`);
            try {
              const result = await settle(fn(client));
              await reserved.unsafe(`release savepoint ${name}`);
              return result;
            } catch (err) {
              await reserved.unsafe(`rollback to savepoint ${name}`).catch(() => {});
              throw err;
            }
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as unknown as postgres.TransactionSql;
    return client;
  };

  /**
   * A transaction on a reserved connection. When its connection fails mid-transaction (the
   * database went away), nothing more is sent on it and it is not handed back to the pool: the
   * server ends the transaction itself when the connection drops, while postgres.js 3.4.9 would
   * take a `rollback` on the dead connection — or hand the connection, released, to the next
   * statement — and that statement could wait forever (the fault suite caught a call stuck this
   * way past the drain's grace period). The pool is replaced instead (`onBroken`): the old one's
   * statements end within 5 s, new ones get fresh connections. A rollback after any other
   * failure is bounded too.
   */
  const begin = async (...args: unknown[]) => {
    const fn = args.find((a) => typeof a === "function") as TxCallback;
    const mode = typeof args[0] === "string" ? args[0].replace(/[^a-z ]/gi, "") : "";
    const reserved = await reserveWithin(current(), waitMs);
    let broken = false;
    try {
      await reserved.unsafe(`begin ${mode}`);
      try {
        const result = await settle(fn(transactionClient(reserved)));
        await reserved.unsafe("commit");
        return result;
      } catch (err) {
        if (connectionFailed(err)) broken = true;
        else
          await withinMs(reserved.unsafe("rollback"), ROLLBACK_MS).catch(() => {
            broken = true;
          });
        throw err;
      }
    } catch (err) {
      if (connectionFailed(err)) broken = true;
      throw err;
    } finally {
      if (broken) onBroken();
      else reserved.release();
    }
  };

  const unsafes = new WeakMap<postgres.Sql, Unsafe>();
  const unsafeFor = (sql: postgres.Sql): Unsafe => {
    let u = unsafes.get(sql);
    if (!u) {
      u = unsafeOf(sql);
      unsafes.set(sql, u);
    }
    return u;
  };
  // Every access goes to the pool in use now, so `recycle` can swap it under drizzle.
  return new Proxy(current(), {
    get(_target, prop) {
      const sql = current();
      if (prop === "unsafe") return unsafeFor(sql);
      if (prop === "begin") return begin;
      const value = Reflect.get(sql, prop, sql);
      return typeof value === "function" ? value.bind(sql) : value;
    },
    apply(_target, _this, args) {
      return (current() as unknown as (...a: unknown[]) => unknown)(...args);
    },
  });
}

/**
 * Whether parameterised statements run as named prepared statements (the default). Set
 * `PAPERCLIP_DB_PREPARE=off` behind a connection pooler that cannot carry them (PgBouncer in
 * transaction mode before 1.21, or without `max_prepared_statements`).
 */
export const preparedStatementsEnabled = (): boolean => process.env.PAPERCLIP_DB_PREPARE !== "off";

const envNumber = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
};

/**
 * How long the pool waits for the database, so an outage fails fast instead of hanging
 * requests (docs/operations.md, "Database outages"). All in milliseconds; 0 turns a server-side
 * one off (behind PgBouncer, which refuses unknown startup parameters unless they are in its
 * `ignore_startup_parameters`, set both server-side ones to 0 and configure them on the role).
 */
export function databaseTimeouts() {
  return {
    /** TCP connect, TLS and authentication of one new connection (postgres.js `connect_timeout`). */
    connectMs: envNumber("PAPERCLIP_DB_CONNECT_TIMEOUT_MS", 3000) || 3000,
    /** PostgreSQL's `statement_timeout` for every statement of the app's connections. */
    statementMs: envNumber("PAPERCLIP_DB_STATEMENT_TIMEOUT_MS", 10_000),
    /** PostgreSQL's `idle_in_transaction_session_timeout`: a transaction left open is ended. */
    idleInTransactionMs: envNumber("PAPERCLIP_DB_IDLE_TX_TIMEOUT_MS", 30_000),
    /** Idle pool connections are closed after this (postgres.js `idle_timeout`). */
    idleMs: envNumber("PAPERCLIP_DB_IDLE_TIMEOUT_MS", 30_000) || 30_000,
    /**
     * How long a statement (or a transaction's connection) may wait for a pool connection before
     * it fails as a connection failure; 0 waits forever. A busy pool queues statements for a
     * while legitimately, so the default is generous: 10 s, as long as a statement may run.
     */
    connectionWaitMs: envNumber("PAPERCLIP_DB_CONNECTION_WAIT_MS", 10_000),
  };
}

/** postgres.js's backoff (seconds before a closed connection connects again), capped at 0.5 s. */
export function poolBackoffSeconds(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 0.5);
}

/**
 * The databases `openDatabase` opened and did not close (for `recycleAllPools` and
 * `closeAllDatabases`). Process-wide, like `probes`: the node listener (scripts/server.ts) and
 * the Next.js build each have a copy of this module, and the pool is opened by whichever asks
 * first — a module-level set left the listener's process guard recycling nothing and its
 * breaker probing through the pool instead of a connection of its own (issue 35, item 4).
 */
const openDatabases = processSingleton("openDatabases", () => new Set<Database>());

/** Opens a pooled connection to `url`. */
export function openDatabase(url: string, opts: { max?: number } = {}): Database {
  const t = databaseTimeouts();
  const serverSide: Record<string, string> = {};
  if (t.statementMs > 0) serverSide.statement_timeout = String(Math.round(t.statementMs));
  if (t.idleInTransactionMs > 0)
    serverSide.idle_in_transaction_session_timeout = String(Math.round(t.idleInTransactionMs));
  const pool = () =>
    postgres(url, {
      max: opts.max ?? 10,
      onnotice: () => {},
      // Keep the server from holding idle connections forever.
      idle_timeout: t.idleMs / 1000,
      // A connection that cannot be opened fails the query in seconds (the default is 30 s),
      // which is what lets the circuit breaker (server/database/breaker.ts) open quickly.
      connect_timeout: t.connectMs / 1000,
      // postgres.js's default backoff before a connection tries again grows to 10–20 s after a
      // run of failed connects, so the pool lagged the breaker (which had closed) by that much
      // after an outage. The breaker keeps requests off the pool while the database is down,
      // so a short cap costs no connection storm; 0.25–0.5 s keeps the pool within a probe
      // interval of the database coming back (issue 35, item 4).
      backoff: poolBackoffSeconds,
      // No pipelining: one statement per connection at a time. postgres.js 3.4.9 pipelines a
      // new statement onto a busy connection, and one written between the socket's `error`
      // and its `close` is never rejected (`closed(hadError)` rejects only when there was no
      // error, trusting `error()` to have done it for the statements it saw): the statement
      // hangs forever, and every later one pipelined behind it. The fault suite caught a call
      // stuck like this after a database outage, past the drain's grace period. Waiting in the
      // pool's own queue instead is bounded (`connectionWaitMs`). (Not in the package's types.)
      ...({ max_pipeline: 0 } as object),
      connection: { application_name: "paperclip", ...serverSide },
    });
  let sql = pool();
  // A transaction whose connection broke replaces the pool (one replacement for a burst: an
  // outage breaks every connection at once).
  let replacing = false;
  const onBroken = () => {
    if (replacing) return;
    replacing = true;
    setTimeout(() => {
      void database
        .recycle()
        .catch(() => {})
        .finally(() => {
          replacing = false;
        });
    }, 100).unref();
  };
  const db = drizzle(
    clientFor(() => sql, preparedStatementsEnabled(), onBroken),
    { schema },
  );
  // The breaker's probe has a connection of its own: it asks whether the database answers,
  // which a pool whose connections are all busy (or stuck) cannot tell. A fresh client per
  // probe, ended after it: a long-lived one carries postgres.js's reconnect backoff, which
  // grows with every failed connect to 10–20 s, so after a long outage the probe waited that
  // long before even trying — the breaker stayed open for 7–18 s after the database was back
  // (issue 35, item 4). One connect per probe interval is the whole cost.
  probes.set(db, async () => {
    const probeSql = postgres(url, {
      max: 1,
      onnotice: () => {},
      idle_timeout: 1,
      connect_timeout: t.connectMs / 1000,
      connection: { application_name: "paperclip-probe" },
    });
    try {
      return await probeSql`select 1`;
    } finally {
      void probeSql.end({ timeout: 0 }).catch(() => {});
    }
  });
  const database: Database = {
    db,
    get sql() {
      return sql;
    },
    close: async () => {
      openDatabases.delete(database);
      await sql.end({ timeout: 5 });
    },
    recycle: async () => {
      const old = sql;
      const fresh = pool();
      // drizzle set its type parsers and serializers on the first pool's options.
      Object.assign(fresh.options.parsers, old.options.parsers);
      Object.assign(fresh.options.serializers, old.options.serializers);
      sql = fresh;
      await old.end({ timeout: 5 }).catch(() => {});
    },
  };
  openDatabases.add(database);
  return database;
}

/** Closes every open database's pool (a server's last shutdown step; queries get up to 5 s). */
export async function closeAllDatabases(): Promise<void> {
  await Promise.all([...openDatabases].map((d) => d.close().catch(() => {})));
}

/**
 * Replaces the pool of every open database. For a pool that may hold a connection postgres.js
 * has wedged (server/database/process-guard.ts): its queries end within 5 s, new ones run on
 * fresh connections.
 */
export async function recycleAllPools(): Promise<void> {
  await Promise.all([...openDatabases].map((d) => d.recycle()));
}

const probes = processSingleton("databaseProbes", () => new WeakMap<object, () => Promise<unknown>>());

/**
 * A database round trip on a connection outside `db`'s pool (for a `db` from `openDatabase`;
 * any other `db` — a transaction — is probed with a `select 1` on itself).
 */
export function databaseProbe(db: Db | Tx): () => Promise<unknown> {
  return probes.get(db) ?? (() => db.execute(drizzleSql`select 1`));
}

/** Whether the database lacks any committed migration (a missing journal counts as lacking). */
async function migrationsPending(sql: postgres.Sql, migrationsFolder: string): Promise<boolean> {
  const last = Math.max(0, ...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
  const [journal] = await sql`select to_regclass('drizzle.__drizzle_migrations') as t`;
  if (!journal?.t) return true;
  const [row] = await sql`select max(created_at) as at from drizzle.__drizzle_migrations`;
  return !row?.at || Number(row.at) < last;
}

/**
 * Applies committed migrations (idempotent; concurrent starters serialise on an advisory lock).
 * When nothing is pending it changes nothing, so a process connected as the app role (which
 * may not create or alter anything, docs/security.md) passes through; when migrations are
 * pending and the role lacks the privileges, the error says to run them as the owner role.
 */
export async function migrateDatabase(url: string, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(hashtext('paperclip:migrate'))`;
    if (!(await migrationsPending(sql, migrationsFolder))) return;
    try {
      await migrate(drizzle(sql), { migrationsFolder });
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (code === "42501")
        throw new Error(
          `migrations are pending and this database role may not apply them (${(err as Error).message}); ` +
            "run them as the owner role: set MIGRATION_DATABASE_URL (docs/operations.md, “Database roles”)",
        );
      throw err;
    }
  } finally {
    await sql`select pg_advisory_unlock(hashtext('paperclip:migrate'))`.catch(() => {});
    await sql.end({ timeout: 5 });
  }
}

/**
 * The process-wide database for the running app. Requires DATABASE_URL; `npm start` sets it
 * (to the embedded server when the operator did not). A process singleton, so dev reloads reuse it.
 */
export function getDb(): Db {
  return processSingleton("db", () => {
    const url = process.env.DATABASE_URL;
    if (!url) {
      throw new Error(
        "DATABASE_URL is not set: start the app with `npm start`, which provides the embedded database",
      );
    }
    return openDatabase(url, { max: Number(process.env.PAPERCLIP_DB_POOL ?? 10) });
  }).db;
}
