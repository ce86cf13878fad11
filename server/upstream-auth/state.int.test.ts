/**
 * Issue 36: the callback's `state` is bound to the signed-in person, the connection and the
 * PKCE verifier; single use; ten minutes. Each way of getting it wrong is refused
 * `upstream_oauth_state_invalid` and leaves no grant; an `error=access_denied` answer is
 * recorded and leaves no grant. The authorization server is the real fixture; the browser's
 * part is played by following its redirect and calling the callback route.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as connectRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/connect/route";
import * as authorizationRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import * as callbackRoute from "@/app/api/upstream-oauth/callback/route";
import { activityLog, toolUpstreamAuthStates, toolUpstreamGrants } from "@/db/schema";
import { type OAuthFixture, startOAuthFixture } from "@/fixtures/oauth/server";
import type { DemoCredentials } from "@/server/core/seed";
import { call, sessionCookie } from "@/server/testing/api";
import { grantPrivateUpstreams } from "@/server/testing/private-upstreams";
import { addMember } from "@/server/testing/public-mcp";
import { addHttpConnection, closeDemoWorld, demoWorld, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let fixture: OAuthFixture;
let params: { companyId: string; connectionId: string };
/** A second admin of the demo company, signed in with a real session. */
let other: { cookie: string };

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-oauth-state-", gateway: true }));
  fixture = await startOAuthFixture({ subject: "ada@acme.example" });
  await grantPrivateUpstreams(database.db, [fixture.url]);
  const conn = await addHttpConnection(demo, { slug: "stateful", name: "stateful", url: fixture.mcpUrl });
  params = { companyId: demo.companyId, connectionId: conn.json.id };
  const put = await call(authorizationRoute.PUT, "PUT", "/", {
    token: demo.boardApiKey,
    params,
    body: { kind: "oauth_company" },
  });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  const email = "grace@acme.example";
  const userId = await addMember(database.db, demo.companyId, { email, name: "Grace", role: "admin" });
  other = { cookie: await sessionCookie(database.db, userId, email) };
}, 60_000);

afterAll(async () => {
  await fixture?.close();
  await closeDemoWorld(database);
});

/** Connect as the demo owner's board key and let the fixture approve: the callback's query. */
async function approvedAnswer(): Promise<Record<string, string>> {
  const start = await call<{ authorizationUrl: string }>(connectRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params,
    body: {},
  });
  expect(start.status, JSON.stringify(start.json)).toBe(200);
  const res = await fetch(start.json.authorizationUrl, { redirect: "manual" });
  expect(res.status).toBe(302);
  return Object.fromEntries(new URL(res.headers.get("location")!).searchParams);
}

function finish(query: Record<string, string>, who: { token?: string; cookie?: string }) {
  return call<{ error?: { code: string } }>(callbackRoute.GET, "GET", "/api/upstream-oauth/callback", {
    ...who,
    query,
    headers: { accept: "application/json" },
  });
}

const owner = () => ({ token: demo.boardApiKey });

async function grants() {
  return database.db
    .select()
    .from(toolUpstreamGrants)
    .where(eq(toolUpstreamGrants.connectionId, params.connectionId));
}

async function disconnectAll() {
  await database.db
    .delete(toolUpstreamGrants)
    .where(eq(toolUpstreamGrants.connectionId, params.connectionId));
}

/** The refusals recorded for the connection (`tool_connection.authorization_failed`), their details. */
const failures = async () =>
  (
    await database.db
      .select()
      .from(activityLog)
      .where(
        and(
          eq(activityLog.entityId, params.connectionId),
          eq(activityLog.action, "tool_connection.authorization_failed"),
        ),
      )
  ).map((r) => r.details);

describe("the callback's state", () => {
  it("a tampered state is refused, and the code is never redeemed", async () => {
    const answer = await approvedAnswer();
    const tampered = { ...answer, state: `${answer.state!.slice(0, -2)}xy` };
    const codes = fixture.counts.token.authorization_code;
    const res = await finish(tampered, owner());
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe("upstream_oauth_state_invalid");
    expect(fixture.counts.token.authorization_code).toBe(codes);
    expect(await grants()).toHaveLength(0);
  });

  it("a state finished by another person (even an admin of the company) is refused", async () => {
    const answer = await approvedAnswer();
    const res = await finish(answer, { cookie: other.cookie });
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe("upstream_oauth_state_invalid");
    expect(await grants()).toHaveLength(0);
    expect(await failures()).toContainEqual({ code: "upstream_oauth_state_invalid", why: "other_person" });
    // The attempt spent it: not even its owner can finish it now (fail closed).
    const again = await finish(answer, owner());
    expect(again.json.error?.code).toBe("upstream_oauth_state_invalid");
    expect(await grants()).toHaveLength(0);
  });

  it("an expired state is refused", async () => {
    const answer = await approvedAnswer();
    await database.db
      .update(toolUpstreamAuthStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolUpstreamAuthStates.connectionId, params.connectionId));
    const res = await finish(answer, owner());
    expect(res.status).toBe(400);
    expect(res.json.error?.code).toBe("upstream_oauth_state_invalid");
    expect(await grants()).toHaveLength(0);
    expect(await failures()).toContainEqual({ code: "upstream_oauth_state_invalid", why: "expired" });
  });

  it("a state is single use: the second answer is refused and the code not redeemed twice", async () => {
    const answer = await approvedAnswer();
    const first = await finish(answer, owner());
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(await grants()).toHaveLength(1);
    const codes = fixture.counts.token.authorization_code;
    await disconnectAll();
    const second = await finish(answer, owner());
    expect(second.status).toBe(400);
    expect(second.json.error?.code).toBe("upstream_oauth_state_invalid");
    expect(fixture.counts.token.authorization_code).toBe(codes);
    expect(await grants()).toHaveLength(0);
  });

  it("an `error=access_denied` answer is recorded as a failed authorization, with no grant", async () => {
    const answer = await approvedAnswer();
    const denied = { state: answer.state!, error: "access_denied", error_description: "the person said no" };
    const res = await finish(denied, owner());
    expect(res.status).toBe(502);
    expect(res.json.error?.code).toBe("upstream_oauth_refused");
    expect(await grants()).toHaveLength(0);
    expect(await failures()).toContainEqual({ code: "upstream_oauth_refused" });
  });
});
