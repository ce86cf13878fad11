// Upstream authorization of a remote connection (issue 36, docs/upstream-oauth.md): the
// non-secret settings stored on the connection, and the status the console and API show.
import { z } from "zod";
import { CONNECTION_AUTH_KINDS, UPSTREAM_GRANT_STATUSES, UPSTREAM_TOKEN_AUTH_METHODS } from "../values";
import { NullableDate } from "./common";

/** `tool_connections.auth_config`: what an admin chose; secrets (a client secret, a key) are not here. */
export const UpstreamAuthConfig = z.looseObject({
  /** Scopes to ask for; empty or absent: the server's challenge, then its `scopes_supported`. */
  scopes: z.array(z.string()).optional(),
  /** A pre-registered client id (its secret or key is stored encrypted with the client). */
  clientId: z.string().optional(),
  tokenEndpointAuthMethod: z.enum(UPSTREAM_TOKEN_AUTH_METHODS).optional(),
});
export type UpstreamAuthConfig = z.infer<typeof UpstreamAuthConfig>;

/** One grant (the company's, or one person's) as shown: never a token. */
export const UpstreamGrantView = z.object({
  status: z.enum(UPSTREAM_GRANT_STATUSES),
  /** Who the upstream says the grant acts as (its `sub` or user name), when it says. */
  connectedAs: z.string().nullable(),
  scopes: z.array(z.string()),
  expiresAt: NullableDate,
  refreshedAt: NullableDate,
  connectedAt: NullableDate,
  /** Why a grant needs a person again (e.g. the refresh was refused). */
  lastError: z.string().nullable(),
});

/** `GET /connections/:id/authorization` and the answer of every authorization verb. */
export const UpstreamAuthorization = z.object({
  kind: z.enum(CONNECTION_AUTH_KINDS),
  /** `not_connected` until a grant exists (for `oauth_user`: the caller's own grant). */
  status: z.enum(["not_connected", ...UPSTREAM_GRANT_STATUSES]),
  issuer: z.string().nullable(),
  /** `pre_registered`, `cimd`, `dynamic`, or null before the first connect. */
  registration: z.string().nullable(),
  clientId: z.string().nullable(),
  /** Whether a client secret or private key is stored (never the value). */
  hasClientCredential: z.boolean(),
  config: UpstreamAuthConfig,
  /** The company grant (`oauth_company`, `client_credentials`), or the caller's own (`oauth_user`). */
  grant: UpstreamGrantView.nullable(),
  /** `oauth_user`: how many people have linked their account. */
  linkedPeople: z.number(),
});
export const UpstreamAuthorizationResponse = z.object({ authorization: UpstreamAuthorization });

/** `POST /connections/:id/authorization/connect` (and a person's link): where to send the browser. */
export const UpstreamConnectStart = z.object({
  authorizationUrl: z.string().nullable(),
  authorization: UpstreamAuthorization,
});

/** One row of `GET /api/me/linked-accounts`. */
export const LinkedAccount = z.object({
  companyId: z.string(),
  connectionId: z.string(),
  connectionName: z.string(),
  applicationName: z.string(),
  grant: UpstreamGrantView.nullable(),
});
export const LinkedAccountsResponse = z.object({ accounts: z.array(LinkedAccount) });
