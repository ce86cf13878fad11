/**
 * Authorising a connection upstream (docs/upstream-oauth.md): start an authorization (a URL the
 * person's browser follows), complete it at the callback, fetch client-credentials tokens,
 * disconnect. Refresh is in ./bearer.ts. Every request goes through the network guard
 * (./client.ts `oauthFetch`); every token and verifier is stored encrypted (./store.ts).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  type AddClientAuthentication,
  auth,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { and, eq, lt } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { toolUpstreamAuthStates, toolUpstreamGrants } from "@/db/schema";
import type { UpstreamAuthConfig } from "../contracts/api/upstream-auth";
import type { ConnectionAuthKind } from "../contracts/values";
import { isServiceError, ServiceError } from "../errors";
import { logWarn } from "../log";
import type { GuardedFetch } from "../net/guarded-fetch";
import { callbackUrl, FlowProvider, type FlowStart, oauthFetch } from "./client";
import {
  type ClientRow,
  clientInfoOf,
  discoveryOf,
  type GrantRow,
  loadClient,
  loadGrant,
  type StoredClient,
  saveClient,
  saveGrant,
  seal,
  subjectKeyOf,
  tokensOf,
  unseal,
  upstreamStateRef,
} from "./store";

/** An authorization must come back within this (the `state` row's life). */
export const STATE_TTL_MS = 10 * 60_000;

/** The connection as the flows need it. */
export interface OAuthConnection {
  id: string;
  companyId: string;
  url: string;
  authKind: ConnectionAuthKind;
  authConfig: UpstreamAuthConfig;
}

/** Space-separated scopes, each once, in order; undefined when none. */
function unionScopes(...lists: (string | null | undefined)[]): string | undefined {
  const all = new Set(lists.flatMap((l) => (l ?? "").split(" ")).filter(Boolean));
  return all.size > 0 ? [...all].join(" ") : undefined;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const scopeOf = (config: UpstreamAuthConfig) =>
  config.scopes && config.scopes.length > 0 ? config.scopes.join(" ") : undefined;

/**
 * What an SDK failure means to the person who asked: a refusal of the authorization server
 * (its `error` code kept), or metadata that could not be found or used. Messages are the
 * SDK's, cut short: they name URLs and OAuth error codes, never a token.
 */
export function oauthFailure(err: unknown): ServiceError {
  if (isServiceError(err)) return err;
  const message = untrustedText(err instanceof Error ? err.message : String(err));
  if (err instanceof OAuthError) {
    return new ServiceError("upstream_oauth_refused", `the authorization server refused: ${message}`, {
      error: untrustedText(err.errorCode).slice(0, 64),
    });
  }
  if (/S256|PKCE|code challenge|response type/i.test(message))
    return new ServiceError("upstream_oauth_unsupported", message);
  return new ServiceError("upstream_oauth_discovery_failed", message);
}

/**
 * Text an authorization server wrote (an `error_description`, a metadata URL in the SDK's
 * message), shown to the admin who connects: control characters and bidi marks removed, long
 * opaque runs (anything token-shaped) replaced, 300 characters at most.
 */
export function untrustedText(text: string): string {
  return text
    .replace(/[\p{Cc}\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/gu, " ")
    .replace(/[A-Za-z0-9_~+-]{32,}={0,2}/g, "[redacted]")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
}

/**
 * The server's challenge to an unauthenticated request (RFC 9728 §5.1, MCP 2025-11-25
 * "Authorization Server Discovery"): where its protected-resource metadata is, and the scope
 * it asks for. MCP lets a server authorise per operation, and some let `initialize` through
 * without a token and challenge only at the first real request; so when `initialize` is not
 * refused, a `tools/list` (in the session it opened) is asked too, and its 401 is the
 * challenge. A server that answers neither with 401 gives none; discovery then falls back to
 * the well-known paths and the scope to `scopes_supported`.
 */
export async function challengeOf(fetch: GuardedFetch, url: string) {
  const post = async (message: Record<string, unknown>, sessionId?: string | null) => {
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
        ...(sessionId ? { "mcp-session-id": sessionId } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    });
    await res.body?.cancel().catch(() => {});
    return res;
  };
  try {
    const init = await post({
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "paperclip-gateway", version: "1" },
      },
    });
    if (init.status === 401) return extractWWWAuthenticateParams(init as unknown as Response);
    if (!init.ok) return {};
    const list = await post({ id: 2, method: "tools/list", params: {} }, init.headers.get("mcp-session-id"));
    return list.status === 401 ? extractWWWAuthenticateParams(list as unknown as Response) : {};
  } catch (err) {
    if (isServiceError(err) && (err.code === "upstream_blocked" || err.code === "upstream_requires_operator"))
      throw err;
    return {};
  }
}

/** What the rows say about the client: a pre-registered one, or one registered before. */
function storedClient(row: ClientRow | null): StoredClient | undefined {
  return row ? clientInfoOf(row) : undefined;
}

/** Client authentication for private_key_jwt (RFC 7523 §2.2), from the stored key. */
export function clientAuthOf(client: StoredClient | undefined, discovery: FlowStart["discovery"]) {
  if (!client?.private_jwk) return undefined;
  const tokenEndpoint = discovery?.authorizationServerMetadata?.token_endpoint;
  const sign = createPrivateKeyJwtAuth({
    issuer: client.client_id,
    subject: client.client_id,
    privateKey: client.private_jwk,
    alg: typeof client.private_jwk.alg === "string" ? client.private_jwk.alg : "RS256",
    ...(tokenEndpoint ? { audience: tokenEndpoint } : {}),
  });
  // RFC 7521 §4.2 makes `client_id` optional beside an assertion, but servers commonly look the
  // client up by it before reading the assertion (the fixture does): send it, it costs nothing.
  const withClientId: AddClientAuthentication = async (headers, params, url, metadata) => {
    params.set("client_id", client.client_id);
    await sign(headers, params, url, metadata);
  };
  return withClientId;
}

function registrationOf(
  client: StoredClient,
  row: ClientRow | null,
  metadataUrl: string | undefined,
): ClientRow["registration"] {
  if (row?.registration === "pre_registered" && row.clientId === client.client_id) return "pre_registered";
  return metadataUrl && client.client_id === metadataUrl ? "cimd" : "dynamic";
}

/**
 * Starts an authorization for the company (`forUserId` null) or one person: discovery,
 * a client identity, PKCE, and a `state` bound to the person at the browser (`byUserId`), the
 * connection and the verifier. Returns the URL to send the browser to.
 */
export async function beginAuthorization(
  db: Db,
  c: OAuthConnection,
  who: { byUserId: string; forUserId: string | null },
  opts: { returnTo?: string | null; now: Date },
): Promise<{ authorizationUrl: string }> {
  if (c.authKind !== "oauth_company" && c.authKind !== "oauth_user")
    throw new ServiceError("upstream_oauth_not_configured", "the connection does not authorise with OAuth");
  const fetch = await oauthFetch(db);
  try {
    const row = await loadClient(db, c.companyId, c.id);
    const challenge = await challengeOf(fetch, c.url);
    const state = randomBytes(32).toString("base64url");
    // A step-up pending on the grant being replaced: ask for what the server asked for too.
    const previous = await loadGrant(db, c.companyId, c.id, who.forUserId);
    const stepUp = previous?.status === "needs_reauthorization" ? previous.stepUpScope : null;
    const scope = unionScopes(scopeOf(c.authConfig) ?? challenge.scope, stepUp);
    const client = storedClient(row);
    const provider = new FlowProvider({
      redirectUrl: callbackUrl(),
      client,
      state,
      scope,
      addClientAuthentication: clientAuthOf(client, undefined),
    });
    let result: string;
    try {
      result = await auth(provider, {
        serverUrl: c.url,
        scope,
        resourceMetadataUrl: challenge.resourceMetadataUrl,
        fetchFn: fetch,
      });
    } catch (err) {
      throw oauthFailure(err);
    }
    const url = provider.captured.authorizationUrl;
    const verifier = provider.captured.codeVerifier;
    const discovery = provider.captured.discovery;
    const finalClient = (provider.captured.client ?? client) as StoredClient | undefined;
    if (result !== "REDIRECT" || !url || !verifier || !discovery || !finalClient)
      throw new ServiceError("upstream_oauth_discovery_failed", "the authorization could not be started");
    await saveClient(db, c.companyId, c.id, {
      issuer: String(discovery.authorizationServerUrl),
      registration: registrationOf(finalClient, row, provider.clientMetadataUrl),
      client: finalClient,
      discovery,
    });
    const id = randomUUID();
    await db.delete(toolUpstreamAuthStates).where(lt(toolUpstreamAuthStates.expiresAt, opts.now));
    await db.insert(toolUpstreamAuthStates).values({
      id,
      companyId: c.companyId,
      stateHash: sha256(state),
      connectionId: c.id,
      userId: who.byUserId,
      subjectKey: subjectKeyOf(who.forUserId),
      verifierEncrypted: seal({ codeVerifier: verifier }, upstreamStateRef(c.companyId, id)),
      scope: scope ?? null,
      returnTo: opts.returnTo ?? null,
      expiresAt: new Date(opts.now.getTime() + STATE_TTL_MS),
      createdAt: opts.now,
    });
    return { authorizationUrl: url.toString() };
  } finally {
    await fetch.close();
  }
}

const stateInvalid = () =>
  new ServiceError(
    "upstream_oauth_state_invalid",
    "this authorization is unknown, expired or already used, or was started by someone else; start it again",
  );

/**
 * Claims a `state` (single use: the row is deleted by whoever claims it first) for the person
 * at the browser. Unknown, expired, or another person's: refused.
 */
export async function claimState(
  db: Db,
  state: string,
  userId: string,
  now: Date,
  /** Told of a refused claim of a known row (another person's, or expired), for the audit. */
  onRefused?: (
    row: { companyId: string; connectionId: string },
    why: "other_person" | "expired",
  ) => Promise<void>,
) {
  const [row] = await db
    .delete(toolUpstreamAuthStates)
    .where(eq(toolUpstreamAuthStates.stateHash, sha256(state)))
    .returning();
  if (!row) throw stateInvalid();
  if (row.userId !== userId || row.expiresAt <= now) {
    await onRefused?.(row, row.userId !== userId ? "other_person" : "expired");
    throw stateInvalid();
  }
  return row;
}

export type ClaimedState = Awaited<ReturnType<typeof claimState>>;

/**
 * Completes an authorization at the callback: RFC 9207 `iss` checked, the code exchanged
 * (PKCE verifier, `resource`), the grant stored. `connection` is the claimed state's.
 */
export async function completeAuthorization(
  db: Db,
  c: OAuthConnection,
  claimed: ClaimedState,
  answer: { code: string; iss: string | null },
  now: Date,
): Promise<GrantRow> {
  const row = await loadClient(db, c.companyId, c.id);
  const discovery = discoveryOf(row);
  if (!row || !discovery) throw stateInvalid();
  // Looser than the SDK's union type: both metadata kinds may carry these RFC 8414 fields.
  const metadata = discovery.authorizationServerMetadata as
    | (Record<string, unknown> & { issuer?: string })
    | undefined;
  const issuer = String(metadata?.issuer ?? discovery.authorizationServerUrl);
  // RFC 9207 §2.4: an `iss` that differs is refused; a server that promises one must send it.
  if (
    answer.iss !== null
      ? answer.iss !== issuer
      : metadata?.authorization_response_iss_parameter_supported === true
  ) {
    throw new ServiceError(
      "upstream_oauth_issuer_mismatch",
      "the authorization answer came from another issuer than the one the request went to",
    );
  }
  const { codeVerifier } = unseal<{ codeVerifier: string }>(
    claimed.verifierEncrypted,
    upstreamStateRef(claimed.companyId, claimed.id),
  );
  const client = clientInfoOf(row);
  const provider = new FlowProvider({
    redirectUrl: callbackUrl(),
    client,
    discovery,
    codeVerifier,
    scope: claimed.scope ?? undefined,
    addClientAuthentication: clientAuthOf(client, discovery),
  });
  const fetch = await oauthFetch(db);
  try {
    await auth(provider, { serverUrl: c.url, authorizationCode: answer.code, fetchFn: fetch });
  } catch (err) {
    throw oauthFailure(err);
  } finally {
    await fetch.close();
  }
  const tokens = provider.captured.tokens;
  if (!tokens?.access_token)
    throw new ServiceError("upstream_oauth_refused", "the token endpoint sent no access token");
  const forUserId = claimed.subjectKey === "company" ? null : claimed.subjectKey.slice("user:".length);
  return saveGrant(db, {
    companyId: c.companyId,
    connectionId: c.id,
    userId: forUserId,
    tokens,
    issuer: String(discovery.authorizationServerUrl),
    connectedByUserId: claimed.userId,
    now,
  });
}

/**
 * Client credentials (RFC 6749 §4.4): the client's own tokens, no person involved. The
 * pre-registered client (id and secret, or id and private key) comes from the connection's
 * client row.
 */
export async function fetchClientCredentials(
  db: Db | Tx,
  c: OAuthConnection,
  byUserId: string | null,
  now: Date,
): Promise<GrantRow> {
  if (c.authKind !== "client_credentials")
    throw new ServiceError("upstream_oauth_not_configured", "the connection does not use client credentials");
  const row = await loadClient(db, c.companyId, c.id);
  if (!row)
    throw new ServiceError(
      "upstream_authorization_required",
      "the connection has no client id and secret (or key) yet; set them first",
    );
  const client = clientInfoOf(row);
  const scope = scopeOf(c.authConfig);
  const provider = new FlowProvider({
    client,
    discovery: discoveryOf(row),
    scope,
    addClientAuthentication: clientAuthOf(client, discoveryOf(row)),
    prepareTokenRequest: (s?: string) => {
      const params = new URLSearchParams({ grant_type: "client_credentials" });
      if (s ?? scope) params.set("scope", (s ?? scope)!);
      return params;
    },
  });
  const fetch = await oauthFetch(db);
  try {
    await auth(provider, { serverUrl: c.url, scope, fetchFn: fetch });
  } catch (err) {
    throw oauthFailure(err);
  } finally {
    await fetch.close();
  }
  const tokens = provider.captured.tokens;
  const discovery = provider.captured.discovery ?? discoveryOf(row);
  if (!tokens?.access_token || !discovery)
    throw new ServiceError("upstream_oauth_refused", "the token endpoint sent no access token");
  if (provider.captured.discovery) {
    await saveClient(db, c.companyId, c.id, {
      issuer: String(discovery.authorizationServerUrl),
      registration: "pre_registered",
      client: { ...client, ...(provider.captured.client ?? {}) } as StoredClient,
      discovery,
    });
  }
  return saveGrant(db, {
    companyId: c.companyId,
    connectionId: c.id,
    userId: null,
    tokens,
    issuer: String(discovery.authorizationServerUrl),
    connectedByUserId: byUserId,
    now,
  });
}

/**
 * Revokes (RFC 7009) and deletes a grant. The revocation is best effort — a server without a
 * revocation endpoint, or one that fails, leaves only its own copy — and the grant is deleted
 * either way. Returns whether a grant existed and whether the server confirmed the revocation.
 */
export async function disconnectGrant(
  db: Db,
  c: { id: string; companyId: string },
  userId: string | null,
): Promise<{ existed: boolean; revoked: boolean }> {
  const grant = await loadGrant(db, c.companyId, c.id, userId);
  if (!grant) return { existed: false, revoked: false };
  let revoked = false;
  const row = await loadClient(db, c.companyId, c.id);
  const metadata = discoveryOf(row)?.authorizationServerMetadata as Record<string, unknown> | undefined;
  const endpoint = typeof metadata?.revocation_endpoint === "string" ? metadata.revocation_endpoint : null;
  if (row && endpoint) {
    const fetch = await oauthFetch(db);
    try {
      const tokens = tokensOf(grant);
      revoked = await revoke(fetch, endpoint, clientInfoOf(row), tokens);
    } catch (err) {
      logWarn("upstream_oauth.revoke_failed", {
        connectionId: c.id,
        code: isServiceError(err) ? err.code : undefined,
      });
    } finally {
      await fetch.close();
    }
  }
  await db.delete(toolUpstreamGrants).where(and(eq(toolUpstreamGrants.id, grant.id)));
  return { existed: true, revoked };
}

async function revoke(fetch: GuardedFetch, endpoint: string, client: StoredClient, tokens: OAuthTokens) {
  let ok = true;
  for (const [token, hint] of [
    [tokens.refresh_token, "refresh_token"],
    [tokens.access_token, "access_token"],
  ] as const) {
    if (!token) continue;
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (client.client_secret) {
      headers.authorization = `Basic ${Buffer.from(
        `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`,
      ).toString("base64")}`;
    } else {
      body.set("client_id", client.client_id);
    }
    const res = await fetch(endpoint, { method: "POST", headers, body: body.toString(), redirect: "manual" });
    await res.body?.cancel().catch(() => {});
    ok &&= res.status === 200;
  }
  return ok;
}
