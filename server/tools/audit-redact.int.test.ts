import { spawnSync } from "node:child_process";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { openDatabase } from "@/db/client";
import { activityLog, toolInvocations } from "@/db/schema";
import { pgCode } from "@/db/test/database";
import type { HttpFixture } from "@/fixtures/mcp/http";
import { systemContext } from "@/server/context";
import type { DemoCredentials } from "@/server/core/seed";
import { IDEMPOTENCY_DIGEST } from "@/server/secrets/ledger-key";
import { createSecret } from "@/server/secrets/secrets";
import { call } from "@/server/testing/api";
import {
  boardKeyContext,
  closeDemoWorld,
  demoWorld,
  installWithFixture,
  startFirstAgentRun,
  type TestDatabase,
} from "@/server/testing/world";
import { redactRecords } from "./audit-redact";

// Issue 34 item 1: rows an earlier version wrote with a leaked value are rewritten by the
// operator command, as the owner role, recorded in the instance log — and by nobody else.

let database: TestDatabase;
let owner: ReturnType<typeof openDatabase>;
let demo: DemoCredentials;
let todo: HttpFixture<unknown>;
const LEAKED = `leaked-value-${Date.now().toString(36)}-Kq8`;
const STDIN_ONLY = `typed-by-operator-${Date.now().toString(36)}-Vb2`;
const base64 = (v: string) => Buffer.from(v).toString("base64");

/** Every row of every table (text, JSON, whatever) holding `needle`: `table.column` names. */
async function holders(needle: string): Promise<string[]> {
  const columns = await database.db.execute<{ table_name: string; column_name: string }>(
    sql`select c.table_name, c.column_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`,
  );
  const out: string[] = [];
  for (const c of columns) {
    const [row] = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(c.table_name)} where strpos(${sql.identifier(c.column_name)}::text, ${needle}) > 0`,
    );
    if (row!.n > 0) out.push(`${c.table_name}.${c.column_name}`);
  }
  return out;
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-redact-", gateway: true }));
  owner = openDatabase(database.ownerUrl, { max: 1 });
  const installed = await installWithFixture(database.db, demo, "todo");
  todo = installed.fixture;
  const ctx = boardKeyContext(database.db, demo.companyId);
  await createSecret(ctx, demo.companyId, { name: "LEAKY_TOKEN", value: LEAKED });
  const { token } = await startFirstAgentRun(database.db, demo);
  const res = await call(callRoute.POST, "POST", "/", {
    token,
    body: { tool: "todo__todo_add", arguments: { title: "plain" }, idempotencyKey: "legacy-key-1" },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  // What an earlier version left: the value in the ledger, the audit trail (append-only: the
  // test lifts its trigger as the owner, as only the owner can), an issue (base64), a raw key.
  await owner.db.transaction(async (tx) => {
    await tx.execute(sql`update tool_invocations set args_summary = ${JSON.stringify({ title: LEAKED, [LEAKED]: 1 })}::jsonb,
                           idempotency_key = 'legacy-key-1' where company_id = ${demo.companyId}`);
    await tx.execute(sql`alter table tool_call_events disable trigger user`);
    await tx.execute(sql`update tool_call_events set args_summary = ${JSON.stringify({ title: `x ${LEAKED} ${STDIN_ONLY}` })}::jsonb
                           where company_id = ${demo.companyId} and event_type = 'decision'`);
    await tx.execute(sql`alter table tool_call_events enable trigger user`);
    await tx.execute(sql`update issues set body = ${`pasted ${base64(LEAKED)}`}
                           where id = (select id from issues where company_id = ${demo.companyId} limit 1)`);
  });
  expect(await holders(LEAKED)).toEqual(["tool_call_events.args_summary", "tool_invocations.args_summary"]);
}, 60_000);

afterAll(async () => {
  await todo?.close();
  await owner?.close();
  await closeDemoWorld(database);
});

describe("audit redact", () => {
  it("is refused to the app role: it cannot touch the audit trail", async () => {
    const code = await pgCode(
      redactRecords(database.db, systemContext(database.db, "test"), { companyId: demo.companyId }),
    );
    expect(code).toBe("42501"); // insufficient_privilege
    expect(await holders(LEAKED)).not.toEqual([]);
  });

  it("dry run: counts, changes nothing, and is recorded", async () => {
    const report = await redactRecords(owner.db, systemContext(owner.db, "test"), {
      companyId: demo.companyId,
      idempotencyKeys: true,
      dryRun: true,
    });
    expect(report.rows).toEqual(
      expect.arrayContaining([
        { column: "tool_invocations.args_summary", rows: expect.any(Number) },
        { column: "tool_call_events.args_summary", rows: expect.any(Number) },
        { column: "issues.body", rows: 1 },
      ]),
    );
    expect(report.idempotencyKeys).toBeGreaterThan(0);
    expect(await holders(LEAKED)).not.toEqual([]);
  });

  it("rewrites every spelling as the owner, hashes raw keys, keeps the trail append-only, and logs itself", async () => {
    const report = await redactRecords(owner.db, systemContext(owner.db, "test"), {
      companyId: demo.companyId,
      secretName: "LEAKY_TOKEN",
      values: [STDIN_ONLY],
      idempotencyKeys: true,
    });
    expect(report.values).toBe(2);
    for (const v of [LEAKED, base64(LEAKED), STDIN_ONLY]) expect(await holders(v)).toEqual([]);
    const [inv] = await database.db
      .select({ s: toolInvocations.argsSummary, k: toolInvocations.idempotencyKey })
      .from(toolInvocations)
      .where(eq(toolInvocations.companyId, demo.companyId));
    expect(inv!.s).toEqual({ title: "[redacted]", "[redacted]": 1 });
    expect(inv!.k).toMatch(IDEMPOTENCY_DIGEST);
    // The triggers are back: the owner itself cannot edit the trail outside the command.
    expect(await pgCode(owner.db.execute(sql`update tool_call_events set reason_code = 'x'`))).toBe("42501");
    const logged = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(and(eq(activityLog.action, "audit.redact"), isNull(activityLog.companyId)));
    expect(logged).toHaveLength(2);
    expect(JSON.stringify(logged)).not.toContain(LEAKED);
    expect(logged.map((l) => (l.details as { dryRun: boolean }).dryRun).sort()).toEqual([false, true]);
  });

  it("runs as the CLI command, reading values from standard input", () => {
    const run = spawnSync(
      "npx",
      ["tsx", "scripts/cli.ts", "audit", "redact", "--company", demo.companyId, "--stdin", "--dry-run"],
      {
        input: `${STDIN_ONLY}\n`,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: database.url, MIGRATION_DATABASE_URL: database.ownerUrl },
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("recorded in the instance log as audit.redact");
    expect(run.stdout).not.toContain(STDIN_ONLY);
  });
});
