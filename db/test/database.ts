import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { type Database, openDatabase } from "../client";
import { withCredentials } from "../roles";

/**
 * A fresh, migrated database for one test file, cloned from the run's template (tens of ms).
 * Each file gets its own, so files run in parallel without sharing rows. `db`/`sql`/`url`
 * connect as the run's app role (what the product runs as: no UPDATE/DELETE/TRUNCATE of
 * audit rows, no DDL); `ownerUrl` as the admin role that migrated it.
 */
export async function createTestDatabase(): Promise<
  Database & { url: string; ownerUrl: string; appRole: string; drop: () => Promise<void> }
> {
  const adminUrl = inject("adminDatabaseUrl");
  const appRole = inject("appRole");
  const appPassword = inject("appPassword");
  const template = inject("templateDatabase");
  const pid = template.split("_")[2];
  const name = `pc_test_${pid}_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`create database "${name}" template "${template}"`);
      break;
    } catch (err) {
      // Two clones of one template at the same instant can collide; retry briefly.
      if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const ownerUrl = u.toString();
  const url = withCredentials(ownerUrl, appRole, appPassword);
  const database = openDatabase(url, { max: 8 });
  return {
    ...database,
    url,
    ownerUrl,
    appRole,
    drop: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** The PostgreSQL error code (SQLSTATE) a statement failed with, or undefined when it succeeded. */
export async function pgCode(promise: PromiseLike<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    return e.cause?.code ?? e.code;
  }
}
