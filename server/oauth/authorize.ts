/**
 * `GET /mcp/oauth/authorize` (OAuth 2.1 §4.1.1): the code flow with S256 PKCE, an exact
 * canonical `resource` (RFC 8707), scopes (`paperclip:read` required), an optional
 * `company_id` pin. The request is stored (10 minutes; at most 10 pending per client and 1,000
 * per instance, expired ones removed first under the same lock) and the browser goes to the
 * consent page. Errors that can be redirected carry `iss` (RFC 9207); an unknown client or a
 * redirect URI it did not register is never redirected to (OAuth 2.1 §4.1.2.1).
 */
import { and, count, eq, isNull, lt } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { oauthAuthorizationRequests } from "@/db/schema";
import type { ServiceContext } from "../context";
import { isCimdClientId, resolveCimdClient } from "./cimd";
import {
  canonicalResource,
  cimdEnabled,
  LIFETIMES,
  oauthUrls,
  QUOTAS,
  requirePublicMcpEnabled,
  SUPPORTED_SCOPES,
} from "./config";
import {
  InvalidClientError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  isOAuthError,
  type OAuthError,
  TemporarilyUnavailableError,
} from "./errors";
import { lockQuota } from "./quota";
import { oauthErrorResponse } from "./respond";
import { findClient, type OAuthClient, redirectAllowed } from "./store";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PKCE = /^[A-Za-z0-9_-]{43}$/;

/** Redirects back to the client with `iss` (RFC 9207) and the client's `state`. */
export function redirectToClient(
  redirectUri: string,
  params: Record<string, string | null | undefined>,
): Response {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v != null) url.searchParams.set(k, v);
  url.searchParams.set("iss", oauthUrls().issuer);
  return new Response(null, { status: 302, headers: { location: url.href, "cache-control": "no-store" } });
}

/** Errors that must not be redirected (unknown client, unregistered redirect URI): JSON, no redirect. */
const directError = (err: OAuthError): Response => oauthErrorResponse(err);

/**
 * The client a request names: a registered one, or a CIMD URL resolved through ./cimd.ts. A
 * CIMD request whose resource or scope is already invalid is refused before anything is fetched.
 */
export async function clientForRequest(
  ctx: ServiceContext,
  clientId: string,
  params: { resource: string | null; scope: string | null },
  source: string,
): Promise<OAuthClient | null> {
  if (!isCimdClientId(clientId)) return findClient(ctx.db, clientId);
  if (!cimdEnabled())
    throw new InvalidClientError(
      "client ID metadata documents are turned off on this server; register the client (RFC 7591)",
    );
  checkResourceAndScopes(params.resource, params.scope, "paperclip:read");
  return resolveCimdClient(ctx, clientId, source);
}

/** Validates `resource` and `scope` (also used by the device and token endpoints). */
export function checkResourceAndScopes(
  resourceParam: string | null,
  scopeParam: string | null,
  fallbackScope: string,
): { resource: string; scopes: string[] } {
  const expected = oauthUrls().resource;
  const resource = resourceParam == null ? expected : canonicalResource(resourceParam);
  if (resource !== expected) throw new InvalidTargetError(`the resource must be ${expected}`);
  const scopes = [...new Set((scopeParam ?? fallbackScope).split(" ").filter(Boolean))];
  const unknown = scopes.find((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
  if (unknown) throw new InvalidScopeError(`unknown scope \`${unknown.slice(0, 100)}\``);
  if (!scopes.includes("paperclip:read"))
    throw new InvalidScopeError("the scope `paperclip:read` is required");
  return { resource, scopes };
}

export async function authorize(ctx: ServiceContext, request: Request, source: string): Promise<Response> {
  await requirePublicMcpEnabled(ctx.db);
  const q = new URL(request.url).searchParams;
  // RFC 6749 §3.1: parameters must not be repeated. Refused before anything else and never
  // redirected: with two `redirect_uri`s (or `client_id`s) there is no one place to send it.
  const repeated = [...new Set(q.keys())].find((k) => q.getAll(k).length > 1);
  if (repeated)
    return directError(new InvalidRequestError(`the parameter \`${repeated.slice(0, 100)}\` is repeated`));
  let client: OAuthClient | null;
  try {
    client = await clientForRequest(
      ctx,
      q.get("client_id") ?? "",
      { resource: q.get("resource"), scope: q.get("scope") },
      source,
    );
  } catch (err) {
    if (isOAuthError(err)) return directError(err);
    throw err;
  }
  if (!client) return directError(new InvalidRequestError("unknown client_id"));
  const redirectUri = q.get("redirect_uri");
  if (!redirectUri || !redirectAllowed(client, redirectUri))
    return directError(new InvalidRequestError("the redirect_uri is not registered for this client"));
  const state = q.get("state");
  const fail = (err: OAuthError) =>
    redirectToClient(redirectUri, { error: err.errorCode, error_description: err.message, state });
  if (q.get("response_type") !== "code")
    return redirectToClient(redirectUri, {
      error: "unsupported_response_type",
      error_description: "only `code` is supported",
      state,
    });
  const challenge = q.get("code_challenge");
  if (q.get("code_challenge_method") !== "S256" || !challenge || !PKCE.test(challenge))
    return fail(new InvalidRequestError("PKCE with code_challenge_method S256 is required"));
  let checked: { resource: string; scopes: string[] };
  try {
    // Scopes the client registered are the default; `offline_access` is never refused for not
    // being registered.
    checked = checkResourceAndScopes(q.get("resource"), q.get("scope"), client.scope);
  } catch (err) {
    return fail(err as OAuthError);
  }
  const pin = q.get("company_id");
  if (pin !== null && !UUID.test(pin))
    return fail(new InvalidRequestError("company_id must be an organization id"));
  const prompt = q.get("prompt");
  if (prompt && !prompt.split(" ").every((p) => p === "consent" || p === "login"))
    return fail(new InvalidRequestError("only prompt=consent is supported"));
  const now = ctx.now();
  const id = await ctx.db
    .transaction(async (tx) => {
      await lockQuota(tx, "authorization_requests");
      await tx.delete(oauthAuthorizationRequests).where(lt(oauthAuthorizationRequests.expiresAt, now));
      if (!(await pendingRoom(tx, client.id)))
        throw new TemporarilyUnavailableError(
          "too many pending authorization requests; finish or wait for the others",
        );
      const [row] = await tx
        .insert(oauthAuthorizationRequests)
        .values({
          clientId: client.id,
          redirectUri,
          state,
          codeChallenge: challenge,
          resource: checked.resource,
          scopes: checked.scopes,
          requestedCompanyId: pin,
          expiresAt: new Date(now.getTime() + LIFETIMES.authorizationRequestMs),
        })
        .returning({ id: oauthAuthorizationRequests.id });
      return row!.id;
    })
    .catch((err: unknown) => (err instanceof TemporarilyUnavailableError ? err : Promise.reject(err)));
  if (id instanceof TemporarilyUnavailableError) return fail(id);
  return new Response(null, {
    status: 302,
    headers: { location: oauthUrls().consent(id), "cache-control": "no-store" },
  });
}

async function pendingRoom(tx: Tx, clientId: string): Promise<boolean> {
  const [mine] = await tx
    .select({ n: count() })
    .from(oauthAuthorizationRequests)
    .where(
      and(eq(oauthAuthorizationRequests.clientId, clientId), isNull(oauthAuthorizationRequests.decidedAt)),
    );
  if ((mine?.n ?? 0) >= QUOTAS.pendingRequestsPerClient) return false;
  const [all] = await tx
    .select({ n: count() })
    .from(oauthAuthorizationRequests)
    .where(isNull(oauthAuthorizationRequests.decidedAt));
  return (all?.n ?? 0) < QUOTAS.pendingRequestsPerInstance;
}
