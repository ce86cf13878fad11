/**
 * Issue 36 item 5, end to end: the gateway connected by OAuth to Paperclip's own public MCP
 * connection (`/mcp/paperclip`), and an agent reading the other side's tasks through
 * governance. Nothing is mocked: the authorization server (discovery, registration, authorize,
 * token), the protected resource, the consent API and the gateway's callback are the route
 * modules Next.js serves, on one real loopback HTTP origin; the gateway reaches them through
 * its network guard like any upstream; the agent speaks MCP to /api/tool-gateway/mcp with the
 * SDK client.
 *
 * "The other instance" is a second company on the same instance. One process can host only
 * one route database (`setRouteDatabase`), so a true second instance would need a second
 * process with its own database; the protocol between the two sides would be the same bytes
 * over HTTP (RFC 9728 → RFC 8414 → RFC 7591 → PKCE + `resource` → consent → code → token →
 * bearer), and nothing on either side is allowed to shortcut through the shared database:
 * the gateway only holds what the token endpoint gave it, company B's person decides the
 * consent for company B, and company A's admin finishes the callback. What a single process
 * cannot prove is two distinct issuers; the issuer check itself has its own tests
 * (refusals.int.test.ts).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as issuesRoute from "@/app/api/companies/[companyId]/issues/route";
import * as connectRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/connect/route";
import * as authorizationRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/authorization/route";
import * as consentRoute from "@/app/api/mcp-connect/[requestId]/route";
import * as myConnectionsRoute from "@/app/api/me/assistant-connections/route";
import * as callbackRoute from "@/app/api/upstream-oauth/callback/route";
import {
  oauthClients,
  oauthGrants,
  oauthTokens,
  toolCallEvents,
  toolInvocations,
  toolUpstreamClients,
  toolUpstreamGrants,
} from "@/db/schema";
import type { DemoCredentials } from "@/server/core/seed";
import { handleGatewayMcp } from "@/server/gateway/mcp";
import { call } from "@/server/testing/api";
import { entriesNamed, installMcpApplication } from "@/server/testing/mcp-app";
import { publicMcpOAuthRoutes, setPublicMcpEnabled } from "@/server/testing/public-mcp";
import { serveRoutes } from "@/server/testing/serve";
import { upstreamGrantOf } from "@/server/testing/upstream-oauth";
import { closeDemoWorld, demoWorld, strangerCompany, type TestDatabase } from "@/server/testing/world";

type Handler = (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Ctx = { params: Promise<{ requestId: string }> };

let database: TestDatabase;
let demo: DemoCredentials;
let server: { origin: string; close: () => Promise<void> };
/** Company B: the other side, whose person gives consent. */
let initech: Awaited<ReturnType<typeof strangerCompany>>;
let installed: Awaited<ReturnType<typeof installMcpApplication>>;
const SLUG = "initech";
// Issue 36 names `paperclip_list_tasks`; the public MCP connection's list of tasks is
// `paperclip_search_tasks` (docs/public-mcp.md, "Tools"), with no query it lists them all.
const LIST_TASKS = `${SLUG}__paperclip_search_tasks`;
const B_TASK = "Initech firmware audit";

/** What each step of the browser's journey answered, kept for the assertions below. */
const journey: {
  authorizationUrl?: URL;
  consentLocation?: URL;
  consentView?: { client: { name: string | null; clientId: string }; organizations: { id: string }[] };
  backTo?: URL;
  callback?: { status: number; json: Record<string, unknown> };
} = {};

/**
 * The routes one Paperclip origin serves for this: the authorization server and its metadata,
 * the protected resource, the consent API (the page at /mcp-connect/<id> calls it) and the
 * gateway's callback, plus the agents' MCP endpoint.
 */
const routes = (): Record<string, Handler> => ({
  ...publicMcpOAuthRoutes(),
  "/api/mcp-connect/[requestId]": ((r: Request, c: Ctx) =>
    r.method === "POST" ? consentRoute.POST(r, c) : consentRoute.GET(r, c)) as Handler,
  "/api/upstream-oauth/callback": callbackRoute.GET as Handler,
  "/api/tool-gateway/mcp": handleGatewayMcp as Handler,
});

/**
 * Company A's admin connects the connection (`oauth_company`); the authorization URL is then
 * followed as company B's person would in a browser: the authorization server sends them to
 * consent, they approve for company B on the consent page (its API, with their session cookie
 * and the page's Origin), and the browser lands on the gateway's callback, which company A's
 * admin (the one who pressed Connect) finishes.
 */
async function connectAcrossCompanies(params: { companyId: string; connectionId: string }) {
  const board = { token: demo.boardApiKey, params };
  const put = await call(authorizationRoute.PUT, "PUT", "/", { ...board, body: { kind: "oauth_company" } });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  const start = await call<{ authorizationUrl: string }>(connectRoute.POST, "POST", "/", {
    ...board,
    body: {},
  });
  expect(start.status, JSON.stringify(start.json)).toBe(200);
  journey.authorizationUrl = new URL(start.json.authorizationUrl);

  const authorize = await fetch(journey.authorizationUrl, { redirect: "manual" });
  expect(authorize.status, await authorize.clone().text()).toBe(302);
  journey.consentLocation = new URL(authorize.headers.get("location")!, server.origin);
  const requestId = journey.consentLocation.pathname.split("/").pop()!;

  const asPersonB = { cookie: initech.cookie, origin: server.origin };
  const view = await fetch(`${server.origin}/api/mcp-connect/${requestId}`, { headers: asPersonB });
  expect(view.status).toBe(200);
  journey.consentView = (await view.json()) as NonNullable<typeof journey.consentView>;
  const decided = await fetch(`${server.origin}/api/mcp-connect/${requestId}`, {
    method: "POST",
    headers: { ...asPersonB, "content-type": "application/json" },
    body: JSON.stringify({ approve: true, companyId: initech.companyId, write: false }),
  });
  const decision = (await decided.json()) as { redirectTo: string };
  expect(decided.status, JSON.stringify(decision)).toBe(200);
  journey.backTo = new URL(decision.redirectTo);

  const back = await fetch(journey.backTo, {
    headers: { authorization: `Bearer ${demo.boardApiKey}`, accept: "application/json" },
    redirect: "manual",
  });
  journey.callback = { status: back.status, json: (await back.json()) as Record<string, unknown> };
  expect(journey.callback.status, JSON.stringify(journey.callback.json)).toBe(200);
}

let agentSession: Client | undefined;
/**
 * The run's agent on the gateway's MCP endpoint, with its session token (the MCP SDK client),
 * one connection for the whole file as an agent keeps it.
 */
async function agentClient(): Promise<Client> {
  if (agentSession) return agentSession;
  const agent = new Client({ name: "agent", version: "1.0.0" });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL("/api/tool-gateway/mcp", server.origin), {
      requestInit: { headers: { authorization: `Bearer ${installed.token}` } },
    }),
  );
  agentSession = agent;
  return agent;
}
/** `tools/call` as the agent; the tool result. */
const callAs = async (name: string, args: Record<string, unknown> = {}) =>
  (await (await agentClient()).callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-self-oauth-", gateway: true }));
  server = await serveRoutes(routes());
  // One origin is both the authorization server's issuer/resource and the gateway's callback.
  process.env.PAPERCLIP_PUBLIC_URL = server.origin;
  await setPublicMcpEnabled(database.db, true);
  initech = await strangerCompany(database.db, "Initech");
  const task = await call(issuesRoute.POST, "POST", "/", {
    token: initech.boardKey,
    params: { companyId: initech.companyId },
    body: { title: B_TASK },
  });
  expect(task.status, JSON.stringify(task.json)).toBe(201);
  installed = await installMcpApplication(database.db, demo, {
    slug: SLUG,
    url: `${server.origin}/mcp/paperclip`,
    // Company A's own governance: its profile leaves B's task creation out.
    exclude: entriesNamed([["tool", "paperclip_create_task"]]),
    authorize: connectAcrossCompanies,
  });
}, 90_000);

afterAll(async () => {
  await agentSession?.close().catch(() => {});
  delete process.env.PAPERCLIP_PUBLIC_URL;
  await server?.close();
  await closeDemoWorld(database);
});

describe("the gateway connected by OAuth to Paperclip's own /mcp/paperclip", () => {
  it("discovers the authorization server and asks for consent with PKCE S256 and the resource", () => {
    const url = journey.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${server.origin}/mcp/oauth/authorize`);
    expect(url.searchParams.get("resource")).toBe(`${server.origin}/mcp/paperclip`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("redirect_uri")).toBe(`${server.origin}/api/upstream-oauth/callback`);
    // Consent, not an automatic approval: the browser is sent to the consent page.
    expect(journey.consentLocation!.pathname).toMatch(/^\/mcp-connect\/[0-9a-f-]{36}$/);
    expect(journey.consentView!.client.name).toBe("Paperclip Tools & Access");
    expect(journey.consentView!.organizations.map((o) => o.id)).toEqual([initech.companyId]);
  });

  it("comes back to the gateway's callback with the issuer, and the connection is connected", async () => {
    expect(journey.backTo!.origin + journey.backTo!.pathname).toBe(
      `${server.origin}/api/upstream-oauth/callback`,
    );
    expect(journey.backTo!.searchParams.get("iss")).toBe(server.origin);
    expect(journey.callback!.json.authorization).toMatchObject({
      kind: "oauth_company",
      status: "connected",
      registration: "dynamic",
    });
    expect(await upstreamGrantOf(database.db, installed.connectionId)).toMatchObject({
      companyId: demo.companyId,
      status: "connected",
      issuer: server.origin,
    });
  });

  it("the catalog holds the other side's tools, namespaced under the application", () => {
    const names = installed.entries.filter((e) => e.kind === "tool").map((e) => e.name);
    expect(names).toContain("paperclip_search_tasks");
    expect(names).toContain("paperclip_connection");
  });

  it("an agent of company A lists company B's tasks through the gateway, not A's", async () => {
    const agent = await agentClient();
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).toContain(LIST_TASKS);
    const connection = await callAs(`${SLUG}__paperclip_connection`);
    expect(connection.isError, JSON.stringify(connection)).toBeFalsy();
    expect(JSON.stringify(connection)).toContain(initech.companyId);
    const result = await callAs(LIST_TASKS, { companyId: initech.companyId });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const tasks = (result.structuredContent as { tasks: { title: string }[] }).tasks;
    expect(tasks.map((t) => t.title)).toEqual([B_TASK]);
    // Company A's own tasks are not reachable through B's grant: the other side refuses.
    const mine = await callAs(LIST_TASKS, { companyId: demo.companyId });
    expect(mine.isError).toBe(true);
    expect((mine.structuredContent as { error: { code: string } }).error.code).toBe("company_not_granted");
  });

  it("company A's profile governs the other side's tools: an excluded one is hidden and never reaches B", async () => {
    const agent = await agentClient();
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).not.toContain(`${SLUG}__paperclip_create_task`);
    await expect(
      agent.callTool({
        name: `${SLUG}__paperclip_create_task`,
        arguments: { companyId: initech.companyId, requestId: crypto.randomUUID(), title: "sneaky" },
      }),
    ).rejects.toMatchObject({ code: -32602 });
    const tasks = await call<{ issues: { title: string }[] }>(issuesRoute.GET, "GET", "/", {
      token: initech.boardKey,
      params: { companyId: initech.companyId },
    });
    expect(tasks.json.issues.map((i) => i.title)).toEqual([B_TASK]);
  });

  it("an expired access token is refreshed at Paperclip's token endpoint, rotating the refresh token", async () => {
    const grantRow = () => upstreamGrantOf(database.db, installed.connectionId);
    const before = await grantRow();
    await database.db
      .update(toolUpstreamGrants)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolUpstreamGrants.id, before.id));
    const result = await callAs(LIST_TASKS, { companyId: initech.companyId });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const after = await grantRow();
    expect(after.refreshCount).toBe(before.refreshCount + 1);
    expect(after.accessExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    // On the other side: the first refresh token is spent, a new one was issued.
    const refresh = await database.db
      .select()
      .from(oauthTokens)
      .where(and(eq(oauthTokens.companyId, initech.companyId), eq(oauthTokens.kind, "refresh")));
    expect(refresh.filter((t) => t.consumedAt !== null)).toHaveLength(1);
    expect(refresh.filter((t) => t.consumedAt === null)).toHaveLength(1);
  });

  it("every call, allowed or denied, is in company A's ledger and audit, none in B's", async () => {
    const ledger = await database.db
      .select()
      .from(toolInvocations)
      .where(eq(toolInvocations.companyId, demo.companyId));
    const listed = ledger.filter((r) => r.toolName === LIST_TASKS);
    // B's tasks, A's refused company, and the call after the refresh.
    expect(listed.map((r) => [r.decision, r.executionStatus])).toEqual(Array(3).fill(["allow", "succeeded"]));
    expect(ledger.find((r) => r.toolName === `${SLUG}__paperclip_create_task`)).toMatchObject({
      decision: "deny",
      executionStatus: "denied",
      reasonCode: "not_in_profile",
    });
    const audit = await database.db
      .select()
      .from(toolCallEvents)
      .where(and(eq(toolCallEvents.companyId, demo.companyId), eq(toolCallEvents.toolName, LIST_TASKS)));
    expect(audit.filter((e) => e.eventType === "result_returned")).toHaveLength(3);
    expect(
      await database.db
        .select()
        .from(toolInvocations)
        .where(eq(toolInvocations.companyId, initech.companyId)),
    ).toEqual([]);
  });

  it("company B's assistant grant names the gateway's client, for B's person and read only", async () => {
    const [client] = await database.db
      .select()
      .from(toolUpstreamClients)
      .where(eq(toolUpstreamClients.connectionId, installed.connectionId));
    const grants = await database.db
      .select({ grant: oauthGrants, client: oauthClients })
      .from(oauthGrants)
      .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
      .where(eq(oauthGrants.companyId, initech.companyId));
    expect(grants).toHaveLength(1);
    const [{ grant, client: registered }] = grants as [(typeof grants)[number]];
    expect(registered.clientId).toBe(client!.clientId);
    expect(registered.clientName).toBe("Paperclip Tools & Access");
    expect(registered.redirectUris).toEqual([`${server.origin}/api/upstream-oauth/callback`]);
    expect(grant.userId).toBe(initech.userId);
    expect(grant.resource).toBe(`${server.origin}/mcp/paperclip`);
    expect(grant.scopes).not.toContain("paperclip:write");
    expect(grant.revokedAt).toBeNull();
    // What B's person sees on their Assistant connections page: the gateway, used just now.
    const mine = await call<{ connections: Record<string, unknown>[] }>(myConnectionsRoute.GET, "GET", "/", {
      cookie: initech.cookie,
    });
    expect(mine.json.connections).toEqual([
      expect.objectContaining({
        id: grant.id,
        companyId: initech.companyId,
        clientName: "Paperclip Tools & Access",
        clientId: client!.clientId,
        write: false,
        lastUsedAt: expect.any(String),
      }),
    ]);
  });
});
