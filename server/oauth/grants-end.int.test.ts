/**
 * Grants end with membership (issue 34 item 3; docs/security.md "Grants end with membership"):
 * removing a member, disabling an account or demoting a person below a grant's scopes revokes
 * their assistant connections for good — access and refresh tokens, the grant (`revoked_at`
 * and a reason) and its event subscriptions — so re-adding, re-enabling or promoting them
 * again revives nothing: the assistant must be consented again.
 *
 * Real PostgreSQL, real loopback HTTP: oauth4webapi as a strict OAuth 2.1 client against the
 * authorization server, the consent and members routes with browser sessions, `events/*` on
 * `/mcp/paperclip` (2026-07-28 era) with a real HTTPS receiver and worker passes.
 */
import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as wkServer from "@/app/.well-known/oauth-authorization-server/route";
import * as wkResource from "@/app/.well-known/oauth-protected-resource/mcp/paperclip/route";
import * as memberRoute from "@/app/api/companies/[companyId]/members/[userId]/route";
import * as membersRoute from "@/app/api/companies/[companyId]/members/route";
import * as consentRoute from "@/app/api/mcp-connect/[requestId]/route";
import * as subscriptionsRoute from "@/app/api/me/assistant-connections/[grantId]/subscriptions/route";
import * as authorizeRoute from "@/app/mcp/oauth/authorize/route";
import * as registerRoute from "@/app/mcp/oauth/register/route";
import * as tokenRoute from "@/app/mcp/oauth/token/route";
import {
  activityLog,
  companyMemberships,
  mcpEventSubscriptions,
  oauthGrants,
  oauthTokens,
} from "@/db/schema";
import { systemContext } from "@/server/context";
import type { MembershipRole } from "@/server/contracts/values";
import { disableAccount, enableAccount } from "@/server/core/accounts";
import { addComment, createIssue } from "@/server/core/issues";
import { createEventWorker, type EventWorker } from "@/server/events/worker";
import { call, sessionCookie } from "@/server/testing/api";
import { connectAssistant, publicMcpRoute, setPublicMcpEnabled } from "@/server/testing/public-mcp";
import { serveRoutes } from "@/server/testing/serve";
import { startAdmittedReceiver, type WebhookReceiver } from "@/server/testing/webhook-receiver";
import { closeDemoWorld, demoWorld, ownerSession, type TestDatabase } from "@/server/testing/world";

const REDIRECT = "http://127.0.0.1:33418/callback";
const V = "2026-07-28";
const COMMENT = "paperclip.task.comment_created";
type Handler = (r: Request) => Promise<Response>;

let database: TestDatabase;
let companyId: string;
let ownerId: string;
let ownerCookie: string;
let server: { origin: string; close: () => Promise<void> };
let receiver: WebhookReceiver;
let worker: EventWorker;

beforeAll(async () => {
  const world = await demoWorld({ home: "grants-end-" });
  database = world.database;
  companyId = world.demo.companyId;
  ({ id: ownerId, cookie: ownerCookie } = await ownerSession(database.db, world.demo));
  server = await serveRoutes({
    "/.well-known/oauth-protected-resource/mcp/paperclip": wkResource.GET as Handler,
    "/.well-known/oauth-authorization-server": wkServer.GET as Handler,
    "/mcp/oauth/register": registerRoute.POST as Handler,
    "/mcp/oauth/authorize": authorizeRoute.GET as Handler,
    "/mcp/oauth/token": tokenRoute.POST as Handler,
    "/mcp/paperclip": publicMcpRoute as Handler,
  } as never);
  process.env.PAPERCLIP_PUBLIC_URL = server.origin;
  await setPublicMcpEnabled(database.db, true);
  receiver = await startAdmittedReceiver();
  // Passes are driven by the tests; the timer is effectively off.
  worker = createEventWorker(database.db, { intervalMs: 3_600_000, retryBaseMs: 20 });
}, 60_000);

afterAll(async () => {
  delete process.env.PAPERCLIP_PUBLIC_URL;
  await worker?.stop();
  await receiver?.close();
  await server?.close();
  await closeDemoWorld(database);
});

beforeEach(async () => {
  receiver.reset();
  // A fresh registration quota window per test (6 new clients a minute per source).
  await database.db.execute(sql`delete from oauth_admissions`);
});

// ── the person, through the members API (the owner's browser session) ─────────────────────

async function addPerson(email: string, role: MembershipRole) {
  const res = await call<{ member: { userId: string } }>(membersRoute.POST, "POST", "/", {
    cookie: ownerCookie,
    params: { companyId },
    body: { email, role },
  });
  expect(res.status).toBe(201);
  return res.json.member.userId;
}

async function removePerson(userId: string) {
  const res = await call(memberRoute.DELETE, "DELETE", "/", {
    cookie: ownerCookie,
    params: { companyId, userId },
  });
  expect(res.status).toBe(200);
}

async function setRole(userId: string, role: MembershipRole) {
  const res = await call(memberRoute.PATCH, "PATCH", "/", {
    cookie: ownerCookie,
    params: { companyId, userId },
    body: { role },
  });
  expect(res.status).toBe(200);
}

// ── the assistant: a strict OAuth 2.1 client, consent in the person's browser ────────────

async function strictClient() {
  const issuer = new URL(server.origin);
  const insecure = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
  );
  const client = (await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        redirect_uris: [REDIRECT],
        client_name: "Membership Client",
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none",
      },
      insecure,
    ),
  )) as oauth.Client;
  return { as, client, insecure };
}
type Strict = Awaited<ReturnType<typeof strictClient>>;

/** Starts an authorization request (the client sends the browser to /authorize); its consent page id. */
async function authorizationRequest(s: Strict, write: boolean) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(s.as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: s.client.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    scope: `paperclip:read${write ? " paperclip:write" : ""} offline_access`,
    resource: `${server.origin}/mcp/paperclip`,
    state,
  }).toString();
  const res = await fetch(url, { redirect: "manual" });
  const requestId = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
  return { requestId, verifier, state };
}

/** Connect on the consent page, as the person of `cookie`. */
const approve = (cookie: string, requestId: string, write: boolean) =>
  call<{ redirectTo: string; error?: { code: string } }>(consentRoute.POST, "POST", "/", {
    cookie,
    params: { requestId },
    body: { approve: true, companyId, write },
  });

/** The whole browser flow: authorize, consent (Connect) as `cookie`, redeem the code. */
async function connectAs(s: Strict, cookie: string, write: boolean) {
  const { requestId, verifier, state } = await authorizationRequest(s, write);
  const decided = await approve(cookie, requestId, write);
  expect(decided.status).toBe(200);
  const params = oauth.validateAuthResponse(s.as, s.client, new URL(decided.json.redirectTo), state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    s.as,
    s.client,
    await oauth.authorizationCodeGrantRequest(
      s.as,
      s.client,
      oauth.None(),
      params,
      REDIRECT,
      verifier,
      s.insecure,
    ),
  );
  expect(tokens.refresh_token).toMatch(/^pcor_/);
  const [row] = await database.db
    .select({ grantId: oauthTokens.grantId })
    .from(oauthTokens)
    .where(sql`${oauthTokens.tokenHash} = encode(sha256(${tokens.access_token}::bytea), 'hex')`);
  return { tokens, grantId: row!.grantId };
}

async function refresh(s: Strict, refreshToken: string) {
  return oauth.processRefreshTokenResponse(
    s.as,
    s.client,
    await oauth.refreshTokenGrantRequest(s.as, s.client, oauth.None(), refreshToken, s.insecure),
  );
}

const mcpStatus = async (token: string) =>
  (
    await fetch(new URL("/mcp/paperclip", server.origin), {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    })
  ).status;

// ── events: a subscription to a task's comments, a receiver that records deliveries ───────

async function subscribe(token: string, taskId: string, secret: string) {
  const res = await fetch(new URL("/mcp/paperclip", server.origin), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": "events/subscribe",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "events/subscribe",
      params: {
        name: COMMENT,
        arguments: { companyId, taskId },
        delivery: { mode: "webhook", url: receiver.url, secret },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": V,
          "io.modelcontextprotocol/clientInfo": { name: "grants-end", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const body = (await res.json()) as { result?: { id: string }; error?: unknown };
  expect(body.error).toBeUndefined();
  return body.result!.id;
}

/** The owner's own connection writes the tasks and comments the person's assistant watches. */
let ownerCtx: Awaited<ReturnType<Awaited<ReturnType<typeof connectAssistant>>["session"]>>["ctx"];
async function watchedTask() {
  if (!ownerCtx)
    ownerCtx = (await (await connectAssistant(database.db, { userId: ownerId, companyId })).session()).ctx;
  return createIssue(ownerCtx, companyId, { title: "Watched by the assistant", body: "", status: "todo" });
}

async function passes(n = 6) {
  for (let i = 0; i < n; i++) {
    await worker.pass();
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A connected person: read+write(+refresh) tokens and an active comment subscription. */
async function connectedPerson(role: MembershipRole, opts: { write?: boolean } = {}) {
  const email = `p-${randomBytes(4).toString("hex")}@acme.example`;
  const userId = await addPerson(email, role);
  const cookie = await sessionCookie(database.db, userId, email);
  const s = await strictClient();
  const { tokens, grantId } = await connectAs(s, cookie, opts.write ?? true);
  expect(await mcpStatus(tokens.access_token)).toBe(200);
  const task = await watchedTask();
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  receiver.setSecret(secret);
  const subscriptionId = await subscribe(tokens.access_token, task.id, secret);
  return { email, userId, cookie, s, tokens, grantId, task, subscriptionId };
}
type Person = Awaited<ReturnType<typeof connectedPerson>>;

/** Everything of the old connection is dead for good, and recorded. */
async function expectRevokedForGood(p: Person, reason: string) {
  expect(await mcpStatus(p.tokens.access_token)).toBe(401);
  await expect(refresh(p.s, p.tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  const [grant] = await database.db.select().from(oauthGrants).where(eq(oauthGrants.id, p.grantId));
  expect(grant!.revokedAt).toBeInstanceOf(Date);
  expect(grant!.revokedReason).toBe(reason);
  const tokens = await database.db.select().from(oauthTokens).where(eq(oauthTokens.grantId, p.grantId));
  expect(tokens).toHaveLength(0);
  const audited = await database.db
    .select({ details: activityLog.details })
    .from(activityLog)
    .where(and(eq(activityLog.action, "oauth_grant.revoked"), eq(activityLog.entityId, p.grantId)));
  expect(audited.map((a) => a.details)).toEqual([expect.objectContaining({ userId: p.userId, reason })]);
  // The subscription is stopped (listed so to its person) and delivers nothing more.
  await addComment(ownerCtx, p.task.id, { body: "after the connection ended" });
  await passes();
  expect(receiver.deliveries()).toHaveLength(0);
  const [sub] = await database.db
    .select()
    .from(mcpEventSubscriptions)
    .where(eq(mcpEventSubscriptions.id, p.subscriptionId));
  expect(sub).toMatchObject({ state: "stopped", stoppedReason: "grant_revoked" });
  const cookie = await sessionCookie(database.db, p.userId, p.email);
  const listed = await call<{ subscriptions: { id: string; state: string; stoppedReason: string }[] }>(
    subscriptionsRoute.GET,
    "GET",
    "/",
    { cookie, params: { grantId: p.grantId } },
  );
  expect(listed.json.subscriptions).toEqual([
    expect.objectContaining({ id: p.subscriptionId, state: "stopped", stoppedReason: "grant_revoked" }),
  ]);
}

/** The comment reaches the receiver (the subscription is live). */
async function expectDelivers(p: Person) {
  await addComment(ownerCtx, p.task.id, { body: "still watched" });
  for (let i = 0; i < 200 && receiver.deliveries().length === 0; i++) {
    await worker.pass();
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(receiver.deliveries().map((d) => d.subscriptionId)).toContain(p.subscriptionId);
}

/** A new consent after the person is back works, and only it. */
async function expectNewConsentWorks(p: Person, write: boolean) {
  const cookie = await sessionCookie(database.db, p.userId, p.email);
  const again = await connectAs(p.s, cookie, write);
  expect(again.grantId).not.toBe(p.grantId);
  expect(await mcpStatus(again.tokens.access_token)).toBe(200);
  expect((await refresh(p.s, again.tokens.refresh_token!)).access_token).toMatch(/^pcoa_/);
  expect(await mcpStatus(p.tokens.access_token)).toBe(401);
}

describe("removing a member revokes their connections for good", () => {
  it("remove → re-add: old access token 401, refresh invalid_grant, subscription stopped; a new consent works", async () => {
    const p = await connectedPerson("member");
    await removePerson(p.userId);
    await addPerson(p.email, "member");
    await expectRevokedForGood(p, "member_removed");
    const [removal] = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(and(eq(activityLog.action, "member.remove"), eq(activityLog.entityId, p.userId)));
    expect(removal!.details).toMatchObject({ connectionsRevoked: 1 });
    await expectNewConsentWorks(p, true);
  });

  it("a membership re-created behind the verbs' back does not revive a grant (the per-call recheck)", async () => {
    const p = await connectedPerson("member");
    // Raw SQL: no revocation runs, so only the recheck (membership younger than the grant) stands.
    await database.db
      .delete(companyMemberships)
      .where(and(eq(companyMemberships.companyId, companyId), eq(companyMemberships.userId, p.userId)));
    await database.db.insert(companyMemberships).values({ companyId, userId: p.userId, role: "member" });
    const [grant] = await database.db.select().from(oauthGrants).where(eq(oauthGrants.id, p.grantId));
    expect(grant!.revokedAt).toBeNull();
    expect(await mcpStatus(p.tokens.access_token)).toBe(401);
    await expect(refresh(p.s, p.tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });
});

describe("disabling an account revokes its connections for good", () => {
  it("disable → enable: old access token 401, refresh invalid_grant, subscription stopped; a new consent works", async () => {
    const p = await connectedPerson("member");
    const ctx = systemContext(database.db, "test");
    const out = await disableAccount(ctx, p.email);
    expect(out).toMatchObject({ disabled: true, connectionsRevoked: 1 });
    expect(await mcpStatus(p.tokens.access_token)).toBe(401);
    await enableAccount(ctx, p.email);
    await expectRevokedForGood(p, "member_disabled");
    await expectNewConsentWorks(p, true);
  });
});

describe("a role change below a grant's scopes revokes it; one that still covers them keeps it", () => {
  it("member → viewer → member: the write grant stays revoked", async () => {
    const p = await connectedPerson("member", { write: true });
    await setRole(p.userId, "viewer");
    await setRole(p.userId, "member");
    await expectRevokedForGood(p, "role_reduced");
    await expectNewConsentWorks(p, true);
  });

  it("member → viewer keeps a read-only grant; member → admin keeps a write grant", async () => {
    const reader = await connectedPerson("member", { write: false });
    await setRole(reader.userId, "viewer");
    expect(await mcpStatus(reader.tokens.access_token)).toBe(200);
    const rotated = await refresh(reader.s, reader.tokens.refresh_token!);
    expect(await mcpStatus(rotated.access_token)).toBe(200);
    await expectDelivers(reader);

    receiver.reset();
    const writer = await connectedPerson("member", { write: true });
    await setRole(writer.userId, "admin");
    expect(await mcpStatus(writer.tokens.access_token)).toBe(200);
    expect((await refresh(writer.s, writer.tokens.refresh_token!)).access_token).toMatch(/^pcoa_/);
    await expectDelivers(writer);
    const live = await database.db
      .select({ revokedAt: oauthGrants.revokedAt })
      .from(oauthGrants)
      .where(inArray(oauthGrants.id, [reader.grantId, writer.grantId]));
    expect(live).toEqual([{ revokedAt: null }, { revokedAt: null }]);
  });
});

describe("consent and a membership change cannot interleave", () => {
  it("a consent racing a demotion waits for it and sees the new role (no write grant outlives it)", async () => {
    const email = `race-${randomBytes(4).toString("hex")}@acme.example`;
    const userId = await addPerson(email, "member");
    const cookie = await sessionCookie(database.db, userId, email);
    const s = await strictClient();
    const { requestId } = await authorizationRequest(s, true);
    let consent: Promise<Awaited<ReturnType<typeof approve>>> | undefined;
    let settledEarly = false;
    // A role change in flight: it holds the membership row (as changeMemberRole does) while
    // the person presses Connect with write access, then demotes them to viewer and commits.
    await database.db.transaction(async (tx) => {
      await tx
        .select({ id: companyMemberships.id })
        .from(companyMemberships)
        .where(and(eq(companyMemberships.companyId, companyId), eq(companyMemberships.userId, userId)))
        .for("update");
      consent = approve(cookie, requestId, true);
      void consent.then(() => {
        settledEarly = true;
      });
      await new Promise((r) => setTimeout(r, 400));
      await tx
        .update(companyMemberships)
        .set({ role: "viewer" })
        .where(and(eq(companyMemberships.companyId, companyId), eq(companyMemberships.userId, userId)));
    });
    expect(settledEarly).toBe(false);
    const decided = await consent!;
    // The consent read the committed role: a viewer cannot grant write.
    expect(decided.status).toBe(403);
    const grants = await database.db.select().from(oauthGrants).where(eq(oauthGrants.userId, userId));
    expect(grants).toHaveLength(0);
  });
});
