/**
 * Vitest global setup for integration tests: a real PostgreSQL (DATABASE_URL when set, else
 * an embedded server in a temporary directory) and one migrated template database that each
 * test file clones (see db/test/database.ts).
 *
 * Tests connect as an app role, like the product (docs/security.md, "Database roles"): the
 * template is migrated by the admin (owner) role, which then grants this run's own app role
 * its privileges; clones copy those grants. Roles are cluster-wide and several runs may share
 * one server, so each run makes its own role (`pc_app_<pid>_<time>`) and drops it at the end.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../client";
import { startEmbeddedPostgres } from "../embedded";
import { ensureLoginRole, grantAppRole } from "../roles";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
    appRole: string;
    appPassword: string;
  }
}

export default async function setup(project: TestProject) {
  let stopEmbedded: (() => Promise<void>) | null = null;
  let tmp: string | null = null;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    tmp = mkdtempSync(path.join(tmpdir(), "paperclip-test-"));
    chmodSync(tmp, 0o755); // as root, PostgreSQL runs as the postgres user and must enter it
    const embedded = await startEmbeddedPostgres({
      home: tmp,
      port: await freePort(),
      password: "test",
      database: "postgres",
    });
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const template = `pc_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  await migrateDatabase(withDatabase(adminUrl, template));
  const appRole = `pc_app_${process.pid}_${Date.now().toString(36)}`;
  const appPassword = randomBytes(18).toString("base64url");
  await ensureLoginRole(admin, appRole, appPassword);
  await grantAppRole(withDatabase(adminUrl, template), appRole);
  project.provide("adminDatabaseUrl", adminUrl);
  project.provide("templateDatabase", template);
  project.provide("appRole", appRole);
  project.provide("appPassword", appPassword);

  return async () => {
    // Drop every database this run created (the template and any clone a crashed file left).
    const rows = await admin<
      { datname: string }[]
    >`select datname from pg_database where datname like ${`pc_t%_${process.pid}_%`}`;
    for (const r of rows)
      await admin.unsafe(`drop database if exists "${r.datname}" with (force)`).catch(() => {});
    await admin.unsafe(`drop role if exists "${appRole}"`).catch(() => {});
    await admin.end({ timeout: 5 });
    if (stopEmbedded) await stopEmbedded();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
}
