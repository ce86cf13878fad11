/**
 * Issue 36: the gateway as an OAuth 2.1 client of an OAuth-protected MCP server (the real
 * fixture in fixtures/oauth: an authorization server and a protected MCP server on loopback).
 * Everything goes through the admin routes an operator uses and the governed call an agent
 * makes; nothing is mocked.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as connectRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/connect/route";
import * as grantRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/grant/route";
import * as authorizationRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import { toolUpstreamGrants } from "@/db/schema";
import { type OAuthFixture, startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { gatewayCallTool } from "@/server/gateway/call-tool";
import { authenticateGatewayToken } from "@/server/gateway/sessions";
import { call } from "@/server/testing/api";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { authorizeInBrowser, connectUpstreamOAuth } from "@/server/testing/upstream-oauth";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let fixture: OAuthFixture;
let installed: Awaited<ReturnType<typeof installMcpApplication>>;
const board = () => ({ token: demo.boardApiKey });

async function connectCompany(params: { companyId: string; connectionId: string }) {
  const { put, start, done } = await connectUpstreamOAuth(demo.boardApiKey, params, {
    kind: "oauth_company",
    scopes: ["mcp", "offline_access"],
  });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  expect(start?.status, JSON.stringify(start?.json)).toBe(200);
  expect(done?.status, JSON.stringify(done?.json)).toBe(200);
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-upstream-oauth-", gateway: true }));
  fixture = await startOAuthFixture({ subject: "ada@acme.example" });
  installed = await installMcpApplication(database.db, demo, {
    slug: "oauthy",
    url: fixture.mcpUrl,
    authorize: connectCompany,
  });
}, 60_000);

afterAll(async () => {
  await fixture?.close();
  await closeDemoWorld(database);
});

async function callTool(tool: string, args: Record<string, unknown> = {}) {
  const gw = await authenticateGatewayToken(database.db, installed.token, new Date());
  return gatewayCallTool(database.db, gw!, { tool, arguments: args });
}

describe("an oauth_company connection", () => {
  it("discovers, registers, authorises with PKCE and resource, and calls as the company's grant", async () => {
    expect(fixture.counts.register).toBe(1);
    expect(fixture.counts.token.authorization_code).toBe(1);
    const issued = fixture.issued.filter((t) => t.kind === "access_token");
    expect(issued.every((t) => t.resource === fixture.mcpUrl)).toBe(true);
    const out = await callTool("oauthy__whoami");
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(JSON.stringify(out)).toContain("ada@acme.example");
    const status = await call<{ authorization: Record<string, unknown> }>(
      authorizationRoute.GET,
      "GET",
      "/",
      {
        ...board(),
        params: { companyId: demo.companyId, connectionId: installed.connectionId },
      },
    );
    expect(status.json.authorization).toMatchObject({
      kind: "oauth_company",
      status: "connected",
      registration: "dynamic",
      issuer: fixture.issuer,
      // A public client (PKCE, `none`): no secret was issued, so none is stored.
      hasClientCredential: false,
    });
  });

  it("refreshes an expired access token with rotation, once", async () => {
    fixture.expireAccessTokens();
    await database.db
      .update(toolUpstreamGrants)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolUpstreamGrants.connectionId, installed.connectionId));
    const before = fixture.counts.token.refresh_token;
    const out = await callTool("oauthy__echo", { text: "after refresh" });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(fixture.counts.token.refresh_token).toBe(before + 1);
  });

  it("a refused refresh fails closed with upstream_authorization_required and needs a person", async () => {
    fixture.revokeAll();
    await database.db
      .update(toolUpstreamGrants)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolUpstreamGrants.connectionId, installed.connectionId));
    const out = await callTool("oauthy__echo", { text: "x" });
    expect(out.ok).toBe(false);
    expect(JSON.stringify(out)).toContain("upstream_authorization_required");
    const [grant] = await database.db
      .select()
      .from(toolUpstreamGrants)
      .where(eq(toolUpstreamGrants.connectionId, installed.connectionId));
    expect(grant!.status).toBe("needs_reauthorization");
  });

  it("Reconnect restores it; Disconnect revokes and deletes the grant", async () => {
    await connectCompany({ companyId: demo.companyId, connectionId: installed.connectionId });
    expect((await callTool("oauthy__echo", { text: "back" })).ok).toBe(true);
    const revokesBefore = fixture.counts.revoke;
    const res = await call(grantRoute.DELETE, "DELETE", "/", {
      ...board(),
      params: { companyId: demo.companyId, connectionId: installed.connectionId },
    });
    expect(res.status).toBe(200);
    expect(fixture.counts.revoke).toBeGreaterThan(revokesBefore);
    const out = await callTool("oauthy__echo", { text: "gone" });
    expect(JSON.stringify(out)).toContain("upstream_authorization_required");
  });
});

describe("refusals upstream after the grant was given", () => {
  beforeAll(async () => {
    await connectCompany({ companyId: demo.companyId, connectionId: installed.connectionId });
  });

  const grantRow = async () =>
    (
      await database.db
        .select()
        .from(toolUpstreamGrants)
        .where(eq(toolUpstreamGrants.connectionId, installed.connectionId))
    )[0]!;

  it("a 401 before the token's time: the next call refreshes first and succeeds", async () => {
    fixture.expireAccessTokens();
    const refused = await callTool("oauthy__echo", { text: "stale" });
    expect(refused.ok).toBe(false);
    expect((await grantRow()).accessExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const before = fixture.counts.token.refresh_token;
    const out = await callTool("oauthy__echo", { text: "fresh" });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(fixture.counts.token.refresh_token).toBe(before + 1);
  });

  it("a 403 insufficient_scope asks a person to step up; the Reconnect asks for the scope", async () => {
    const refused = await callTool("oauthy__admin_action");
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toContain("upstream_authorization_required");
    const grant = await grantRow();
    expect(grant.status).toBe("needs_reauthorization");
    expect(grant.stepUpScope?.split(" ")).toContain("admin");
    // Reconnect (no new settings): the authorization asks for the scope the server wanted.
    const start = await call<{ authorizationUrl: string }>(connectRoute.POST, "POST", "/", {
      ...board(),
      params: { companyId: demo.companyId, connectionId: installed.connectionId },
      body: {},
    });
    expect(start.status, JSON.stringify(start.json)).toBe(200);
    expect(new URL(start.json.authorizationUrl).searchParams.get("scope")?.split(" ")).toContain("admin");
    const done = await authorizeInBrowser(start.json.authorizationUrl, demo.boardApiKey);
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const out = await callTool("oauthy__admin_action");
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect((await grantRow()).stepUpScope).toBeNull();
  });
});
