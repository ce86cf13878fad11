import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoIfEmpty } from "@/server/core/seed";
import { inspectDatabaseRole } from "@/server/http/doctor";
import { migrateDatabase } from "./client";
import { APPEND_ONLY_TABLES, ensureLoginRole, roleOf } from "./roles";
import { createTestDatabase, pgCode } from "./test/database";

/**
 * Least privilege in PostgreSQL (docs/security.md, "Database roles"): the role the app runs
 * as cannot rewrite or empty the audit trail, nor alter the schema; the owner cannot TRUNCATE
 * the audit tables either (statement trigger).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: postgres.Sql;
let owner: postgres.Sql;
let companyId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = postgres(database.url, { max: 1, onnotice: () => {} });
  owner = postgres(database.ownerUrl, { max: 1, onnotice: () => {} });
  // Normal app writes as the app role: the demo seed runs the product's own verbs (users,
  // company, memberships, keys, agents, issues, tools, activity) in one transaction.
  const creds = await seedDemoIfEmpty(database.db, "http://localhost:3100");
  expect(creds).not.toBeNull();
  const [c] = await app<{ id: string }[]>`select id from companies limit 1`;
  companyId = c!.id;
});

afterAll(async () => {
  await app?.end({ timeout: 5 });
  await owner?.end({ timeout: 5 });
  await database?.drop();
});

describe("the app role", () => {
  it("is the role the tests connect as, neither superuser nor owner", async () => {
    expect(await roleOf(database.url)).toBe(database.appRole);
    const info = await inspectDatabaseRole(database.db);
    expect(info).toMatchObject({
      role: database.appRole,
      superuser: false,
      ownsSchema: false,
      canAlterSchema: false,
      auditWritable: [],
      truncateGuarded: [...APPEND_ONLY_TABLES].sort(),
    });
  });

  it("may INSERT and read tool_call_events, and nothing else on them", async () => {
    const [event] = await app<{ id: string }[]>`
      insert into tool_call_events (company_id, event_type, actor_type, actor_id)
      values (${companyId}, 'discovery', 'system', 'roles-test') returning id`;
    expect(event?.id).toBeTruthy();
    expect(await pgCode(app`update tool_call_events set decision = 'allow' where id = ${event!.id}`)).toBe(
      "42501",
    );
    expect(await pgCode(app`delete from tool_call_events where id = ${event!.id}`)).toBe("42501");
    expect(await pgCode(app`truncate tool_call_events`)).toBe("42501");
    const rows = await app`select 1 from tool_call_events where id = ${event!.id}`;
    expect(rows.length).toBe(1);
  });

  it("may not UPDATE, DELETE or TRUNCATE the other audit tables", async () => {
    const [row] = await app<{ id: string }[]>`select id from activity_log limit 1`;
    expect(row?.id).toBeTruthy(); // the seed's verbs logged activity as the app role
    expect(await pgCode(app`update activity_log set action = 'x' where id = ${row!.id}`)).toBe("42501");
    expect(await pgCode(app`delete from activity_log where id = ${row!.id}`)).toBe("42501");
    for (const table of APPEND_ONLY_TABLES)
      expect(await pgCode(app.unsafe(`truncate ${table}`)), table).toBe("42501");
    expect(await pgCode(app`delete from company_secret_access_events`)).toBe("42501");
  });

  it("cannot alter the schema, drop or disable the guards, or grant itself more", async () => {
    for (const ddl of [
      "alter table tool_call_events disable trigger tool_call_events_no_update_delete",
      "drop trigger tool_call_events_no_truncate on tool_call_events",
      "alter table tool_call_events add column x int",
      "drop table tool_call_events",
      "create table public.evil (x int)",
      "create schema evil",
      `select paperclip_grant_app_role(current_user)`,
    ])
      expect(await pgCode(app.unsafe(ddl)), ddl).toBe("42501");
    // A GRANT of what it does not hold only warns; it still holds nothing more.
    await app`grant update on tool_call_events to public`;
    const [r] = await app`select has_table_privilege('tool_call_events', 'UPDATE') as u`;
    expect(r?.u).toBe(false);
  });

  it("keeps normal DML elsewhere (update and delete of ordinary rows)", async () => {
    await app`update companies set name = 'Acme (renamed)' where id = ${companyId}`;
    const [p] = await app<{ id: string }[]>`
      insert into projects (company_id, name) values (${companyId}, 'roles-test') returning id`;
    expect(await pgCode(app`delete from projects where id = ${p!.id}`)).toBeUndefined();
  });

  it("passes through migrateDatabase when nothing is pending (replicas started as the app role)", async () => {
    await expect(migrateDatabase(database.url)).resolves.toBeUndefined();
  });

  it("cannot apply pending migrations, and the error says to use the owner role", async () => {
    const name = `pc_test_fresh_${randomBytes(4).toString("hex")}`;
    await owner.unsafe(`create database "${name}"`);
    try {
      const u = new URL(database.url);
      u.pathname = `/${name}`;
      await expect(migrateDatabase(u.toString())).rejects.toThrow(/MIGRATION_DATABASE_URL/);
    } finally {
      await owner.unsafe(`drop database if exists "${name}" with (force)`);
    }
  });
});

describe("the owner role", () => {
  it("cannot TRUNCATE the audit tables either, not even through a cascade", async () => {
    for (const table of APPEND_ONLY_TABLES)
      expect(await pgCode(owner.unsafe(`truncate ${table}`)), table).toBe("42501");
    expect(await pgCode(owner`truncate companies cascade`)).toBe("42501");
    const rows = await owner`select 1 from companies`;
    expect(rows.length).toBeGreaterThan(0);
  });

  it("re-granting is idempotent and never strips the owner itself", async () => {
    await owner`select paperclip_grant_app_role(${database.appRole})`;
    await owner`select paperclip_grant_app_role(current_user)`;
    const [p] = await owner<{ id: string }[]>`
      insert into projects (company_id, name) values (${companyId}, 'owner-test') returning id`;
    await owner`delete from projects where id = ${p!.id}`;
  });
});

describe("ensureLoginRole", () => {
  it("tolerates concurrent creation of the same role", async () => {
    const name = `pc_app_${process.pid}_race_${randomBytes(3).toString("hex")}`;
    const admins = [0, 1, 2].map(() => postgres(database.ownerUrl, { max: 1, onnotice: () => {} }));
    try {
      await Promise.all(admins.map((a) => ensureLoginRole(a, name, "pw")));
      const [r] = await owner<{ rolsuper: boolean; rolcanlogin: boolean }[]>`
        select rolsuper, rolcanlogin from pg_roles where rolname = ${name}`;
      expect(r).toEqual({ rolsuper: false, rolcanlogin: true });
    } finally {
      await owner.unsafe(`drop role if exists "${name}"`);
      await Promise.all(admins.map((a) => a.end({ timeout: 5 })));
    }
  });
});
