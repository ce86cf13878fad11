/**
 * Database roles (docs/security.md, "Database roles"). Migrations run as an owner role; the
 * app runs as a role that holds normal DML on the app's tables and only SELECT and INSERT on
 * the audit tables, owns nothing and so cannot alter the schema or disable its triggers. The
 * owner grants those privileges with `paperclip_grant_app_role` (migration 0008) after every
 * migration run.
 */
import postgres from "postgres";

/** The app role `npm start` creates on the embedded database. */
export const EMBEDDED_APP_ROLE = "paperclip_app";

/** The tables only ever appended to (INSERT and SELECT for the app role; TRUNCATE refused for all). */
export const APPEND_ONLY_TABLES = [
  "tool_call_events",
  "activity_log",
  "company_secret_access_events",
] as const;

/** `url` with other credentials. */
export function withCredentials(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/** The role a connection string logs in as (what `current_user` says). */
export async function roleOf(url: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ role: string }[]>`select current_user as role`;
    return row!.role;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Creates a LOGIN role without any privilege (or resets its password to `password`), on a
 * connection of a role with CREATEROLE. Roles are cluster-wide, so two starters may race:
 * losing the race to create is fine.
 */
export async function ensureLoginRole(sql: postgres.Sql, name: string, password: string): Promise<void> {
  const ident = `"${name.replace(/"/g, '""')}"`;
  const literal = `'${password.replace(/'/g, "''")}'`;
  const [exists] = await sql`select 1 from pg_roles where rolname = ${name}`;
  if (!exists) {
    try {
      await sql.unsafe(
        `create role ${ident} login nosuperuser nocreatedb nocreaterole noinherit password ${literal}`,
      );
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // duplicate_object, or unique_violation when two CREATE ROLEs meet in pg_authid
      if (code !== "42710" && code !== "23505") throw err;
    }
  }
  // Concurrent ALTER ROLEs of one role can fail with "tuple concurrently updated": retry.
  for (let attempt = 0; ; attempt++) {
    try {
      await sql.unsafe(`alter role ${ident} with login password ${literal}`);
      return;
    } catch (err) {
      if (attempt >= 10 || !/tuple concurrently updated/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 50));
    }
  }
}

/** Grants `appRole` the app's privileges, connected as the owner (migration) role. */
export async function grantAppRole(ownerUrl: string, appRole: string): Promise<void> {
  const sql = postgres(ownerUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`select paperclip_grant_app_role(${appRole})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export interface PreparedDatabase {
  /** The role the app connects as. */
  appRole: string;
  /** The role migrations ran as. */
  migrationRole: string;
}

/**
 * Applies pending migrations as the migration (owner) role, then grants the app role its
 * privileges when the two differ. With one role for both (no `MIGRATION_DATABASE_URL`),
 * migrations run as the app's own role, as before roles were split.
 */
export async function migrateAndGrant(
  appUrl: string,
  migrationUrl: string | undefined,
  migrationsFolder?: string,
): Promise<PreparedDatabase> {
  const { migrateDatabase } = await import("./client");
  const ownerUrl = migrationUrl?.trim() || appUrl;
  await migrateDatabase(ownerUrl, migrationsFolder);
  const appRole = await roleOf(appUrl);
  const migrationRole = ownerUrl === appUrl ? appRole : await roleOf(ownerUrl);
  if (migrationRole !== appRole) await grantAppRole(ownerUrl, appRole);
  return { appRole, migrationRole };
}
