/**
 * Issue 36: every hostile variant of the OAuth fixture (fixtures/oauth/README.md) is refused
 * with its stable code, and nothing is stored — no grant row, and where the lie is in the
 * metadata, no trip to /authorize. Each variant is its own fixture on loopback; the gateway is
 * driven through the admin routes an operator uses.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as testRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/test/route";
import { activityLog, toolUpstreamGrants } from "@/db/schema";
import { type OAuthFixture, type OAuthVariant, startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { call } from "@/server/testing/api";
import { grantPrivateUpstreams } from "@/server/testing/private-upstreams";
import { connectUpstreamOAuth } from "@/server/testing/upstream-oauth";
import { addHttpConnection, closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
const fixtures: OAuthFixture[] = [];
let n = 0;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-oauth-refusals-", gateway: true }));
}, 60_000);

afterAll(async () => {
  for (const f of fixtures) await f.close();
  await closeDemoWorld(database);
});

/** A fresh fixture playing `variant`, a connection to it (its origin on the private list), and a Connect. */
async function connectTo(variant: OAuthVariant, extra: Parameters<typeof startOAuthFixture>[0] = {}) {
  const fixture = await startOAuthFixture({ variant, ...extra });
  fixtures.push(fixture);
  await grantPrivateUpstreams(database.db, [fixture.url]);
  const slug = `hostile${++n}`;
  const conn = await addHttpConnection(demo, { slug, name: slug, url: fixture.mcpUrl });
  expect(conn.status, JSON.stringify(conn.json)).toBe(201);
  const params = { companyId: demo.companyId, connectionId: conn.json.id };
  const steps = await connectUpstreamOAuth(demo.boardApiKey, params, { kind: "oauth_company" });
  expect(steps.put.status, JSON.stringify(steps.put.json)).toBe(200);
  return { fixture, params, ...steps };
}

const codeOf = (r: { json: unknown } | null) =>
  (r?.json as { error?: { code?: string } } | undefined)?.error?.code;

async function grantsOf(connectionId: string) {
  return database.db
    .select()
    .from(toolUpstreamGrants)
    .where(eq(toolUpstreamGrants.connectionId, connectionId));
}

describe("hostile authorization servers", () => {
  it("refuses metadata that names another issuer (RFC 8414 §3.3) before /authorize", async () => {
    const { fixture, params, start } = await connectTo("issuer_mismatch");
    expect(start!.status).toBe(502);
    expect(codeOf(start)).toBe("upstream_oauth_issuer_mismatch");
    expect(fixture.counts.authorize).toBe(0);
    expect(await grantsOf(params.connectionId)).toHaveLength(0);
    // The refusal is recorded for the connection's company.
    const [failed] = await database.db
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.entityId, params.connectionId),
          eq(activityLog.action, "tool_connection.authorization_failed"),
        ),
      );
    expect(failed?.details).toEqual({ code: "upstream_oauth_issuer_mismatch", step: "connect" });
  });

  it("refuses an authorization answer whose `iss` is foreign (RFC 9207 §2.4) and stores no grant", async () => {
    const { fixture, params, start, done } = await connectTo("iss_mismatch");
    expect(start!.status, JSON.stringify(start!.json)).toBe(200);
    expect(fixture.counts.authorize).toBe(1);
    expect(done!.status).toBe(502);
    expect(codeOf(done)).toBe("upstream_oauth_issuer_mismatch");
    // The code was never redeemed: the check comes before the token request.
    expect(fixture.counts.token.authorization_code).toBe(0);
    expect(await grantsOf(params.connectionId)).toHaveLength(0);
  });

  it("refuses protected-resource metadata for another resource (RFC 9728 §3.3) before /authorize", async () => {
    const { fixture, params, start } = await connectTo("wrong_resource");
    expect(start!.status).toBe(502);
    expect(codeOf(start)).toBe("upstream_oauth_discovery_failed");
    expect(fixture.counts.authorize).toBe(0);
    expect(await grantsOf(params.connectionId)).toHaveLength(0);
  });

  // The protected-resource well-knowns redirect elsewhere. The SDK's discovery follows only
  // same-origin redirects (`fetchWithinOrigin`), and the network guard would refuse the hop
  // anyway; the lookup fails and discovery falls back to the server's own origin (the
  // 2025-03-26 path). What must hold: nothing is ever fetched at the redirect's target, and
  // whatever is authorised is the server's own origin.
  it("never follows a metadata redirect to the cloud metadata address", async () => {
    const { fixture, start } = await connectTo("redirect_loopback");
    if (start!.status === 200) {
      const url = (start!.json as { authorizationUrl: string }).authorizationUrl;
      expect(new URL(url).origin).toBe(fixture.url);
    } else {
      expect(codeOf(start)).toMatch(/^upstream_/);
    }
  });

  it("never fetches a metadata redirect's target (a listener that counts its requests)", async () => {
    let hits = 0;
    const canary = http.createServer((_req, res) => {
      hits++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((r) => canary.listen(0, "127.0.0.1", r));
    try {
      const target = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/latest/meta-data`;
      // The target's origin is even on the operator's list: only the redirect rule protects it.
      await grantPrivateUpstreams(database.db, [target]);
      const { fixture, start } = await connectTo("redirect_loopback", { redirectTarget: target });
      expect(hits).toBe(0);
      if (start!.status === 200) {
        const url = (start!.json as { authorizationUrl: string }).authorizationUrl;
        expect(new URL(url).origin).toBe(fixture.url);
      }
    } finally {
      await new Promise((r) => canary.close(r));
    }
  });

  it("caps what it reads of authorization-server metadata (~5 MiB is refused)", async () => {
    const { fixture, params, start } = await connectTo("oversized_metadata");
    expect(start!.status).toBeGreaterThanOrEqual(400);
    expect(codeOf(start)).toMatch(/^upstream_/);
    expect(fixture.counts.authorize).toBe(0);
    expect(fixture.counts.register).toBe(0);
    expect(await grantsOf(params.connectionId)).toHaveLength(0);
  });

  it("refuses a server without PKCE S256 (upstream_oauth_unsupported) before /authorize", async () => {
    const { fixture, params, start } = await connectTo("no_s256");
    expect(start!.status).toBe(502);
    expect(codeOf(start)).toBe("upstream_oauth_unsupported");
    expect(fixture.counts.authorize).toBe(0);
    expect(await grantsOf(params.connectionId)).toHaveLength(0);
  });

  it("a token bound to another resource fails closed, without a loop of retries", async () => {
    const { fixture, params, done } = await connectTo("token_for_other_resource");
    expect(done!.status, JSON.stringify(done!.json)).toBe(200);
    const before = fixture.counts.mcp;
    const tested = await call<Record<string, unknown>>(testRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params,
    });
    // The connection test reports the failure (it never reaches the tools).
    expect(JSON.stringify(tested.json)).not.toContain('"ok":true');
    // A handful of requests at most: the first 401, perhaps one retry after a refresh.
    const spent = fixture.counts.mcp - before;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(4);
    await new Promise((r) => setTimeout(r, 500));
    expect(fixture.counts.mcp - before).toBe(spent); // nothing keeps going in the background
    expect(fixture.counts.token.refresh_token).toBeLessThanOrEqual(1);
  });
});
