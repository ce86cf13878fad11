/**
 * The CLI's OAuth client against one Paperclip endpoint: RFC 9728 → RFC 8414 discovery,
 * RFC 7591 registration, the RFC 8628 device grant, refresh (OAuth 2.1 §4.3) and RFC 7009
 * revocation.
 *
 * Written with `fetch` by hand rather than with oauth4webapi: that package is only a
 * devDependency here (a production install omits it) and the CLI may not add dependencies.
 * What oauth4webapi would check is checked here: metadata `resource`/`issuer` must equal
 * what was asked for (RFC 9728 §3.3, RFC 8414 §3.3), HTTPS everywhere except loopback,
 * redirects are refused (`redirect: "manual"`), token responses must be Bearer with a token.
 *
 * INVARIANT: no token, device code or refresh token appears in a thrown message; server
 * error descriptions are truncated and scrubbed of token shapes before they are shown.
 */
import { canonicalEndpoint, type StoredCredentials } from "./mcp-store";

/** A failure with the process exit code it maps to (docs/public-mcp.md, "CLI"). */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** No stored login, or it can no longer be refreshed: log in again. */
  notLoggedIn: 3,
  /** The person declined on the approval page. */
  denied: 4,
  /** The device code expired before anyone approved it. */
  expired: 5,
} as const;

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const TIMEOUT_MS = 30_000;
/** `pcoa_…`, `pcor_…`, `pcod_…` and any long opaque run: never echoed from a server message. */
const TOKENISH = /\b[A-Za-z0-9_-]{24,}\b/g;

export function scrub(text: string): string {
  return text.replace(TOKENISH, "[redacted]").slice(0, 300);
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** HTTPS, or HTTP on a loopback host (a local development server); anything else is refused. */
export function requireSecureUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliFailure(`${what} \`${scrub(value)}\` is not an absolute URL`, EXIT.failure);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (LOOPBACK.has(url.hostname) || url.hostname.endsWith(".localhost")))
    return url;
  throw new CliFailure(`${what} must use https (http only on localhost): \`${url.origin}\``, EXIT.failure);
}

/** `fetch` that refuses redirects and bounds the time; network errors become CliFailures. */
export async function guardedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  requireSecureUrl(url, "the URL");
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      redirect: "manual",
      signal: init.signal ?? AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new CliFailure(
      `cannot reach ${new URL(url).origin}: ${scrub((err as Error).message)}`,
      EXIT.failure,
    );
  }
  if (response.status >= 300 && response.status < 400)
    throw new CliFailure(
      `${new URL(url).origin} answered with a redirect; redirects are refused`,
      EXIT.failure,
    );
  return response;
}

async function readJson(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new CliFailure(
    `${what}: the server did not answer with a JSON object (HTTP ${response.status})`,
    EXIT.failure,
  );
}

/** An OAuth error response (RFC 6749 §5.2): its `error` code and a safe description. */
export interface OAuthErrorBody {
  error: string;
  description: string;
}

function oauthError(body: Record<string, unknown>, status: number): OAuthErrorBody {
  const error = typeof body.error === "string" ? body.error.slice(0, 64) : `http_${status}`;
  const description = typeof body.error_description === "string" ? scrub(body.error_description) : "";
  return { error, description };
}

const explain = (e: OAuthErrorBody) => (e.description ? `${e.error}: ${e.description}` : e.error);

export interface ServerMetadata {
  resource: string;
  issuer: string;
  scopes: string[];
  tokenEndpoint: string;
  deviceAuthorizationEndpoint: string;
  registrationEndpoint: string | null;
  revocationEndpoint: string | null;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/** RFC 8414 §3 / RFC 9728 §3.1: the well-known path is inserted between origin and path. */
function wellKnown(base: URL, suffix: string): string {
  const pathname = base.pathname === "/" ? "" : base.pathname.replace(/\/+$/, "");
  return `${base.origin}/.well-known/${suffix}${pathname}`;
}

/** Discovers the resource's metadata, then its authorization server's; both must name themselves exactly. */
export async function discover(endpoint: string): Promise<ServerMetadata> {
  const resource = canonicalEndpoint(endpoint);
  if (!resource) throw new CliFailure(`\`${scrub(endpoint)}\` is not an http(s) endpoint URL`, EXIT.usage);
  const resourceUrl = requireSecureUrl(resource, "the endpoint");
  const prm = await guardedFetch(wellKnown(resourceUrl, "oauth-protected-resource"), {
    headers: { accept: "application/json" },
  });
  if (!prm.ok)
    throw new CliFailure(
      `${resource} publishes no protected-resource metadata (HTTP ${prm.status}); is this a Paperclip MCP endpoint with assistant connections turned on?`,
      EXIT.failure,
    );
  const rm = await readJson(prm, "protected-resource metadata");
  if (canonicalEndpoint(String(rm.resource ?? "")) !== resource)
    throw new CliFailure(`the metadata names another resource than ${resource}; refusing it`, EXIT.failure);
  const servers = Array.isArray(rm.authorization_servers) ? rm.authorization_servers : [];
  const issuer = str(servers[0]);
  if (!issuer) throw new CliFailure("the resource names no authorization server", EXIT.failure);
  const issuerUrl = requireSecureUrl(issuer, "the authorization server");
  const asr = await guardedFetch(wellKnown(issuerUrl, "oauth-authorization-server"), {
    headers: { accept: "application/json" },
  });
  if (!asr.ok)
    throw new CliFailure(
      `no authorization-server metadata at ${issuerUrl.origin} (HTTP ${asr.status})`,
      EXIT.failure,
    );
  const am = await readJson(asr, "authorization-server metadata");
  if (am.issuer !== issuer)
    throw new CliFailure("the authorization server's metadata names another issuer", EXIT.failure);
  const tokenEndpoint = str(am.token_endpoint);
  const deviceAuthorizationEndpoint = str(am.device_authorization_endpoint);
  if (!tokenEndpoint || !deviceAuthorizationEndpoint)
    throw new CliFailure(
      "this server does not offer device login (no device_authorization_endpoint)",
      EXIT.failure,
    );
  const endpoints = [
    tokenEndpoint,
    deviceAuthorizationEndpoint,
    str(am.registration_endpoint),
    str(am.revocation_endpoint),
  ];
  for (const e of endpoints) if (e) requireSecureUrl(e, "an authorization-server endpoint");
  return {
    resource,
    issuer,
    scopes: Array.isArray(rm.scopes_supported)
      ? rm.scopes_supported.filter((s): s is string => typeof s === "string")
      : [],
    tokenEndpoint,
    deviceAuthorizationEndpoint,
    registrationEndpoint: str(am.registration_endpoint),
    revocationEndpoint: str(am.revocation_endpoint),
  };
}

/** RFC 7591: a public native client for the device and refresh grants. */
export async function registerClient(meta: ServerMetadata, scope: string): Promise<string> {
  if (!meta.registrationEndpoint)
    throw new CliFailure("this server offers no client registration", EXIT.failure);
  const response = await guardedFetch(meta.registrationEndpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      client_name: "Paperclip CLI (paperclipai mcp)",
      application_type: "native",
      grant_types: [DEVICE_GRANT, "refresh_token"],
      redirect_uris: [],
      token_endpoint_auth_method: "none",
      scope,
    }),
  });
  const body = await readJson(response, "client registration");
  if (response.status !== 201 && response.status !== 200)
    throw new CliFailure(
      `client registration refused: ${explain(oauthError(body, response.status))}`,
      EXIT.failure,
    );
  const clientId = str(body.client_id);
  if (!clientId) throw new CliFailure("client registration returned no client_id", EXIT.failure);
  return clientId;
}

const form = (fields: Record<string, string | null | undefined>) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v != null) params.set(k, v);
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: params.toString(),
  };
};

export interface DeviceStart {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string | null;
  expiresIn: number;
  interval: number;
}

/** RFC 8628 §3.1–3.2. `null` when the client is unknown (collected or from another server): register again. */
export async function startDeviceAuthorization(
  meta: ServerMetadata,
  clientId: string,
  scope: string,
  companyId: string | undefined,
): Promise<DeviceStart | null> {
  const response = await guardedFetch(
    meta.deviceAuthorizationEndpoint,
    form({ client_id: clientId, scope, resource: meta.resource, company_id: companyId }),
  );
  const body = await readJson(response, "device authorization");
  if (!response.ok) {
    const e = oauthError(body, response.status);
    if (e.error === "invalid_client" || e.error === "unauthorized_client") return null;
    throw new CliFailure(`device login refused: ${explain(e)}`, EXIT.failure);
  }
  const deviceCode = str(body.device_code);
  const userCode = str(body.user_code);
  const verificationUri = str(body.verification_uri);
  if (!deviceCode || !userCode || !verificationUri)
    throw new CliFailure("the device authorization response is incomplete", EXIT.failure);
  requireSecureUrl(verificationUri, "the verification URL");
  const complete = str(body.verification_uri_complete);
  return {
    deviceCode,
    userCode,
    verificationUri,
    verificationUriComplete: complete,
    expiresIn: typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 600,
    // RFC 8628 §3.2: 5 seconds when the server does not say.
    interval: typeof body.interval === "number" && body.interval > 0 ? body.interval : 5,
  };
}

export type Tokens = NonNullable<StoredCredentials["tokens"]>;

function tokensFrom(body: Record<string, unknown>, previousScope: string, now: number): Tokens {
  const accessToken = str(body.access_token);
  if (!accessToken || String(body.token_type ?? "").toLowerCase() !== "bearer")
    throw new CliFailure("the token response carries no Bearer access token", EXIT.failure);
  const expiresIn = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 300;
  return {
    accessToken,
    refreshToken: str(body.refresh_token),
    expiresAt: now + expiresIn * 1000,
    scope: str(body.scope) ?? previousScope,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * RFC 8628 §3.4–3.5: polls every `interval` seconds; `authorization_pending` keeps polling,
 * `slow_down` adds 5 seconds for this and every later poll, `access_denied` and
 * `expired_token` end with their exit codes.
 */
export async function pollDeviceToken(
  meta: ServerMetadata,
  clientId: string,
  start: DeviceStart,
  scope: string,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<Tokens> {
  let interval = start.interval;
  const deadline = Date.now() + start.expiresIn * 1000;
  for (;;) {
    await wait(interval * 1000);
    if (Date.now() > deadline)
      throw new CliFailure("the code expired before it was approved; run login again", EXIT.expired);
    const response = await guardedFetch(
      meta.tokenEndpoint,
      form({ grant_type: DEVICE_GRANT, device_code: start.deviceCode, client_id: clientId }),
    );
    const body = await readJson(response, "token");
    if (response.ok) return tokensFrom(body, scope, Date.now());
    const e = oauthError(body, response.status);
    switch (e.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        interval += 5;
        continue;
      case "access_denied":
        throw new CliFailure("the request was declined on the approval page", EXIT.denied);
      case "expired_token":
        throw new CliFailure("the code expired before it was approved; run login again", EXIT.expired);
      default:
        throw new CliFailure(`device login failed: ${explain(e)}`, EXIT.failure);
    }
  }
}

/**
 * One refresh (OAuth 2.1 §4.3, the token rotates). The caller holds the credential lock:
 * presenting the same refresh token twice would revoke the whole connection.
 */
export async function refreshTokens(stored: StoredCredentials): Promise<Tokens> {
  const current = stored.tokens;
  if (!current?.refreshToken)
    throw new CliFailure(
      "the stored login has no refresh token; run `paperclipai mcp login --device` again",
      EXIT.notLoggedIn,
    );
  const response = await guardedFetch(
    stored.tokenEndpoint,
    form({
      grant_type: "refresh_token",
      refresh_token: current.refreshToken,
      client_id: stored.clientId,
      resource: stored.resource,
    }),
  );
  const body = await readJson(response, "token refresh");
  if (!response.ok) {
    const e = oauthError(body, response.status);
    throw new CliFailure(
      e.error === "invalid_grant"
        ? `the connection can no longer be refreshed (${explain(e)}); run \`paperclipai mcp login --device --url ${stored.resource}\` again`
        : `token refresh failed: ${explain(e)}`,
      e.error === "invalid_grant" ? EXIT.notLoggedIn : EXIT.failure,
    );
  }
  const next = tokensFrom(body, current.scope, Date.now());
  // A server that does not rotate keeps the old refresh token valid.
  return { ...next, refreshToken: next.refreshToken ?? current.refreshToken };
}

/** RFC 7009: revokes one token; the server answers 200 for unknown tokens too. */
export async function revokeToken(
  stored: StoredCredentials,
  token: string,
  hint: "access_token" | "refresh_token",
) {
  if (!stored.revocationEndpoint)
    throw new CliFailure("this server offers no revocation endpoint", EXIT.failure);
  const response = await guardedFetch(
    stored.revocationEndpoint,
    form({ token, token_type_hint: hint, client_id: stored.clientId }),
  );
  if (!response.ok) {
    const e = oauthError(await readJson(response, "revocation").catch(() => ({})), response.status);
    throw new CliFailure(`revocation failed: ${explain(e)}`, EXIT.failure);
  }
}
