/**
 * Issue 36: one refresh at a time across replicas. Two separate connection pools on the same
 * database (what two server processes have) make 50 governed calls at once, at the moment the
 * access token expires. The fixture rotates refresh tokens and treats a spent one presented
 * again as theft (the whole grant family is revoked), so a second refresh would fail calls:
 * exactly one refresh and no failed call is what the grant row's lock (`SELECT … FOR UPDATE`
 * in ./bearer.ts) buys. Both pools are real postgres.js pools; nothing is mocked.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/db/client";
import { toolUpstreamGrants } from "@/db/schema";
import { type OAuthFixture, startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { gatewayCallTool } from "@/server/gateway/call-tool";
import { authenticateGatewayToken } from "@/server/gateway/sessions";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { connectUpstreamOAuth } from "@/server/testing/upstream-oauth";
import { closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let fixture: OAuthFixture;
let installed: Awaited<ReturnType<typeof installMcpApplication>>;
const replicas: Database[] = [];

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-oauth-replicas-", gateway: true }));
  fixture = await startOAuthFixture({ subject: "ada@acme.example" });
  installed = await installMcpApplication(database.db, demo, {
    slug: "twin",
    url: fixture.mcpUrl,
    authorize: async (params) => {
      const { done } = await connectUpstreamOAuth(demo.boardApiKey, params, {
        kind: "oauth_company",
        scopes: ["mcp", "offline_access"],
      });
      expect(done?.status, JSON.stringify(done?.json)).toBe(200);
    },
  });
  replicas.push(openDatabase(database.url, { max: 10 }), openDatabase(database.url, { max: 10 }));
}, 60_000);

afterAll(async () => {
  for (const r of replicas) await r.close();
  await fixture?.close();
  await closeDemoWorld(database);
});

async function expireNow() {
  fixture.expireAccessTokens();
  await database.db
    .update(toolUpstreamGrants)
    .set({ accessExpiresAt: new Date(Date.now() - 1000) })
    .where(eq(toolUpstreamGrants.connectionId, installed.connectionId));
}

describe("two replicas at the moment the access token expires", () => {
  it("50 concurrent calls across two pools: exactly one refresh, no failed call", async () => {
    // Warm both replicas (session lookup, upstream client) so the burst is the calls themselves.
    const sessions = await Promise.all(
      replicas.map((r) => authenticateGatewayToken(r.db, installed.token, new Date())),
    );
    for (const [i, r] of replicas.entries()) {
      const warm = await gatewayCallTool(r.db, sessions[i]!, {
        tool: "twin__echo",
        arguments: { text: "warm" },
      });
      expect(warm.ok, JSON.stringify(warm)).toBe(true);
    }
    await expireNow();
    const refreshes = fixture.counts.token.refresh_token;
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        gatewayCallTool(replicas[i % 2]!.db, sessions[i % 2]!, {
          tool: "twin__echo",
          arguments: { text: `call ${i}` },
        }),
      ),
    );
    const failed = outcomes.filter((o) => !o.ok);
    expect(failed.map((o) => JSON.stringify(o).slice(0, 300))).toEqual([]);
    expect(fixture.counts.token.refresh_token).toBe(refreshes + 1);
    const [grant] = await database.db
      .select()
      .from(toolUpstreamGrants)
      .where(eq(toolUpstreamGrants.connectionId, installed.connectionId));
    expect(grant!.status).toBe("connected");
    // No refresh token was ever presented twice (the fixture would have revoked the family).
    expect(fixture.issued.filter((t) => t.kind === "refresh_token" && t.revoked)).toHaveLength(0);
  });
});
