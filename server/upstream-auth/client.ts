/**
 * The gateway's side of MCP authorization (2025-11-25, with the 2025-06-18 and 2025-03-26
 * fallbacks) is the MCP SDK's own client (`@modelcontextprotocol/sdk/client/auth`): RFC 9728
 * protected-resource discovery (the challenge's URL, then the well-known paths), RFC 8414 and
 * OpenID discovery with their path variants, Client ID Metadata Documents, RFC 7591
 * registration, PKCE S256, RFC 8707 `resource`, the SEP-835 scope order and the token endpoint
 * authentication methods. It is the reference client the conformance suite is written against;
 * what is ours is only where its state lives (encrypted rows, ./store.ts) and what it may
 * reach (every request goes through the network guard).
 *
 * `FlowProvider` is the SDK's `OAuthClientProvider` for one flow: it starts from what the rows
 * hold and captures what the SDK produces, which the caller then stores. It also adds two
 * checks the SDK leaves to its caller: the authorization server's metadata must name the
 * issuer it was fetched for (RFC 8414 §3.3), and the redirect goes only to where the admin
 * pointed the connection's users.
 */
import type {
  AddClientAuthentication,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Db, Tx } from "@/db/client";
import { publicOrigin } from "../config/proxy";
import { ServiceError } from "../errors";
import { privateUpstreamGrants } from "../instance/private-upstreams";
import { createGuardedFetch, type GuardedFetch } from "../net/guarded-fetch";
import { allowPrivateBy } from "../net/private-upstreams";
import type { StoredClient } from "./store";

/** Where authorization servers send the browser back. */
export const callbackUrl = (): string => `${publicOrigin()}/api/upstream-oauth/callback`;

/**
 * The gateway's Client ID Metadata Document URL. Only an https origin can be a client id
 * (draft-ietf-oauth-client-id-metadata-document: https with a path); on plain http the gateway
 * registers dynamically instead.
 */
export function clientMetadataUrl(): string | undefined {
  // An operator may host the document elsewhere (it must list this instance's callback).
  const url =
    process.env.PAPERCLIP_OAUTH_CLIENT_METADATA_URL?.trim() ||
    `${publicOrigin()}/api/upstream-oauth/client-metadata.json`;
  return url.startsWith("https://") ? url : undefined;
}

/** The document served at `clientMetadataUrl()` (and sent in a dynamic registration). */
export function gatewayClientMetadata(scope?: string): OAuthClientMetadata {
  return {
    client_name: "Paperclip Tools & Access",
    client_uri: publicOrigin(),
    redirect_uris: [callbackUrl()],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(scope ? { scope } : {}),
  };
}

/** Discovery, registration, token and revocation requests: small answers, no slow servers. */
const OAUTH_TIMEOUT_MS = 10_000;
const OAUTH_MAX_BYTES = 256 * 1024;

/**
 * A guarded fetch for OAuth requests: the instance's private-upstream list decides which
 * loopback/private origins may be reached (each redirect hop checked again), metadata and
 * link-local addresses never. Close it after the flow.
 */
export async function oauthFetch(db: Db | Tx): Promise<GuardedFetch> {
  const grants = await privateUpstreamGrants(db);
  return createGuardedFetch({
    allowPrivate: allowPrivateBy(grants),
    timeoutMs: OAUTH_TIMEOUT_MS,
    maxResponseBytes: OAUTH_MAX_BYTES,
    maxRedirects: 3,
  });
}

const trimSlash = (s: string) => s.replace(/\/+$/, "");

/** RFC 8414 §3.3: the metadata's issuer is the identifier it was looked up for. */
export function assertIssuer(state: OAuthDiscoveryState): void {
  const metadata = state.authorizationServerMetadata;
  if (!metadata) return; // 2025-03-26 fallback: no metadata, default endpoints
  if (trimSlash(String(metadata.issuer ?? "")) !== trimSlash(String(state.authorizationServerUrl))) {
    throw new ServiceError(
      "upstream_oauth_issuer_mismatch",
      "the authorization server's metadata names another issuer than the one it was fetched for",
      { expected: String(state.authorizationServerUrl).slice(0, 300) },
    );
  }
}

export interface FlowStart {
  /** Interactive flows: where the browser comes back. Absent: client credentials. */
  redirectUrl?: string;
  client?: StoredClient;
  discovery?: OAuthDiscoveryState;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  state?: string;
  scope?: string;
  addClientAuthentication?: AddClientAuthentication;
  /** client_credentials: the token request's body. */
  prepareTokenRequest?: (scope?: string) => URLSearchParams;
}

/** One flow's provider: reads `start`, captures what the SDK saves. */
export class FlowProvider implements OAuthClientProvider {
  readonly captured: {
    client?: StoredClient;
    discovery?: OAuthDiscoveryState;
    tokens?: OAuthTokens;
    codeVerifier?: string;
    authorizationUrl?: URL;
  } = {};
  readonly clientMetadataUrl: string | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;
  readonly prepareTokenRequest?: (scope?: string) => URLSearchParams;

  constructor(private readonly start: FlowStart) {
    this.clientMetadataUrl = start.redirectUrl ? clientMetadataUrl() : undefined;
    this.addClientAuthentication = start.addClientAuthentication;
    this.prepareTokenRequest = start.prepareTokenRequest;
  }

  get redirectUrl(): string | undefined {
    return this.start.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const metadata = gatewayClientMetadata(this.start.scope);
    // A confidential client when the server takes no public ones (RFC 7591 §2: the server
    // then issues a secret for the method registered).
    const methods = this.discoveryNow()?.authorizationServerMetadata?.token_endpoint_auth_methods_supported;
    if (methods && !methods.includes("none")) {
      metadata.token_endpoint_auth_method = methods.includes("client_secret_basic")
        ? "client_secret_basic"
        : "client_secret_post";
    }
    return metadata;
  }

  state(): string {
    return this.start.state ?? "";
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.captured.client ?? this.start.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.captured.client = { ...(this.start.client ?? {}), ...info } as StoredClient;
  }

  tokens(): OAuthTokens | undefined {
    return this.captured.tokens ?? this.start.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.captured.tokens = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.captured.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.captured.codeVerifier = verifier;
  }

  codeVerifier(): string {
    if (!this.start.codeVerifier) throw new Error("no PKCE verifier for this flow");
    return this.start.codeVerifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    assertIssuer(state);
    this.captured.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discoveryNow();
  }

  private discoveryNow(): OAuthDiscoveryState | undefined {
    return this.captured.discovery ?? this.start.discovery;
  }
}
