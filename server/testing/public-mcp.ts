/**
 * Assistant connections for tests without the OAuth dance (server/oauth/oauth.int.test.ts
 * covers that): a registered client, a grant for (person, company, scopes) and an access
 * token, plus the request-local session the public MCP endpoint would build for it. Tests
 * call operations through `callTool` (the same entry both protocol eras use) or over HTTP
 * with the token.
 */
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import { oauthClients, oauthGrants } from "@/db/schema";
import { oauthUrls } from "../oauth/config";
import { issueTokens, liveGrant } from "../oauth/store";
import { sessionFor } from "../public-mcp/endpoint";
import type { McpSession } from "../public-mcp/registry";
import { callTool } from "../public-mcp/tools";

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
