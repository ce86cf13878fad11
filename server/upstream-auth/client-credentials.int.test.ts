/**
 * Issue 36, `client_credentials` (RFC 6749 §4.4): machine-to-machine connections whose tokens
 * are the client's own, with each token endpoint authentication method the fixture takes —
 * client_secret_basic, client_secret_post and private_key_jwt (RFC 7523, a key made here with
 * `jose`; the fixture holds only its public JWKS). A wrong secret fails closed for the agent;
 * an expired token is replaced by a new client_credentials request (there is no refresh token).
 */
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as authorizationRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import { toolUpstreamGrants } from "@/db/schema";
import { type OAuthFixture, startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { gatewayCallTool } from "@/server/gateway/call-tool";
import { authenticateGatewayToken } from "@/server/gateway/sessions";
import { call } from "@/server/testing/api";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let fixture: OAuthFixture;
const installed: Record<string, Awaited<ReturnType<typeof installMcpApplication>>> = {};
let privateJwk: Record<string, unknown>;

const SECRET = "pre-registered-secret-4c1d";

async function setAuthorization(params: { companyId: string; connectionId: string }, body: object) {
  return call<{ error?: { code: string } }>(authorizationRoute.PUT, "PUT", "/", {
    token: demo.boardApiKey,
    params,
    body,
  });
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-oauth-cc-", gateway: true }));
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), alg: "RS256", use: "sig", kid: "k1" };
  privateJwk = { ...(await exportJWK(privateKey)), alg: "RS256", kid: "k1" };
  fixture = await startOAuthFixture({
    clients: [
      { clientId: "cc-basic", clientSecret: SECRET, redirectUris: [], authMethod: "client_secret_basic" },
      { clientId: "cc-post", clientSecret: SECRET, redirectUris: [], authMethod: "client_secret_post" },
      {
        clientId: "cc-jwt",
        redirectUris: [],
        authMethod: "private_key_jwt",
        jwks: { keys: [publicJwk] },
        grantTypes: ["client_credentials"],
      },
    ],
  });
  const settings: Record<string, object> = {
    basic: { clientId: "cc-basic", clientSecret: SECRET, tokenEndpointAuthMethod: "client_secret_basic" },
    post: { clientId: "cc-post", clientSecret: SECRET, tokenEndpointAuthMethod: "client_secret_post" },
    jwt: { clientId: "cc-jwt", privateKeyJwk: privateJwk, tokenEndpointAuthMethod: "private_key_jwt" },
  };
  for (const [slug, body] of Object.entries(settings)) {
    installed[slug] = await installMcpApplication(database.db, demo, {
      slug,
      url: fixture.mcpUrl,
      authorize: async (params) => {
        const put = await setAuthorization(params, { kind: "client_credentials", ...body });
        expect(put.status, JSON.stringify(put.json)).toBe(200);
      },
    });
  }
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await closeDemoWorld(database);
});

async function callTool(slug: string, tool: string, args: Record<string, unknown> = {}) {
  const gw = await authenticateGatewayToken(database.db, installed[slug]!.token, new Date());
  return gatewayCallTool(database.db, gw!, { tool: `${slug}__${tool}`, arguments: args });
}

const tokensOf = (clientId: string) =>
  fixture.issued.filter((t) => t.clientId === clientId && t.kind === "access_token");

describe("a client_credentials connection", () => {
  it.each([
    ["basic", "cc-basic"],
    ["post", "cc-post"],
    ["jwt", "cc-jwt"],
  ])("authenticates with %s and calls as the client itself", async (slug, clientId) => {
    const out = await callTool(slug, "whoami");
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(JSON.stringify(out)).toContain(`\\"subject\\":\\"${clientId}\\"`);
    const issued = tokensOf(clientId);
    expect(issued.length).toBeGreaterThan(0);
    expect(issued.every((t) => t.grantType === "client_credentials" && t.resource === fixture.mcpUrl)).toBe(
      true,
    );
    // No refresh token for client credentials (RFC 6749 §4.4.3).
    expect(fixture.issued.some((t) => t.clientId === clientId && t.kind === "refresh_token")).toBe(false);
    expect(fixture.counts.register).toBe(0);
  });

  it("saving the settings again without the secret keeps the stored one", async () => {
    const params = { companyId: demo.companyId, connectionId: installed.post!.connectionId };
    const put = await setAuthorization(params, {
      kind: "client_credentials",
      clientId: "cc-post",
      tokenEndpointAuthMethod: "client_secret_post",
      scopes: ["mcp"],
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect(
      (put.json as { authorization?: { hasClientCredential?: boolean } }).authorization?.hasClientCredential,
    ).toBe(true);
    const out = await callTool("post", "whoami");
    expect(out.ok, JSON.stringify(out)).toBe(true);
    // Another client id without its secret is refused, and changes nothing.
    const other = await setAuthorization(params, { kind: "client_credentials", clientId: "cc-other" });
    expect(other.status).toBe(400);
  });

  it("an expired token is replaced by a new client_credentials request, not a refresh", async () => {
    const cc = fixture.counts.token.client_credentials;
    const refreshes = fixture.counts.token.refresh_token;
    fixture.expireAccessTokens();
    await database.db
      .update(toolUpstreamGrants)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolUpstreamGrants.connectionId, installed.post!.connectionId));
    const out = await callTool("post", "echo", { text: "after expiry" });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(fixture.counts.token.client_credentials).toBe(cc + 1);
    expect(fixture.counts.token.refresh_token).toBe(refreshes);
  });

  it("a wrong secret fails closed for the agent with upstream_authorization_required", async () => {
    const params = { companyId: demo.companyId, connectionId: installed.basic!.connectionId };
    const put = await setAuthorization(params, {
      kind: "client_credentials",
      clientId: "cc-basic",
      clientSecret: "not-the-secret",
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    const before = fixture.counts.mcp;
    const out = await callTool("basic", "whoami");
    expect(out.ok).toBe(false);
    expect(JSON.stringify(out)).toContain("upstream_authorization_required");
    expect(fixture.counts.mcp).toBe(before); // nothing went to the MCP server without a token
  });
});
