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

/** Opens a pooled connection to `url`. */
export function openDatabase(url: string, opts: { max?: number } = {}): Database {
  const sql = postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    // Keep the server from holding idle connections forever.
    idle_timeout: 30,
    connection: { application_name: "paperclip" },
  });
  const db = drizzle(sql, { schema });
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
