/**
 * Issue 36: a pre-registered client (the admin enters the id and secret a server's console
 * issued) against a server without dynamic registration, and the scope the gateway asks for —
 * the admin's, else the challenge's — with `offline_access` bringing a refresh token from a
 * server that only issues one for it. Each case is its own fixture on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OAuthFixture, type OAuthFixtureOptions, startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { grantPrivateUpstreams } from "@/server/testing/private-upstreams";
import { connectUpstreamOAuth } from "@/server/testing/upstream-oauth";
import { addHttpConnection, closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";
import { callbackUrl } from "./client";

let database: TestDatabase;
let demo: DemoCredentials;
const fixtures: OAuthFixture[] = [];
let n = 0;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-oauth-scopes-", gateway: true }));
}, 60_000);

afterAll(async () => {
  for (const f of fixtures) await f.close();
  await closeDemoWorld(database);
});

async function connect(options: OAuthFixtureOptions, settings: Record<string, unknown>) {
  const fixture = await startOAuthFixture(options);
  fixtures.push(fixture);
  await grantPrivateUpstreams(database.db, [fixture.url]);
  const slug = `scoped${++n}`;
  const conn = await addHttpConnection(demo, { slug, name: slug, url: fixture.mcpUrl });
  const params = { companyId: demo.companyId, connectionId: conn.json.id };
  const steps = await connectUpstreamOAuth(demo.boardApiKey, params, { kind: "oauth_company", ...settings });
  expect(steps.put.status, JSON.stringify(steps.put.json)).toBe(200);
  expect(steps.start?.status, JSON.stringify(steps.start?.json)).toBe(200);
  expect(steps.done?.status, JSON.stringify(steps.done?.json)).toBe(200);
  const authorizeUrl = new URL((steps.start!.json as { authorizationUrl: string }).authorizationUrl);
  return { fixture, authorizeUrl, ...steps };
}

const accessTokens = (f: OAuthFixture) => f.issued.filter((t) => t.kind === "access_token");

describe("a pre-registered client", () => {
  it("is used as entered (client_secret_basic) with a server that has no dynamic registration", async () => {
    const { fixture, authorizeUrl } = await connect(
      {
        dcr: false,
        clients: [
          {
            clientId: "console-issued",
            clientSecret: "console-issued-secret",
            redirectUris: [callbackUrl()],
            authMethod: "client_secret_basic",
          },
        ],
      },
      {
        clientId: "console-issued",
        clientSecret: "console-issued-secret",
        tokenEndpointAuthMethod: "client_secret_basic",
      },
    );
    expect(authorizeUrl.searchParams.get("client_id")).toBe("console-issued");
    expect(fixture.counts.register).toBe(0);
    expect(fixture.counts.token.authorization_code).toBe(1);
    expect(accessTokens(fixture).every((t) => t.clientId === "console-issued")).toBe(true);
  });
});

describe("the scope asked for", () => {
  it("is the admin's choice when there is one", async () => {
    const { fixture, authorizeUrl } = await connect({}, { scopes: ["mcp", "admin"] });
    expect(authorizeUrl.searchParams.get("scope")?.split(" ").sort()).toEqual(["admin", "mcp"]);
    expect(accessTokens(fixture)[0]!.scope.split(" ").sort()).toEqual(["admin", "mcp"]);
  });

  it("is the challenge's when the admin chose none", async () => {
    const { fixture, authorizeUrl } = await connect({ challengeScope: "mcp admin" }, {});
    expect(authorizeUrl.searchParams.get("scope")?.split(" ").sort()).toEqual(["admin", "mcp"]);
    expect(accessTokens(fixture)[0]!.scope.split(" ").sort()).toEqual(["admin", "mcp"]);
  });

  it("`offline_access` brings a refresh token from a server that issues one only for it", async () => {
    const { fixture } = await connect({ alwaysIssueRefresh: false }, { scopes: ["mcp", "offline_access"] });
    expect(fixture.issued.some((t) => t.kind === "refresh_token")).toBe(true);
  });
});
