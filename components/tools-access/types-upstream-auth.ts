/**
 * Upstream OAuth of a remote connection (docs/upstream-oauth.md): the server's contracts as the
 * browser receives them (`Wire<…>`: dates are ISO strings), and the request bodies. See types.ts.
 */

import type { Wire } from "@/server/contracts/api/common";
import type * as UpstreamAuth from "@/server/contracts/api/upstream-auth";
import type { ConnectionAuthKind, UPSTREAM_TOKEN_AUTH_METHODS } from "@/server/contracts/values";

export type { ConnectionAuthKind };
export type UpstreamTokenAuthMethod = (typeof UPSTREAM_TOKEN_AUTH_METHODS)[number];

/** `GET /connections/:id/authorization` (the `authorization` field). */
export type UpstreamAuthorization = Wire<typeof UpstreamAuth.UpstreamAuthorization>;
export type UpstreamAuthorizationResponse = Wire<typeof UpstreamAuth.UpstreamAuthorizationResponse>;
/** The company's grant, or the caller's own; never a token. */
export type UpstreamGrantView = Wire<typeof UpstreamAuth.UpstreamGrantView>;
/** `POST /connections/:id/authorization/connect` */
export type UpstreamConnectStart = Wire<typeof UpstreamAuth.UpstreamConnectStart>;
/** One row of `GET /api/me/linked-accounts`. */
export type LinkedAccount = Wire<typeof UpstreamAuth.LinkedAccount>;
export type LinkedAccountsResponse = Wire<typeof UpstreamAuth.LinkedAccountsResponse>;

/** `PUT /connections/:id/authorization`: the secret and key are write-only. */
export interface SetUpstreamAuthInput {
  kind: ConnectionAuthKind;
  scopes?: string[];
  clientId?: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: UpstreamTokenAuthMethod;
  privateKeyJwk?: Record<string, unknown>;
}

/** What the callback put in the console page's query string (`?upstream_oauth=connected` / `_error=`). */
export type UpstreamOAuthReturn = { status: "connected" } | { status: "error"; code: string } | null;
