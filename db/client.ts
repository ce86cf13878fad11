import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { processSingleton } from "../server/config/process-singleton";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction or the database: verbs accept either so callers can compose them. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export interface Database {
  db: Db;
  sql: postgres.Sql;
  close: () => Promise<void>;
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
function clientFor(sql: postgres.Sql, prepare: boolean): postgres.Sql {
  const unsafeOf = (target: postgres.Sql | postgres.ReservedSql): Unsafe => {
    const unsafe = target.unsafe as unknown as Unsafe;
    return prepare
      ? (query, params, options = {}) =>
          unsafe.call(target, query, params, {
            ...options,
            prepare: Array.isArray(params) && params.length > 0,
          })
      : (query, params, options) => unsafe.call(target, query, params, options);
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

  const begin = async (...args: unknown[]) => {
    const fn = args.find((a) => typeof a === "function") as TxCallback;
    const mode = typeof args[0] === "string" ? args[0].replace(/[^a-z ]/gi, "") : "";
    const reserved = await sql.reserve();
    try {
      await reserved.unsafe(`begin ${mode}`);
      try {
        const result = await settle(fn(transactionClient(reserved)));
        await reserved.unsafe("commit");
        return result;
      } catch (err) {
        await reserved.unsafe("rollback").catch(() => {});
        throw err;
      }
    } finally {
      reserved.release();
    }
  };

  const unsafe = unsafeOf(sql);
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === "unsafe") return unsafe;
      if (prop === "begin") return begin;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Whether parameterised statements run as named prepared statements (the default). Set
 * `PAPERCLIP_DB_PREPARE=off` behind a connection pooler that cannot carry them (PgBouncer in
 * transaction mode before 1.21, or without `max_prepared_statements`).
 */
export const preparedStatementsEnabled = (): boolean => process.env.PAPERCLIP_DB_PREPARE !== "off";

/** Opens a pooled connection to `url`. */
export function openDatabase(url: string, opts: { max?: number } = {}): Database {
  const sql = postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    // Keep the server from holding idle connections forever.
    idle_timeout: 30,
    connection: { application_name: "paperclip" },
  });
  const db = drizzle(clientFor(sql, preparedStatementsEnabled()), { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
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
