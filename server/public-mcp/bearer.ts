/**
 * The bearer gate of `/mcp/paperclip` (MCP 2025-11-25 authorization, RFC 6750, RFC 9728 §5.1).
 * Only OAuth access tokens (`pcoa_`) of a live grant for exactly this resource are accepted;
 * board keys, agent keys and gateway tokens are refused like any unknown token. A refusal is
 * 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` so a client can
 * discover where to authorize.
 */
import type { Db } from "@/db/client";
import { tokenKindOf } from "../auth/tokens";
import type { Actor } from "../context";
import { oauthUrls, RESOURCE_SCOPES } from "../oauth/config";
import { findToken, type LiveGrant, liveGrant, touchGrant } from "../oauth/store";

/** CORS for the endpoint: bearer tokens are not ambient credentials, so any origin may call it. */
export const MCP_CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version",
};

export function challenge(error?: {
  code: "invalid_request" | "invalid_token" | "insufficient_scope";
  description: string;
}): string {
  const u = oauthUrls();
  const parts = [
    `resource_metadata="${u.protectedResourceMetadata}"`,
    `scope="${RESOURCE_SCOPES.join(" ")}"`,
  ];
  if (error)
    parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/"/g, "'")}"`);
  return `Bearer ${parts.join(", ")}`;
}

export function unauthorized(description?: string): Response {
  return Response.json(
    { error: "invalid_token", error_description: description ?? "a bearer token is required" },
    {
      status: 401,
      headers: {
        ...MCP_CORS_HEADERS,
        "cache-control": "no-store",
        "www-authenticate": description ? challenge({ code: "invalid_token", description }) : challenge(),
      },
    },
  );
}

/** RFC 6750 §3.1: a malformed request (here a malformed `Bearer` credential) is 400 `invalid_request`. */
export function malformedRequest(description: string): Response {
  return Response.json(
    { error: "invalid_request", error_description: description },
    {
      status: 400,
      headers: {
        ...MCP_CORS_HEADERS,
        "cache-control": "no-store",
        "www-authenticate": challenge({ code: "invalid_request", description }),
      },
    },
  );
}

export type BearerResult =
  | { ok: true; actor: Extract<Actor, { type: "oauth_grant" }>; live: LiveGrant }
  | { ok: false; response: Response };

export async function authenticateBearer(db: Db, request: Request, now: Date): Promise<BearerResult> {
  const header = request.headers.get("authorization");
  if (!header) return { ok: false, response: unauthorized() };
  // One form only, `Bearer <b64token>` with a single space (what every client sends; RFC 6750
  // §2.1's grammar also admits more spaces, which we refuse as malformed rather than guess). A
  // malformed Bearer credential is a bad request (§3.1 `invalid_request`, 400), not a bad token.
  const match = /^Bearer ([A-Za-z0-9_\-.~+/]+=*)$/i.exec(header);
  if (!match) {
    if (/^Bearer(\s|$)/i.test(header))
      return { ok: false, response: malformedRequest("the Authorization header must be `Bearer <token>`") };
    return { ok: false, response: unauthorized("the Authorization header must be `Bearer <token>`") };
  }
  const token = match[1]!;
  if (tokenKindOf(token) !== "oauthAccess")
    return {
      ok: false,
      response: unauthorized("only tokens issued by this authorization server are accepted"),
    };
  const row = await findToken(db, token, "access");
  if (!row || row.expiresAt <= now)
    return { ok: false, response: unauthorized("the access token is unknown or expired") };
  const live = await liveGrant(db, row.grantId);
  if (!live || live.grant.resource !== oauthUrls().resource)
    return {
      ok: false,
      response: unauthorized("the connection was revoked or its person no longer has access"),
    };
  await touchGrant(db, live.grant.id, now);
  const scopes = live.effectiveScopes.filter((s) => row.scopes.includes(s));
  return {
    ok: true,
    live,
    actor: {
      type: "oauth_grant",
      grantId: live.grant.id,
      companyId: live.grant.companyId,
      userId: live.grant.userId,
      clientId: live.clientId,
      scopes,
    },
  };
}
