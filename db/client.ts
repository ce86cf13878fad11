import path from "node:path";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
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

type AnySql = postgres.Sql | postgres.TransactionSql;

/**
 * The driver, with every parameterised statement drizzle sends run as a named prepared
 * statement. drizzle-orm sends its queries through `unsafe(…, { prepare: false })` unless a
 * query is built with `.prepare(name)`; postgres.js then asks the server to describe each
 * unnamed statement before executing it — two round trips, and a parse and plan, per
 * statement. Prepared, a statement is described once per connection and then executed in one
 * round trip (postgres.js keys its per-connection cache by text and parameter types). On the
 * gateway's hot path this halves the round trips per governed call (docs/benchmarks.md).
 * Transactions and savepoints hand drizzle a transaction-scoped client: it is wrapped too.
 */
function preparing<T extends AnySql>(sql: T): T {
  const wrapCallback = (args: unknown[]) => {
    const i = args.findIndex((a) => typeof a === "function");
    if (i >= 0) {
      const fn = args[i] as (tx: postgres.TransactionSql) => unknown;
      args[i] = (tx: postgres.TransactionSql) => fn(preparing(tx));
    }
    return args;
  };
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options: Record<string, unknown> = {}) =>
          (target.unsafe as (q: string, p?: unknown[], o?: Record<string, unknown>) => unknown)(
            query,
            params,
            { ...options, prepare: Array.isArray(params) && params.length > 0 },
          );
      }
      if (prop === "begin" || prop === "savepoint") {
        const fn = (target as unknown as Record<string, (...a: unknown[]) => unknown>)[prop]!;
        return (...args: unknown[]) => fn.apply(target, wrapCallback(args));
      }
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
  const db = drizzle(preparedStatementsEnabled() ? preparing(sql) : sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/** Applies committed migrations (idempotent; concurrent starters serialise on an advisory lock). */
export async function migrateDatabase(url: string, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(hashtext('paperclip:migrate'))`;
    await migrate(drizzle(sql), { migrationsFolder });
  } finally {
    await sql`select pg_advisory_unlock(hashtext('paperclip:migrate'))`.catch(() => {});
    await sql.end({ timeout: 5 });
  }
}

type GlobalDb = typeof globalThis & { __paperclipDb?: Database };

/**
 * The process-wide database for the running app. Requires DATABASE_URL; `npm start` sets it
 * (to the embedded server when the operator did not). Kept on globalThis so dev reloads reuse it.
 */
export function getDb(): Db {
  const g = globalThis as GlobalDb;
  if (!g.__paperclipDb) {
    const url = process.env.DATABASE_URL;
    if (!url) {
      throw new Error(
        "DATABASE_URL is not set: start the app with `npm start`, which provides the embedded database",
      );
    }
    g.__paperclipDb = openDatabase(url, { max: Number(process.env.PAPERCLIP_DB_POOL ?? 10) });
  }
  return g.__paperclipDb.db;
}
