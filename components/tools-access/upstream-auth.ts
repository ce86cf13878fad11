/**
 * Words and small helpers of the upstream OAuth screens (docs/upstream-oauth.md): the connection's
 * Authorization panel and the account page's Linked accounts. No React, so tests can import it.
 */

import { CONNECTION_AUTH_KINDS, UPSTREAM_TOKEN_AUTH_METHODS } from "@/server/contracts/values";
import type {
  ConnectionAuthKind,
  UpstreamAuthorization,
  UpstreamOAuthReturn,
  UpstreamTokenAuthMethod,
} from "./types";

export { CONNECTION_AUTH_KINDS, UPSTREAM_TOKEN_AUTH_METHODS };

export const AUTH_KIND_LABELS: Record<ConnectionAuthKind, string> = {
  static: "Static (bound secrets or none)",
  oauth_company: "OAuth for the company",
  oauth_user: "OAuth for each person",
  client_credentials: "Client credentials (machine to machine)",
};

/** The short word a list shows beside a connection's name; `static` shows nothing. */
export const AUTH_KIND_BADGES: Record<ConnectionAuthKind, string | null> = {
  static: null,
  oauth_company: "OAuth",
  oauth_user: "OAuth per person",
  client_credentials: "Client credentials",
};

export const TOKEN_AUTH_METHOD_LABELS: Record<UpstreamTokenAuthMethod, string> = {
  none: "None (public client, PKCE only)",
  client_secret_basic: "Client secret, HTTP Basic",
  client_secret_post: "Client secret in the form body",
  private_key_jwt: "Private key JWT",
};

export const REGISTRATION_LABELS: Record<string, string> = {
  pre_registered: "Pre-registered client",
  cimd: "Client ID Metadata Document",
  dynamic: "Dynamic registration (RFC 7591)",
};

/**
 * What a person reads when the callback came back with `?upstream_oauth_error=<code>` (the codes
 * of docs/upstream-oauth.md "Errors"); an unknown code still gets a sentence and shows itself.
 */
export const UPSTREAM_OAUTH_ERROR_TEXT: Record<string, string> = {
  upstream_authorization_required: "The connection needs to be authorised again: press Reconnect.",
  user_grant_required: "Your account is not linked to this connection yet.",
  upstream_oauth_not_configured: "This connection does not authorise with OAuth.",
  upstream_oauth_discovery_failed:
    "The server's OAuth metadata could not be found or did not match this connection's URL.",
  upstream_oauth_issuer_mismatch:
    "The authorization server answered as another issuer than the one discovered, so the answer was refused.",
  upstream_oauth_unsupported: "The server lacks what the gateway requires (PKCE with S256).",
  upstream_oauth_refused:
    "The authorization server refused the request (the consent was denied, or the code was refused).",
  upstream_oauth_state_invalid:
    "The authorization link was unknown, expired, already used or started by someone else. Start again.",
  upstream_requires_operator:
    "The server is on a private or loopback address: an instance administrator must allow its origin first.",
};

export function upstreamOAuthErrorText(code: string): string {
  return UPSTREAM_OAUTH_ERROR_TEXT[code] ?? "The authorization did not complete.";
}

/** Scopes typed comma- or space-separated, deduplicated, in the order given. */
export function parseScopes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** The callback's outcome from a page's query string. */
export function upstreamOAuthReturnOf(params: {
  upstream_oauth?: string | undefined;
  upstream_oauth_error?: string | undefined;
}): UpstreamOAuthReturn {
  if (params.upstream_oauth_error) return { status: "error", code: params.upstream_oauth_error };
  if (params.upstream_oauth === "connected") return { status: "connected" };
  return null;
}

/**
 * The console path to come back to after the authorization server: the current page without a
 * previous callback's outcome (so an old notice does not come back with the new one).
 */
export function returnToOf(location: { pathname: string; search: string; hash?: string }): string {
  const search = new URLSearchParams(location.search);
  search.delete("upstream_oauth");
  search.delete("upstream_oauth_error");
  const query = search.toString();
  return `${location.pathname}${query ? `?${query}` : ""}${location.hash ?? ""}`;
}

/** `/api/companies/:companyId/tools/connections/:connectionId/authorization` */
export function authorizationPath(companyId: string, connectionId: string): string {
  return `/api/companies/${encodeURIComponent(companyId)}/tools/connections/${encodeURIComponent(connectionId)}/authorization`;
}

export const LINKED_ACCOUNTS_PATH = "/api/me/linked-accounts";
export const linkedAccountsKey = ["me", "linked-accounts"] as const;

/** The authorization of a connection of `kind` that nobody has connected yet (no client, no grant). */
export function unconnectedAuthorization(kind: ConnectionAuthKind): UpstreamAuthorization {
  return {
    kind,
    status: "not_connected",
    issuer: null,
    registration: null,
    clientId: null,
    hasClientCredential: false,
    config: {},
    grant: null,
    linkedPeople: 0,
  };
}
