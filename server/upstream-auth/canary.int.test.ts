/**
 * Issue 36: an upstream access token, refresh token, authorization code or client secret never
 * appears in the clear — not in the database (every column of every table, read the way a
 * dump would), not in the server's logs, not in an API answer or a tool result. The fixture's
 * tokens carry readable prefixes (`TOKEN_PREFIX`), so a leak anywhere is findable by text.
 * The whole life of a grant runs: connect, calls, refresh, reconnect, disconnect.
 */
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as grantRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/grant/route";
import * as authorizationRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import * as linkedAccountsRoute from "@/app/api/me/linked-accounts/route";
import { activityLog, toolUpstreamGrants } from "@/db/schema";
import { type OAuthFixture, startOAuthFixture, TOKEN_PREFIX } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { gatewayCallTool } from "@/server/gateway/call-tool";
import { authenticateGatewayToken } from "@/server/gateway/sessions";
import { call } from "@/server/testing/api";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { connectUpstreamOAuth } from "@/server/testing/upstream-oauth";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let fixture: OAuthFixture;
let installed: Awaited<ReturnType<typeof installMcpApplication>>;
/** Everything the server wrote to the console while this file ran. */
const logged: string[] = [];
/** Every API answer and tool result this file received. */
const answered: string[] = [];

const PREFIXES = Object.values(TOKEN_PREFIX) as string[];
const CANARY = new RegExp(PREFIXES.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"));

const keep = <T>(value: T): T => {
  answered.push(JSON.stringify(value));
  return value;
};

async function connectCompany(params: { companyId: string; connectionId: string }) {
  const steps = await connectUpstreamOAuth(demo.boardApiKey, params, {
    kind: "oauth_company",
    scopes: ["mcp", "offline_access"],
  });
  keep(steps);
  expect(steps.done?.status, JSON.stringify(steps.done?.json)).toBe(200);
}

beforeAll(async () => {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    });
  }
  ({ database, demo } = await demoWorld({ home: "pc-oauth-canary-", gateway: true }));
  fixture = await startOAuthFixture({ subject: "ada@acme.example" });
  installed = await installMcpApplication(database.db, demo, {
    slug: "canary",
    url: fixture.mcpUrl,
    authorize: connectCompany,
  });
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await fixture?.close();
  await closeDemoWorld(database);
});

async function callTool(tool: string, args: Record<string, unknown> = {}) {
  const gw = await authenticateGatewayToken(database.db, installed.token, new Date());
  return keep(await gatewayCallTool(database.db, gw!, { tool, arguments: args }));
}

const params = () => ({ companyId: demo.companyId, connectionId: installed.connectionId });

/**
 * Every row of every table in every non-system schema, as text (`row::text`, each column's
 * text form): the tables whose text holds a canary prefix, and how many tables were read.
 */
async function scanDatabase(): Promise<{ leaks: string[]; tables: number }> {
  const sql = postgres(database.ownerUrl, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ schema: string; name: string }[]>`
      select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
    const leaks: string[] = [];
    for (const t of tables) {
      const [row] = await sql.unsafe<{ n: number }[]>(
        `select count(*)::int as n from "${t.schema}"."${t.name}" as r where r::text ~ $1`,
        [CANARY.source],
      );
      if (row!.n > 0) leaks.push(`${t.schema}.${t.name}`);
    }
    return { leaks, tables: tables.length };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

describe("canary tokens", () => {
  it("the scan itself finds a prefix wherever it is written (a control)", async () => {
    const [row] = await database.db
      .insert(activityLog)
      .values({
        companyId: demo.companyId,
        actorType: "system",
        actorId: "test",
        action: "test.canary_control",
        entityType: "test",
        details: { note: `${PREFIXES[0]}control` },
      })
      .returning();
    const found = await scanDatabase();
    // The log is append-only for the application's role; its owner removes the control.
    const owner = postgres(database.ownerUrl, { max: 1, onnotice: () => {} });
    await owner`delete from activity_log where id = ${row!.id}`;
    await owner.end({ timeout: 5 });
    expect(found.leaks).toEqual(["public.activity_log"]);
    expect(found.tables).toBeGreaterThan(20);
  });

  it("after connect, calls and a refresh, no table holds a token, code or secret in clear", async () => {
    expect((await callTool("canary__whoami")).ok).toBe(true);
    expect((await callTool("canary__echo", { text: "hello" })).ok).toBe(true);
    fixture.expireAccessTokens();
    await database.db
      .update(toolUpstreamGrants)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolUpstreamGrants.connectionId, installed.connectionId));
    const refreshes = fixture.counts.token.refresh_token;
    expect((await callTool("canary__echo", { text: "after refresh" })).ok).toBe(true);
    expect(fixture.counts.token.refresh_token).toBe(refreshes + 1);
    // The grant is there, sealed: this is the moment a dump would hold the live tokens.
    expect(
      await database.db
        .select()
        .from(toolUpstreamGrants)
        .where(eq(toolUpstreamGrants.connectionId, installed.connectionId)),
    ).toHaveLength(1);
    expect((await scanDatabase()).leaks).toEqual([]);
  });

  it("after reconnect and disconnect, still none; the admin answers held none either", async () => {
    await connectCompany(params());
    expect((await callTool("canary__echo", { text: "reconnected" })).ok).toBe(true);
    keep(await call(authorizationRoute.GET, "GET", "/", { token: demo.boardApiKey, params: params() }));
    keep(await call(linkedAccountsRoute.GET, "GET", "/api/me/linked-accounts", { token: demo.boardApiKey }));
    const res = keep(
      await call(grantRoute.DELETE, "DELETE", "/", { token: demo.boardApiKey, params: params() }),
    );
    expect(res.status).toBe(200);
    keep(await call(authorizationRoute.GET, "GET", "/", { token: demo.boardApiKey, params: params() }));
    expect((await scanDatabase()).leaks).toEqual([]);
    expect(answered.length).toBeGreaterThan(8);
    expect(answered.filter((a) => CANARY.test(a))).toEqual([]);
  });

  it("the server's logs of the whole file hold none", () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((l) => CANARY.test(l))).toEqual([]);
  });
});
