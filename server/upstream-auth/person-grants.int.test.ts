/**
 * Issue 36, `oauth_user`: each person links their own account, and a run acts with the grant
 * of the person who started it. Two people (the demo owner with their board key, a second
 * member with a browser session) link different upstream accounts (the fixture's `login_hint`
 * picks the subject, as a person choosing their account at the authorization server would);
 * a run of a person who has not linked, and a run no person started, are refused
 * `user_grant_required`. Unlinking revokes upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as connectRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/connect/route";
import * as grantRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/grant/route";
import * as authorizationRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import * as linkedAccountsRoute from "@/app/api/me/linked-accounts/route";
import * as callbackRoute from "@/app/api/upstream-oauth/callback/route";
import { type OAuthFixture, startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { gatewayCallTool } from "@/server/gateway/call-tool";
import { authenticateGatewayToken } from "@/server/gateway/sessions";
import { call, sessionCookie } from "@/server/testing/api";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { addMember } from "@/server/testing/public-mcp";
import { closeDemoWorld, demoWorld, startRun, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let fixture: OAuthFixture;
let installed: Awaited<ReturnType<typeof installMcpApplication>>;
/** The second person: a member with a real browser session. */
let bob: { cookie: string; userId: string };
let bobRunToken: string;

type Who = { token: string } | { cookie: string };

/** Link `who`'s own account, signing in at the authorization server as `subject`. */
async function link(who: Who, params: { companyId: string; connectionId: string }, subject: string) {
  const start = await call<{ authorizationUrl: string }>(connectRoute.POST, "POST", "/", {
    ...who,
    params,
    body: {},
  });
  expect(start.status, JSON.stringify(start.json)).toBe(200);
  const url = new URL(start.json.authorizationUrl);
  url.searchParams.set("login_hint", subject);
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  const query = Object.fromEntries(new URL(res.headers.get("location")!).searchParams);
  const done = await call(callbackRoute.GET, "GET", "/api/upstream-oauth/callback", {
    ...who,
    query,
    headers: { accept: "application/json" },
  });
  expect(done.status, JSON.stringify(done.json)).toBe(200);
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-oauth-people-", gateway: true }));
  fixture = await startOAuthFixture({ subject: "nobody-chose" });
  installed = await installMcpApplication(database.db, demo, {
    slug: "mine",
    url: fixture.mcpUrl,
    // The owner links first: the connection test and the catalog refresh act as them.
    authorize: async (params) => {
      const put = await call(authorizationRoute.PUT, "PUT", "/", {
        token: demo.boardApiKey,
        params,
        body: { kind: "oauth_user" },
      });
      expect(put.status, JSON.stringify(put.json)).toBe(200);
      await link({ token: demo.boardApiKey }, params, "ada");
    },
  });
  const email = "bob@acme.example";
  const userId = await addMember(database.db, demo.companyId, { email, name: "Bob", role: "admin" });
  bob = { userId, cookie: await sessionCookie(database.db, userId, email) };
  const run = await call<{ gateway: { token: string } }>(agentRunsRoute.POST, "POST", "/", {
    cookie: bob.cookie,
    params: { agentId: demo.agents[0]!.id },
    body: {},
  });
  expect(run.status, JSON.stringify(run.json)).toBe(201);
  bobRunToken = run.json.gateway.token;
}, 90_000);

afterAll(async () => {
  await fixture?.close();
  await closeDemoWorld(database);
});

async function callAs(gatewayToken: string, tool: string, args: Record<string, unknown> = {}) {
  const gw = await authenticateGatewayToken(database.db, gatewayToken, new Date());
  expect(gw).toBeTruthy();
  return gatewayCallTool(database.db, gw!, { tool, arguments: args });
}

const params = () => ({ companyId: demo.companyId, connectionId: installed.connectionId });

describe("an oauth_user connection", () => {
  it("a run started by a person calls with that person's grant", async () => {
    const out = await callAs(installed.token, "mine__whoami");
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(JSON.stringify(out)).toContain('\\"subject\\":\\"ada\\"');
  });

  it("a run of a person who has not linked is refused user_grant_required, with the link", async () => {
    const before = fixture.counts.mcp;
    const out = await callAs(bobRunToken, "mine__whoami");
    expect(out.ok).toBe(false);
    const text = JSON.stringify(out);
    expect(text).toContain("user_grant_required");
    expect(text).toContain("/account#linked-accounts");
    expect(fixture.counts.mcp).toBe(before); // refused before anything went upstream
  });

  it("a run no person started (the agent's own) is refused user_grant_required", async () => {
    const run = await startRun<{ gateway: { token: string } }>(demo, { asAgent: true });
    expect(run.status, JSON.stringify(run.json)).toBe(201);
    const out = await callAs(run.json.gateway.token, "mine__whoami");
    expect(out.ok).toBe(false);
    expect(JSON.stringify(out)).toContain("user_grant_required");
  });

  it("two people linked as different subjects each see their own account", async () => {
    await link({ cookie: bob.cookie }, params(), "bob");
    const asBob = await callAs(bobRunToken, "mine__whoami");
    expect(asBob.ok, JSON.stringify(asBob)).toBe(true);
    expect(JSON.stringify(asBob)).toContain('\\"subject\\":\\"bob\\"');
    const asAda = await callAs(installed.token, "mine__whoami");
    expect(JSON.stringify(asAda)).toContain('\\"subject\\":\\"ada\\"');
    const subjects = fixture.issued.filter((t) => t.kind === "access_token").map((t) => t.subject);
    expect(new Set(subjects)).toEqual(new Set(["ada", "bob"]));
  });

  it("GET /api/me/linked-accounts lists each person's own grant", async () => {
    for (const who of [{ token: demo.boardApiKey }, { cookie: bob.cookie }]) {
      const res = await call<{ accounts: { connectionId: string; grant: { status: string } | null }[] }>(
        linkedAccountsRoute.GET,
        "GET",
        "/api/me/linked-accounts",
        who,
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      const mine = res.json.accounts.find((a) => a.connectionId === installed.connectionId);
      expect(mine?.grant?.status).toBe("connected");
    }
  });

  it("unlinking revokes upstream; the person's next call is refused, the other's still works", async () => {
    const revokes = fixture.counts.revoke;
    const res = await call(grantRoute.DELETE, "DELETE", "/", { cookie: bob.cookie, params: params() });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(fixture.counts.revoke).toBeGreaterThan(revokes);
    const bobs = fixture.issued.filter((t) => t.subject === "bob");
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.every((t) => t.revoked)).toBe(true);
    const out = await callAs(bobRunToken, "mine__whoami");
    expect(out.ok).toBe(false);
    expect(JSON.stringify(out)).toContain("user_grant_required");
    const listed = await call<{ accounts: { connectionId: string; grant: unknown }[] }>(
      linkedAccountsRoute.GET,
      "GET",
      "/api/me/linked-accounts",
      { cookie: bob.cookie },
    );
    expect(listed.json.accounts.find((a) => a.connectionId === installed.connectionId)?.grant).toBeNull();
    expect((await callAs(installed.token, "mine__whoami")).ok).toBe(true);
  });
});
