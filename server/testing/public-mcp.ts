/**
 * Assistant connections for tests without the OAuth dance (server/oauth/oauth.int.test.ts
 * covers that): a registered client, a grant for (person, company, scopes) and an access
 * token, plus the request-local session the public MCP endpoint would build for it. Tests
 * call operations through `callTool` (the same entry both protocol eras use) or over HTTP
 * with the token.
 */
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as wkServer from "@/app/.well-known/oauth-authorization-server/route";
import * as wkResource from "@/app/.well-known/oauth-protected-resource/mcp/paperclip/route";
import * as authorizeRoute from "@/app/mcp/oauth/authorize/route";
import * as registerRoute from "@/app/mcp/oauth/register/route";
import * as revokeRoute from "@/app/mcp/oauth/revoke/route";
import * as tokenRoute from "@/app/mcp/oauth/token/route";
import * as mcpRoute from "@/app/mcp/paperclip/route";
import type { Db } from "@/db/client";
import {
  companies,
  companyMemberships,
  instanceSettings,
  oauthClients,
  oauthGrants,
  users,
} from "@/db/schema";
import type { MembershipRole } from "@/server/contracts/values";
import { fileTransferRoutes } from "../http/file-transfer-routes";
import { oauthUrls } from "../oauth/config";
import { issueTokens, liveGrant } from "../oauth/store";
import { sessionFor } from "../public-mcp/endpoint";
import type { McpSession } from "../public-mcp/registry";
import { callTool } from "../public-mcp/tools";
import { serveRoutes } from "./serve";

export const ALL_SCOPES = ["paperclip:read", "paperclip:write", "paperclip:configure"];

export interface TestConnection {
  grantId: string;
  /** A live `pcoa_` access token for `/mcp/paperclip` (15 minutes). */
  token: string;
  /** A fresh request-local session (re-reads the grant, as each HTTP request does). */
  session(now?: Date): Promise<McpSession>;
  /** `tools/call` through the shared dispatcher; returns the tool result. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** `paperclip_call_api` with an operation id; returns the structured content. */
  api(operation: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export async function connectAssistant(
  db: Db,
  opts: { userId: string; companyId: string; scopes?: string[]; clientName?: string },
): Promise<TestConnection> {
  const scopes = opts.scopes ?? ALL_SCOPES;
  const [client] = await db
    .insert(oauthClients)
    .values({
      clientId: `test-client-${randomUUID()}`,
      kind: "dcr",
      clientName: opts.clientName ?? "Test Assistant",
      redirectUris: ["http://127.0.0.1:1/callback"],
      applicationType: "native",
      grantTypes: ["authorization_code", "refresh_token"],
      scope: scopes.join(" "),
      consentedAt: new Date(),
    })
    .returning();
  const [grant] = await db
    .insert(oauthGrants)
    .values({
      companyId: opts.companyId,
      userId: opts.userId,
      clientId: client!.id,
      resource: oauthUrls().resource,
      scopes,
      name: opts.clientName ?? "Test Assistant",
    })
    .returning();
  const tokens = await issueTokens(db, grant!, scopes, false, new Date());
  const session = async (now = new Date()) => {
    const live = await liveGrant(db, grant!.id);
    if (!live) throw new Error("the test grant is not live");
    return sessionFor(db, live, live.effectiveScopes, now);
  };
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    callTool(await session(), tool, args);
  return {
    grantId: grant!.id,
    token: tokens.access_token,
    session,
    call,
    api: async (operation, args = {}) =>
      (await call("paperclip_call_api", { operation, arguments: args })).structuredContent as Record<
        string,
        unknown
      >,
  };
}

/** Turns the public MCP connection on or off (Settings › Experimental), as an instance admin would. */
export async function setPublicMcpEnabled(db: Db, on: boolean): Promise<void> {
  await db
    .insert(instanceSettings)
    .values({ key: "enablePublicMcp", value: on })
    .onConflictDoUpdate({ target: instanceSettings.key, set: { value: on } });
}

/** A new person with a membership of `role` in the company; their id. */
export async function addMember(
  db: Db,
  companyId: string,
  person: { email: string; name: string; role: MembershipRole },
): Promise<string> {
  const [u] = await db.insert(users).values({ email: person.email, name: person.name }).returning();
  await db.insert(companyMemberships).values({ companyId, userId: u!.id, role: person.role });
  return u!.id;
}

/**
 * A second company (Globex, prefix GLX) that `ownerId` also owns: a grant for the first one
 * must never reach it, although the person could open it in the browser.
 */
export async function secondCompanyOf(db: Db, ownerId: string): Promise<string> {
  const [other] = await db
    .insert(companies)
    .values({ name: "Globex", slug: "globex", issuePrefix: "GLX" })
    .returning();
  await db.insert(companyMemberships).values({ companyId: other!.id, userId: ownerId, role: "owner" });
  return other!.id;
}

type RouteHandler = Parameters<typeof serveRoutes>[0][string];

/** `/mcp/paperclip` as Next.js routes it: POST, GET and DELETE to their handlers. */
export const publicMcpRoute = ((r: Request) =>
  r.method === "POST"
    ? mcpRoute.POST(r)
    : r.method === "GET"
      ? mcpRoute.GET(r)
      : mcpRoute.DELETE(r)) as RouteHandler;

/**
 * The public MCP connection as an OAuth client meets it, for `serveRoutes`: the protected
 * resource and its metadata (RFC 9728), the authorization server's metadata (RFC 8414),
 * registration, authorize, token and revocation.
 */
export const publicMcpOAuthRoutes = (): Record<string, RouteHandler> => ({
  "/.well-known/oauth-protected-resource/mcp/paperclip": wkResource.GET as RouteHandler,
  "/.well-known/oauth-authorization-server": wkServer.GET as RouteHandler,
  "/mcp/oauth/register": registerRoute.POST as RouteHandler,
  "/mcp/oauth/authorize": authorizeRoute.GET as RouteHandler,
  "/mcp/oauth/token": tokenRoute.POST as RouteHandler,
  "/mcp/oauth/revoke": revokeRoute.POST as RouteHandler,
  "/mcp/paperclip": publicMcpRoute,
});

/** The transfer URLs (`/mcp/files/<token>`) as Next.js routes them. */
const filesRoute = ((r: Request, c: { params: Promise<Record<string, string>> }) =>
  r.method === "PUT"
    ? fileTransferRoutes.PUT(r, c as { params: Promise<{ token: string }> })
    : fileTransferRoutes.GET(r, c as { params: Promise<{ token: string }> })) as RouteHandler;

/**
 * `/mcp/paperclip` (and the transfer URLs) served on loopback HTTP, switched on, with `PAPERCLIP_PUBLIC_URL` set to its
 * origin (the resource grants are bound to — so call it before `connectAssistant`). `close`
 * stops it and unsets the origin.
 */
export async function servePublicMcp(
  db: Db,
): Promise<{ origin: string; url: URL; close: () => Promise<void> }> {
  const server = await serveRoutes({ "/mcp/paperclip": publicMcpRoute, "/mcp/files/[token]": filesRoute });
  process.env.PAPERCLIP_PUBLIC_URL = server.origin;
  await setPublicMcpEnabled(db, true);
  return {
    origin: server.origin,
    url: new URL("/mcp/paperclip", server.origin),
    close: async () => {
      delete process.env.PAPERCLIP_PUBLIC_URL;
      await server.close();
    },
  };
}
