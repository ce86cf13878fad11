/**
 * The public MCP connection's authorization server against PostgreSQL, served on a real
 * loopback HTTP server and driven by real clients: the MCP SDK's OAuthClientProvider +
 * StreamableHTTPClientTransport and oauth4webapi as a strict OAuth 2.1 client.
 * (issue 18; docs/public-mcp-requirements.md maps each rule to a test here)
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { and, eq, sql } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as wkServer from "@/app/.well-known/oauth-authorization-server/route";
import * as wkResource from "@/app/.well-known/oauth-protected-resource/mcp/paperclip/route";
import * as companiesRoute from "@/app/api/companies/route";
import * as setupRoute from "@/app/api/mcp/setup/route";
import * as consentRoute from "@/app/api/mcp-connect/[requestId]/route";
import * as deviceRoute from "@/app/api/mcp-device/route";
import * as connectionRevokeRoute from "@/app/api/me/assistant-connections/[grantId]/revoke/route";
import * as connectionsRoute from "@/app/api/me/assistant-connections/route";
import * as mcpGatewayRoute from "@/app/api/tool-gateway/mcp/route";
import * as authorizeRoute from "@/app/mcp/oauth/authorize/route";
import * as deviceAuthRoute from "@/app/mcp/oauth/device_authorization/route";
import * as registerRoute from "@/app/mcp/oauth/register/route";
import * as revokeRoute from "@/app/mcp/oauth/revoke/route";
import * as tokenRoute from "@/app/mcp/oauth/token/route";
import * as setupMdRoute from "@/app/mcp/setup.md/route";
import { activityLog, companyMemberships, oauthClients, oauthGrants } from "@/db/schema";
import type { MembershipRole } from "@/server/contracts/values";
import type { DemoCredentials } from "@/server/core/seed";
import { setRouteClock } from "@/server/http/route";
import { CIMD_FETCH_FAILED } from "@/server/oauth/cimd";
import { deviceAttemptKeys } from "@/server/oauth/device-attempts";
import { sourceHash } from "@/server/oauth/quota";
import { call, sessionCookie } from "@/server/testing/api";
import { addMember, publicMcpRoute, secondCompanyOf, setPublicMcpEnabled } from "@/server/testing/public-mcp";
import { serveRoutes } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld, ownerSession, type TestDatabase } from "@/server/testing/world";

let database: TestDatabase;
let demo: DemoCredentials;
let server: { origin: string; close: () => Promise<void> };
let ownerId: string;
let ownerCookie: string;
let viewerId: string;
let viewerCookie: string;
let otherCompanyId: string;
let clock = Date.now();
/** The second server process (scripts/oauth-server-worker.ts) on the same database. */
let replica: { child: ChildProcess; origin: string };
/** Alternates requests between the two processes. */
const across = (i: number, pathname: string) =>
  new URL(pathname, i % 2 === 0 ? server.origin : replica.origin);
const REDIRECT = "http://127.0.0.1:33418/callback";

type Handler = (r: Request) => Promise<Response>;

/** A loopback HTTPS server (port 3219) with a throwaway self-signed certificate, serving CIMD documents. */
let cimd!: { server: HttpsServer; certFile: string; origin: string; hits: number };
const CIMD_PORT = 3219;
/** A 1×1 PNG as a data: URL (a CIMD document's inline logo). */
const PIXEL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
async function startCimdFixture() {
  const dir = mkdtempSync(path.join(tmpdir(), "pc-cimd-"));
  const key = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
    ],
    { stdio: "ignore" },
  );
  const origin = `https://localhost:${CIMD_PORT}`;
  const doc = (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      client_id: id,
      client_name: "CIMD Client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token", "client_credentials"],
      token_endpoint_auth_method: "none",
      ...extra,
    });
  const state = { hits: 0 };
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(certFile) }, (req, res) => {
    state.hits++;
    const url = `${origin}${req.url}`;
    if (req.url === "/ok.json") res.writeHead(200, { "content-type": "application/json" }).end(doc(url));
    else if (req.url === "/logo.json") res.writeHead(200).end(doc(url, { logo_uri: PIXEL }));
    else if (req.url === "/logo-remote.json")
      res.writeHead(200).end(doc(url, { logo_uri: `${origin}/icon.png` }));
    else if (req.url === "/mismatch.json") res.writeHead(200).end(doc(`${origin}/other.json`));
    else if (req.url === "/redirect.json") res.writeHead(302, { location: `${origin}/ok.json` }).end();
    else if (req.url === "/big.json") res.writeHead(200).end(doc(url, { padding: "x".repeat(40 * 1024) }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(CIMD_PORT, "127.0.0.1", r));
  return Object.defineProperty({ server, certFile, origin, hits: 0 }, "hits", { get: () => state.hits });
}
const routes = (): Record<string, Handler> => ({
  "/.well-known/oauth-protected-resource/mcp/paperclip": wkResource.GET as Handler,
  "/.well-known/oauth-authorization-server": wkServer.GET as Handler,
  "/mcp/oauth/register": registerRoute.POST as Handler,
  "/mcp/oauth/authorize": authorizeRoute.GET as Handler,
  "/mcp/oauth/token": tokenRoute.POST as Handler,
  "/mcp/oauth/revoke": revokeRoute.POST as Handler,
  "/mcp/oauth/device_authorization": deviceAuthRoute.POST as Handler,
  "/mcp/paperclip": publicMcpRoute as Handler,
});

const setEnabled = (on: boolean) => setPublicMcpEnabled(database.db, on);

const addUser = (email: string, name: string, companyId: string, role: MembershipRole) =>
  addMember(database.db, companyId, { email, name, role });

/** Everything this process logs, checked for token values by the canary test. */
const logged: string[] = [];

beforeAll(async () => {
  for (const level of ["log", "warn", "error", "info"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
      original(...args);
    };
  }
  ({ database, demo } = await demoWorld());
  setRouteClock(() => new Date(clock));
  ({ id: ownerId, cookie: ownerCookie } = await ownerSession(database.db, demo));
  viewerId = await addUser("viewer@acme.example", "Vera Viewer", demo.companyId, "viewer");
  viewerCookie = await sessionCookie(database.db, viewerId, "viewer@acme.example");
  otherCompanyId = await secondCompanyOf(database.db, ownerId);
  server = await serveRoutes(routes() as never);
  process.env.PAPERCLIP_PUBLIC_URL = server.origin;
  await setEnabled(true);
  cimd = await startCimdFixture();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(process.cwd(), "scripts", "oauth-server-worker.ts")],
    {
      // The replica believes X-Forwarded-For like this process does in the quota test, and
      // trusts the CIMD fixture's test certificate (only there: that process's NODE_EXTRA_CA_CERTS).
      env: {
        ...process.env,
        WORKER_DATABASE_URL: database.url,
        TRUST_PROXY: "1",
        NODE_EXTRA_CA_CERTS: cimd.certFile,
        WORKER_CIMD_FIXTURE_HOST: "localhost",
      },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n")[0];
      if (out.includes("\n")) resolve((JSON.parse(line!) as { origin: string }).origin);
    });
    child.on("exit", (code) => reject(new Error(`replica exited ${code}`)));
  });
  replica = { child, origin };
}, 60_000);

afterAll(async () => {
  setRouteClock(null);
  delete process.env.PAPERCLIP_PUBLIC_URL;
  delete process.env.TRUST_PROXY;
  replica?.child.stdin?.end();
  await new Promise((r) => replica?.child.once("exit", r) ?? r(null));
  await server?.close();
  await new Promise((r) => (cimd ? cimd.server.close(r) : r(null)));
  await closeDemoWorld(database);
});

beforeEach(async () => {
  // Every test starts from a fresh quota window (the receipts are the only state shared) and
  // from the real time: the replica process runs on the real clock.
  clock = Date.now();
  await database.db.execute(sql`delete from oauth_admissions`);
});

/** What a signed-in browser does on the consent page: load it, then press Connect (or Cancel). */
async function consent(
  authorizationUrl: URL | string,
  opts: { cookie?: string; companyId?: string; write?: boolean; approve?: boolean } = {},
): Promise<URL> {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  if (!location.pathname.startsWith("/mcp-connect/")) return location;
  const requestId = location.pathname.split("/").pop()!;
  const cookie = opts.cookie ?? ownerCookie;
  const view = await call<{ organizations: { id: string; available: boolean }[] }>(
    consentRoute.GET,
    "GET",
    "/",
    {
      cookie,
      params: { requestId },
    },
  );
  expect(view.status).toBe(200);
  const decided = await call<{ redirectTo: string; error?: { code: string } }>(
    consentRoute.POST,
    "POST",
    "/",
    {
      cookie,
      params: { requestId },
      body: {
        approve: opts.approve ?? true,
        companyId: opts.companyId ?? view.json.organizations[0]!.id,
        write: opts.write ?? true,
      },
    },
  );
  if (decided.status !== 200) throw Object.assign(new Error(`consent ${decided.status}`), { res: decided });
  return new URL(decided.json.redirectTo);
}

/** An authorization URL with fresh PKCE, read-only scope and the given overrides. */
async function authorizeUrl(
  clientId: string,
  patch: Record<string, string> = {},
  origin = server.origin,
): Promise<URL> {
  return new URL(
    `/mcp/oauth/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: "S256",
      scope: "paperclip:read",
      ...patch,
    })}`,
    origin,
  );
}

class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  lastAuthorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK Test Client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.lastAuthorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function sdkConnect(provider: TestProvider) {
  const url = new URL("/mcp/paperclip", server.origin);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: "t", version: "1" }).connect(first)).rejects.toThrow(/Unauthorized/i);
  const back = await consent(provider.lastAuthorizationUrl!);
  expect(back.searchParams.get("iss")).toBe(server.origin);
  await first.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

describe("the MCP SDK client", () => {
  it("discovers, registers, is sent to consent, calls paperclip_connection and refreshes after expiry", async () => {
    const provider = new TestProvider();
    const client = await sdkConnect(provider);
    expect(provider.lastAuthorizationUrl!.searchParams.get("resource")).toBe(
      `${server.origin}/mcp/paperclip`,
    );
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["paperclip_connection", "paperclip_search_api", "paperclip_call_api"]),
    );
    const result = await client.callTool({ name: "paperclip_connection", arguments: {} });
    const info = result.structuredContent as {
      person: { id: string };
      company: { id: string };
      scopes: string[];
    };
    expect(info.person.id).toBe(ownerId);
    expect([demo.companyId, otherCompanyId]).toContain(info.company.id);
    expect(info.scopes).toEqual(expect.arrayContaining(["paperclip:read", "paperclip:write"]));
    // An unknown tool is a JSON-RPC -32602 error, as on the agent gateway.
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    const firstAccess = provider.saved!.access_token;
    expect(provider.saved!.refresh_token).toMatch(/^pcor_/);
    clock += 16 * 60_000; // the access token (15 min) has expired
    await client.callTool({ name: "paperclip_connection", arguments: {} });
    expect(provider.saved!.access_token).not.toBe(firstAccess);
    await client.close();
  });
});

async function strictClient(extra: Partial<oauth.Client> = {}) {
  const issuer = new URL(server.origin);
  const opts = { [oauth.allowInsecureRequests]: true, algorithm: "oauth2" as const };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, opts));
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        redirect_uris: [REDIRECT],
        client_name: "Strict Client",
        grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
        token_endpoint_auth_method: "none",
        ...extra,
      },
      { [oauth.allowInsecureRequests]: true },
    ),
  );
  return { as, client: registered as oauth.Client, insecure: { [oauth.allowInsecureRequests]: true } };
}

async function strictAuthorize(
  s: Awaited<ReturnType<typeof strictClient>>,
  params: Record<string, string> = {},
  consentOpts: Parameters<typeof consent>[1] = {},
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(s.as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: s.client.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    scope: "paperclip:read paperclip:write offline_access",
    resource: `${server.origin}/mcp/paperclip`,
    state,
    ...params,
  }).toString();
  const back = await consent(url, consentOpts);
  return { back, verifier, state };
}

/** The strict client redeems `params`' code (a public client: no client authentication). */
const codeGrant = (
  s: Awaited<ReturnType<typeof strictClient>>,
  params: URLSearchParams,
  verifier: string,
  opts: Parameters<typeof oauth.authorizationCodeGrantRequest>[6],
) => oauth.authorizationCodeGrantRequest(s.as, s.client, oauth.None(), params, REDIRECT, verifier, opts);

async function strictTokens(
  s: Awaited<ReturnType<typeof strictClient>>,
  consentOpts: Parameters<typeof consent>[1] = {},
) {
  const { back, verifier, state } = await strictAuthorize(s, {}, consentOpts);
  const params = oauth.validateAuthResponse(s.as, s.client, back, state);
  const response = await codeGrant(s, params, verifier, {
    ...s.insecure,
    additionalParameters: { resource: `${server.origin}/mcp/paperclip` },
  });
  return { tokens: await oauth.processAuthorizationCodeResponse(s.as, s.client, response), params, verifier };
}

const grantOf = async (accessToken: string) => {
  const [row] = await database.db.execute<{ grant_id: string }>(
    sql`select grant_id from oauth_tokens where token_hash = encode(sha256(${accessToken}::bytea), 'hex')`,
  );
  return row!.grant_id;
};

const mcpCall = (token: string) =>
  fetch(new URL("/mcp/paperclip", server.origin), {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

describe("oauth4webapi as a strict client", () => {
  it("checks issuer and iss, refuses code reuse (revoking the grant), rotates refresh tokens", async () => {
    const s = await strictClient();
    expect(s.as.issuer).toBe(server.origin);
    const { tokens, params, verifier } = await strictTokens(s);
    expect(tokens.access_token).toMatch(/^pcoa_/);
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    // A second redemption of the same code is refused, and what the first issued is revoked.
    const again = await codeGrant(s, params, verifier, s.insecure);
    await expect(oauth.processAuthorizationCodeResponse(s.as, s.client, again)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
  });

  it("rotates refresh tokens; replaying a used one is invalid_grant and revokes the grant", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s);
    const rotated = await oauth.processRefreshTokenResponse(
      s.as,
      s.client,
      await oauth.refreshTokenGrantRequest(s.as, s.client, oauth.None(), tokens.refresh_token!, s.insecure),
    );
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpCall(rotated.access_token)).status).toBe(200);
    const grantId = await grantOf(rotated.access_token);
    const replay = await oauth.refreshTokenGrantRequest(
      s.as,
      s.client,
      oauth.None(),
      tokens.refresh_token!,
      s.insecure,
    );
    await expect(oauth.processRefreshTokenResponse(s.as, s.client, replay)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    const [grant] = await database.db.select().from(oauthGrants).where(eq(oauthGrants.id, grantId));
    expect(grant?.revokedReason).toBe("refresh_replay");
    const res = await mcpCall(rotated.access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(
      `resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp/paperclip"`,
    );
  });

  it("validates resource and scope before rotating: a refused refresh leaves the token usable", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s);
    const wrong = await oauth.refreshTokenGrantRequest(s.as, s.client, oauth.None(), tokens.refresh_token!, {
      ...s.insecure,
      additionalParameters: { resource: "https://elsewhere.example/mcp" },
    });
    await expect(oauth.processRefreshTokenResponse(s.as, s.client, wrong)).rejects.toMatchObject({
      error: "invalid_target",
    });
    const wider = await oauth.refreshTokenGrantRequest(s.as, s.client, oauth.None(), tokens.refresh_token!, {
      ...s.insecure,
      additionalParameters: { scope: "paperclip:read paperclip:configure" },
    });
    await expect(oauth.processRefreshTokenResponse(s.as, s.client, wider)).rejects.toMatchObject({
      error: "invalid_scope",
    });
    const ok = await oauth.processRefreshTokenResponse(
      s.as,
      s.client,
      await oauth.refreshTokenGrantRequest(s.as, s.client, oauth.None(), tokens.refresh_token!, s.insecure),
    );
    expect(ok.access_token).toMatch(/^pcoa_/);
  });

  it("revokes (RFC 7009), also while the connection is switched off", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s);
    await setEnabled(false);
    try {
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(s.as, s.client, oauth.None(), tokens.refresh_token!, s.insecure),
      );
    } finally {
      await setEnabled(true);
    }
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
  });

  it("device flow: authorization_pending → slow_down → approval on /mcp-device → tokens", async () => {
    const s = await strictClient();
    const device = await oauth.processDeviceAuthorizationResponse(
      s.as,
      s.client,
      await oauth.deviceAuthorizationRequest(
        s.as,
        s.client,
        oauth.None(),
        { scope: "paperclip:read", resource: `${server.origin}/mcp/paperclip` },
        s.insecure,
      ),
    );
    expect(device.interval).toBe(5);
    expect(device.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const poll = () =>
      oauth.deviceCodeGrantRequest(s.as, s.client, oauth.None(), device.device_code, s.insecure);
    await expect(oauth.processDeviceCodeResponse(s.as, s.client, await poll())).rejects.toMatchObject({
      error: "authorization_pending",
    });
    await expect(oauth.processDeviceCodeResponse(s.as, s.client, await poll())).rejects.toMatchObject({
      error: "slow_down",
    });
    const view = await call<{ organizations: { id: string }[] }>(deviceRoute.GET, "GET", "/", {
      cookie: ownerCookie,
      query: { user_code: device.user_code.toLowerCase() },
    });
    expect(view.status).toBe(200);
    const approved = await call(deviceRoute.POST, "POST", "/", {
      cookie: ownerCookie,
      body: { userCode: device.user_code, approve: true, companyId: demo.companyId },
    });
    expect(approved.status).toBe(200);
    clock += 11_000; // beyond the widened 10 s interval
    const tokens = await oauth.processDeviceCodeResponse(s.as, s.client, await poll());
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    // The device code is single use.
    clock += 11_000;
    await expect(oauth.processDeviceCodeResponse(s.as, s.client, await poll())).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });
});

describe("concurrency and quotas (one database, every request racing)", () => {
  it("20 concurrent refreshes over two processes: exactly one succeeds and the grant is revoked", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s);
    const grantId = await grantOf(tokens.access_token);
    // A barrier in the database: a connection of the test's own holds the refresh token's row
    // lock, so every request reads the token as unconsumed and then queues on the rotating
    // UPDATE. Only once several are queued is the lock released: the `consumed_at IS NULL`
    // conditional is then all that stands between them and one winner each.
    const barrier = postgres(database.url, { max: 2, onnotice: () => {} });
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const holder = barrier.begin(async (tx) => {
      await tx`select id from oauth_tokens where token_hash = encode(sha256(${tokens.refresh_token!}::bytea), 'hex') for update`;
      locked();
      await released;
    });
    await isLocked;
    let results: Response[];
    try {
      const pending = Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(across(i, "/mcp/oauth/token"), {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "refresh_token",
              refresh_token: tokens.refresh_token!,
              client_id: s.client.client_id,
            }),
          }),
        ),
      );
      // Wait until the queue stops growing (both pools are 8 wide: not all 20 can queue at once).
      let queued = 0;
      for (let stable = 0, i = 0; stable < 5 && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const [row] = await barrier<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'
            and query ilike 'update "oauth_tokens"%'`;
        stable = row!.n >= 2 && row!.n === queued ? stable + 1 : 0;
        queued = row!.n;
      }
      expect(queued).toBeGreaterThanOrEqual(2);
      release();
      await holder;
      results = await pending;
    } finally {
      release();
      await barrier.end();
    }
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const [grant] = await database.db.select().from(oauthGrants).where(eq(oauthGrants.id, grantId));
    expect(grant?.revokedReason).toBe("refresh_replay");
    // The winner's new tokens died with the grant.
    const winner = (await results.find((r) => r.status === 200)!.json()) as { access_token: string };
    expect((await mcpCall(winner.access_token)).status).toBe(401);
  });

  it("concurrent redemptions of one code over two processes: exactly one wins", async () => {
    const s = await strictClient();
    const { back, verifier } = await strictAuthorize(s);
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: s.client.client_id,
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(across(i, "/mcp/oauth/token"), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it("61 registrations from 12 sources over two processes: exactly 60; the 7th from one source is 429", async () => {
    process.env.TRUST_PROXY = "1";
    try {
      let n = 0;
      const register = (source: string) =>
        fetch(across(n++, "/mcp/oauth/register"), {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": source },
          body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: "quota" }),
        });
      const one = await Promise.all(Array.from({ length: 7 }, () => register("198.51.100.200")));
      expect(one.filter((r) => r.status === 201)).toHaveLength(6);
      const refused = one.find((r) => r.status === 429)!;
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      await database.db.execute(sql`delete from oauth_admissions`);
      const spread = await Promise.all(
        Array.from({ length: 61 }, (_, i) => register(`198.51.100.${(i % 12) + 1}`)),
      );
      // 12 sources × at most 6 = 72 > 60: the instance limit decides.
      expect(spread.filter((r) => r.status === 201)).toHaveLength(60);
      expect(spread.filter((r) => r.status === 429)).toHaveLength(1);
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });
});

describe("CIMD: an HTTPS client_id fetched through the network guard", () => {
  const cimdCount = async () =>
    Number(
      (
        await database.db.execute<{ n: string }>(
          sql`select count(*) as n from oauth_admissions where kind = 'cimd'`,
        )
      )[0]!.n,
    );
  const authorizeAt = async (clientId: string, source: string, patch: Record<string, string> = {}) =>
    fetch(
      await authorizeUrl(clientId, { resource: `${server.origin}/mcp/paperclip`, ...patch }, replica.origin),
      {
        redirect: "manual",
        headers: { "x-forwarded-for": source },
      },
    );

  it("admits, fetches, validates and caches a document; reuse costs no admission", async () => {
    const first = await authorizeAt(`${cimd.origin}/ok.json`, "192.0.2.1");
    expect(first.status).toBe(302);
    expect(new URL(first.headers.get("location")!).pathname).toMatch(/^\/mcp-connect\//);
    expect(await cimdCount()).toBe(1);
    const hits = cimd.hits;
    expect((await authorizeAt(`${cimd.origin}/ok.json`, "192.0.2.1")).status).toBe(302);
    expect(await cimdCount()).toBe(1);
    expect(cimd.hits).toBe(hits);
  });

  it("refuses a client_id mismatch, a redirect, > 32 KiB and a private address, each consuming admission", async () => {
    const cases = [
      [`${cimd.origin}/mismatch.json`, "invalid_client_metadata"],
      [`${cimd.origin}/redirect.json`, "invalid_client"],
      [`${cimd.origin}/big.json`, "invalid_client"],
      [`https://127.0.0.1:${CIMD_PORT}/ok.json`, "invalid_client"],
    ] as const;
    for (const [i, [clientId, error]] of cases.entries()) {
      const before = await cimdCount();
      const res = await authorizeAt(clientId, `192.0.2.${10 + i}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe(error);
      expect(await cimdCount()).toBe(before + 1);
    }
  });

  it("says one generic invalid_client for every fetch failure: no DNS or reachability oracle", async () => {
    const failures = [
      `https://127.0.0.1:${CIMD_PORT}/ok.json`, // loopback, refused by the guard
      "https://no-such-host.invalid/client.json", // ENOTFOUND
      `${cimd.origin}/missing.json`, // a 404
      `${cimd.origin}/redirect.json`,
    ];
    for (const [i, clientId] of failures.entries()) {
      const res = await authorizeAt(clientId, `192.0.2.${50 + i}`);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "invalid_client", error_description: CIMD_FETCH_FAILED });
    }
  });

  it("shows an inline data: logo on consent; an icon URL is never fetched (generic icon)", async () => {
    const logoOf = async (doc: string) => {
      const res = await authorizeAt(`${cimd.origin}/${doc}`, "192.0.2.40");
      const requestId = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
      const view = await call<{ client: { logo: string | null } }>(consentRoute.GET, "GET", "/", {
        cookie: ownerCookie,
        params: { requestId },
      });
      return view.json.client.logo;
    };
    expect(await logoOf("logo.json")).toBe(PIXEL);
    const hits = cimd.hits;
    expect(await logoOf("logo-remote.json")).toBeNull();
    expect(cimd.hits).toBe(hits + 1); // the document only, not /icon.png
  });

  it("refuses an invalid resource without fetching or admitting", async () => {
    const hits = cimd.hits;
    const res = await authorizeAt(`${cimd.origin}/fresh.json`, "192.0.2.30", {
      resource: "https://elsewhere.example/mcp",
    });
    expect(((await res.json()) as { error: string }).error).toBe("invalid_target");
    expect(cimd.hits).toBe(hits);
    expect(await cimdCount()).toBe(0);
  });

  it("PAPERCLIP_PUBLIC_MCP_CIMD=off: not advertised, and a CIMD client_id is refused unfetched", async () => {
    process.env.PAPERCLIP_PUBLIC_MCP_CIMD = "off";
    try {
      const meta = await (await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).json();
      expect(meta).not.toHaveProperty("client_id_metadata_document_supported");
      const hits = cimd.hits;
      const res = await fetch(
        await authorizeUrl(
          `${cimd.origin}/ok.json`,
          { resource: `${server.origin}/mcp/paperclip` },
          server.origin,
        ),
        { redirect: "manual" },
      );
      expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
      expect(cimd.hits).toBe(hits);
      expect(await cimdCount()).toBe(0);
    } finally {
      delete process.env.PAPERCLIP_PUBLIC_MCP_CIMD;
    }
    const meta = await (await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).json();
    expect(meta).toHaveProperty("client_id_metadata_document_supported", true);
  });
});

describe("instance-wide caps (rows seeded with SQL, then one request over)", () => {
  const countOf = async (query: ReturnType<typeof sql>) =>
    Number((await database.db.execute<{ n: number }>(query))[0]!.n);
  const internalId = async (clientId: string) =>
    (await database.db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)))[0]!.id;

  it("10,000 never-consented clients: the 10,000th registers, the next is 429", async () => {
    process.env.TRUST_PROXY = "1";
    const existing = await countOf(
      sql`select count(*)::int as n from oauth_clients where consented_at is null`,
    );
    await database.db.execute(sql`
      insert into oauth_clients (client_id, kind, redirect_uris, application_type, grant_types, scope, source_hash)
      select 'pcci_cap_' || g, 'dcr', ${JSON.stringify([REDIRECT])}::jsonb, 'native',
             '["authorization_code"]'::jsonb, 'paperclip:read', 'cap-' || g
      from generate_series(1, ${10_000 - existing - 1}) g`);
    try {
      // A fresh source each time: its own 30 are far away, only the instance cap can refuse.
      const register = (source: string) =>
        fetch(new URL("/mcp/oauth/register", server.origin), {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": source },
          body: JSON.stringify({ redirect_uris: [REDIRECT] }),
        });
      expect((await register("203.0.113.71")).status).toBe(201);
      const over = await register("203.0.113.72");
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await over.json()) as { error_description: string }).error_description).toMatch(/never used/);
    } finally {
      delete process.env.TRUST_PROXY;
      await database.db.execute(sql`delete from oauth_clients where client_id like 'pcci_cap_%'`);
    }
  });

  it("1,000 pending authorization requests per instance: the 1,000th is stored, the next refused", async () => {
    const s = await strictClient();
    const other = await internalId((await strictClient()).client.client_id);
    await database.db.execute(sql`delete from oauth_authorization_requests where decided_at is null`);
    // Spread over the other client: the requesting client's own 10 stay far away.
    await database.db.execute(sql`
      insert into oauth_authorization_requests (client_id, redirect_uri, code_challenge, resource, scopes, expires_at)
      select ${other}, ${REDIRECT}, 'seeded', ${`${server.origin}/mcp/paperclip`}, '["paperclip:read"]'::jsonb,
             now() + interval '10 minutes'
      from generate_series(1, 999)`);
    const location = async () =>
      new URL(
        (await fetch(await authorizeUrl(s.client.client_id), { redirect: "manual" })).headers.get(
          "location",
        )!,
      );
    expect((await location()).pathname).toMatch(/^\/mcp-connect\//);
    const over = await location();
    expect(over.searchParams.get("error")).toBe("temporarily_unavailable");
    await database.db.execute(sql`delete from oauth_authorization_requests where code_challenge = 'seeded'`);
  });

  it("device logins: 10 pending per client and 1,000 per instance, then 429", async () => {
    const s = await strictClient();
    const mine = await internalId(s.client.client_id);
    const other = await internalId((await strictClient()).client.client_id);
    const seed = (clientId: string, n: number) =>
      database.db.execute(sql`
        insert into oauth_device_authorizations (client_id, device_code_hash, user_code_hash, resource, scopes, expires_at)
        select ${clientId}, 'seeded-d-' || gen_random_uuid(), 'seeded-u-' || gen_random_uuid(),
               ${`${server.origin}/mcp/paperclip`}, '["paperclip:read"]'::jsonb, now() + interval '10 minutes'
        from generate_series(1, ${n})`);
    const start = () =>
      fetch(s.as.device_authorization_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: s.client.client_id, scope: "paperclip:read" }),
      });
    await database.db.execute(sql`delete from oauth_device_authorizations where status = 'pending'`);
    try {
      await seed(mine, 9);
      expect((await start()).status).toBe(200);
      const perClient = await start();
      expect(perClient.status).toBe(429);
      expect(((await perClient.json()) as { error_description: string }).error_description).toMatch(
        /pending/,
      );
      await database.db.execute(sql`delete from oauth_device_authorizations where status = 'pending'`);
      await database.db.execute(sql`delete from oauth_admissions`);
      await seed(other, 999);
      expect((await start()).status).toBe(200);
      const perInstance = await start();
      expect(perInstance.status).toBe(429);
      expect(((await perInstance.json()) as { error_description: string }).error_description).toMatch(
        /pending/,
      );
    } finally {
      await database.db.execute(
        sql`delete from oauth_device_authorizations where device_code_hash like 'seeded-%'`,
      );
    }
  });
});

describe("device codes typed on /mcp-device", () => {
  it("10 misses lock the person (429, Retry-After, audited); a source past 30 is refused for anyone", async () => {
    process.env.TRUST_PROXY = "1";
    try {
      const s = await strictClient();
      const started = await fetch(s.as.device_authorization_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "198.51.100.90" },
        body: new URLSearchParams({ client_id: s.client.client_id, scope: "paperclip:read" }),
      });
      const { user_code } = (await started.json()) as { user_code: string };
      const look = (cookie: string, code: string, source: string) =>
        call(deviceRoute.GET, "GET", "/", {
          cookie,
          query: { user_code: code },
          headers: { "x-forwarded-for": source },
        });
      // A match gives its reservation back: looking at the right code never uses the budget up.
      for (let i = 0; i < 12; i++)
        expect((await look(viewerCookie, user_code, "198.51.100.91")).status).toBe(200);
      for (let i = 0; i < 10; i++)
        expect((await look(viewerCookie, "BCDFGHJK", "198.51.100.91")).status).toBe(404);
      const locked = await look(viewerCookie, user_code, "198.51.100.92");
      expect(locked.status).toBe(429);
      expect((locked.json as { error: { code: string } }).error.code).toBe("device_code_throttled");
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another person is not locked out by that one…
      expect((await look(ownerCookie, user_code, "198.51.100.92")).status).toBe(200);
      // …but a source that has missed 30 times is, whoever is signed in.
      await database.db.execute(sql`
        insert into sign_in_throttles (key, failures, window_started_at, updated_at)
        values (${deviceAttemptKeys(ownerId, "198.51.100.93")[0]!.key}, 30, now(), now())`);
      const bySource = await look(ownerCookie, user_code, "198.51.100.93");
      expect(bySource.status).toBe(429);
      const audited = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from activity_log where action = 'oauth_device.code_throttled'`,
      );
      expect(Number(audited[0]!.n)).toBe(2);
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });
});

describe("never-consented clients", () => {
  it("30 per source are the limit; those older than an hour are collected, consented ones kept", async () => {
    process.env.TRUST_PROXY = "1";
    try {
      const source = "198.51.100.77";
      const old = new Date(Date.now() - 2 * 60 * 60_000);
      /** A never-consented DCR client registered from `source`. */
      const dcrClient = (clientId: string) => ({
        clientId,
        kind: "dcr",
        redirectUris: [REDIRECT],
        applicationType: "native",
        grantTypes: ["authorization_code"],
        scope: "paperclip:read",
        sourceHash: sourceHash(source),
      });
      await database.db.insert(oauthClients).values(
        Array.from({ length: 30 }, (_, i) => ({
          ...dcrClient(`pcci_seeded_${i}`),
          // Half are fresh, half are over an hour old; one old one was consented.
          createdAt: i < 15 ? new Date() : old,
          consentedAt: i === 29 ? old : null,
        })),
      );
      const register = () =>
        fetch(new URL("/mcp/oauth/register", server.origin), {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": source },
          body: JSON.stringify({ redirect_uris: [REDIRECT] }),
        });
      // The 14 old never-consented ones are collected first: room for 15 more, of which 6 a minute.
      expect((await register()).status).toBe(201);
      const left = await database.db
        .select({ id: oauthClients.clientId })
        .from(oauthClients)
        .where(sql`${oauthClients.clientId} like 'pcci_seeded_%'`);
      expect(left.map((r) => r.id)).toContain("pcci_seeded_29");
      expect(left).toHaveLength(16);
      // Now fill up to 30 never-consented clients from this source and see the next refused.
      await database.db
        .insert(oauthClients)
        .values(Array.from({ length: 14 }, (_, i) => dcrClient(`pcci_fill_${i}`)));
      const refused = await register();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toBe("too_many_requests");
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });
});

describe("enablement, consent rules and refusals", () => {
  it("switched off: 503 public_mcp_disabled on discovery, register, authorize, token, device and MCP", async () => {
    await setEnabled(false);
    try {
      const o = server.origin;
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const answers = await Promise.all([
        fetch(`${o}/.well-known/oauth-authorization-server`),
        fetch(`${o}/.well-known/oauth-protected-resource/mcp/paperclip`),
        fetch(`${o}/mcp/oauth/register`, { method: "POST", body: "{}" }),
        fetch(`${o}/mcp/oauth/authorize?client_id=x`, { redirect: "manual" }),
        fetch(`${o}/mcp/oauth/token`, { method: "POST", headers: form, body: "grant_type=refresh_token" }),
        fetch(`${o}/mcp/oauth/device_authorization`, { method: "POST", headers: form, body: "client_id=x" }),
        mcpCall("pcoa_x"),
      ]);
      for (const a of answers) {
        expect(a.status).toBe(503);
        expect(((await a.json()) as { error: { code: string } }).error.code).toBe("public_mcp_disabled");
      }
    } finally {
      await setEnabled(true);
    }
  });

  it("publishes the discovery documents the issue lists", async () => {
    const prm = (await (
      await fetch(`${server.origin}/.well-known/oauth-protected-resource/mcp/paperclip`)
    ).json()) as Record<string, unknown>;
    expect(prm.resource).toBe(`${server.origin}/mcp/paperclip`);
    expect(prm.scopes_supported).toEqual(["paperclip:read", "paperclip:write", "paperclip:configure"]);
    const as = (await (
      await fetch(`${server.origin}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: server.origin,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      device_authorization_endpoint: `${server.origin}/mcp/oauth/device_authorization`,
      revocation_endpoint: `${server.origin}/mcp/oauth/revoke`,
    });
    expect(as.scopes_supported).toContain("offline_access");
  });

  it("a company_id pin refuses approval for another company", async () => {
    const s = await strictClient();
    await expect(
      strictAuthorize(s, { company_id: demo.companyId }, { companyId: otherCompanyId }),
    ).rejects.toMatchObject({
      res: { status: 403 },
    });
    // The refusal rolled its transaction back; it is still on the record.
    const refused = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.action, "oauth_consent.refused"));
    expect(refused.map((r) => r.details)).toContainEqual(
      expect.objectContaining({ code: "forbidden", requestedCompanyId: otherCompanyId, flow: "browser" }),
    );
  });

  it("a viewer cannot grant write; the grant is read-only", async () => {
    const s = await strictClient();
    await expect(
      strictTokens(s, { cookie: viewerCookie, companyId: demo.companyId, write: true }),
    ).rejects.toMatchObject({
      res: { status: 403 },
    });
    const { tokens } = await strictTokens(s, {
      cookie: viewerCookie,
      companyId: demo.companyId,
      write: false,
    });
    expect(tokens.scope?.split(" ")).not.toContain("paperclip:write");
  });

  it("removing the member makes the next MCP call 401", async () => {
    const userId = await addUser("temp@acme.example", "Tim Temp", demo.companyId, "member");
    const cookie = await sessionCookie(database.db, userId, "temp@acme.example");
    const s = await strictClient();
    const { tokens } = await strictTokens(s, { cookie, companyId: demo.companyId });
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    await database.db
      .delete(companyMemberships)
      .where(and(eq(companyMemberships.userId, userId), eq(companyMemberships.companyId, demo.companyId)));
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
  });

  it("OAuth tokens are refused by /api/* and the agent gateway; board and agent keys by /mcp/paperclip and consent", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s);
    expect(
      (await call(companiesRoute.GET, "GET", "/api/companies", { token: tokens.access_token })).status,
    ).toBe(401);
    const gw = await call(mcpGatewayRoute.POST, "POST", "/api/tool-gateway/mcp", {
      token: tokens.access_token,
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(gw.status).toBe(401);
    expect((await mcpCall(demo.boardApiKey)).status).toBe(401);
    expect((await mcpCall(demo.agents[0]!.apiKey)).status).toBe(401);
    const res = await fetch(await authorizeUrl(s.client.client_id), { redirect: "manual" });
    const requestId = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
    const byKey = await call(consentRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { requestId },
      body: { approve: true, companyId: demo.companyId },
    });
    expect(byKey.status).toBe(401);
  });

  it("refuses a wrong resource and a missing PKCE with a redirect carrying iss", async () => {
    const s = await strictClient();
    for (const [patch, error] of [
      [{ resource: "https://elsewhere.example/mcp" }, "invalid_target"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ scope: "paperclip:write" }, "invalid_scope"],
    ] as const) {
      const res = await fetch(await authorizeUrl(s.client.client_id, { state: "st", ...patch }), {
        redirect: "manual",
      });
      const loc = new URL(res.headers.get("location")!);
      expect(loc.searchParams.get("error")).toBe(error);
      expect(loc.searchParams.get("iss")).toBe(server.origin);
      expect(loc.searchParams.get("state")).toBe("st");
    }
  });

  it("refuses a client_name with bidi or control characters (issue 34: it reversed the consent heading)", async () => {
    for (const client_name of ["Claude \u202Eyppa", "Tool\u2066x\u2069", "Line\nbreak", "Bell\u0007"]) {
      const res = await fetch(new URL("/mcp/oauth/register", server.origin), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name, redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_client_metadata" });
    }
    const plain = await fetch(new URL("/mcp/oauth/register", server.origin), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Claude Code — עברית 👩‍💻",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
      }),
    });
    expect(plain.status).toBe(201);
  });

  it("RFC deviations: an empty fragment, repeated parameters, a password in resource, `Bearer  ` (issue 34)", async () => {
    // RFC 6749 §3.1.2: a redirect URI has no fragment, an empty one included.
    const reg = await fetch(new URL("/mcp/oauth/register", server.origin), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["https://a.example/cb#"], token_endpoint_auth_method: "none" }),
    });
    expect(reg.status).toBe(400);
    expect(((await reg.json()) as { error: string }).error).toBe("invalid_redirect_uri");
    // RFC 6749 §3.1: a repeated parameter is refused, and not redirected anywhere.
    const s = await strictClient();
    for (const [name, extra] of [
      ["redirect_uri", "https://evil.example/cb"],
      ["client_id", "other"],
      ["code_challenge_method", "plain"],
    ] as const) {
      const url = await authorizeUrl(s.client.client_id, { resource: `${server.origin}/mcp/paperclip` });
      url.searchParams.append(name, extra);
      const res = await fetch(url, { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.json()).toMatchObject({ error: "invalid_request" });
    }
    // RFC 8707 §2: a resource with a password (and no user) is not the resource.
    const withPassword = `${server.origin.replace("://", "://:secret@")}/mcp/paperclip`;
    const res = await fetch(await authorizeUrl(s.client.client_id, { resource: withPassword }), {
      redirect: "manual",
    });
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
    // RFC 6750 §3.1: a malformed Bearer credential is 400 invalid_request, not 401 invalid_token.
    const { tokens } = await strictTokens(s);
    const twoSpaces = await fetch(new URL("/mcp/paperclip", server.origin), {
      method: "POST",
      headers: {
        authorization: `Bearer  ${tokens.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(twoSpaces.status).toBe(400);
    expect(twoSpaces.headers.get("www-authenticate")).toMatch(/error="invalid_request"/);
    expect(await twoSpaces.json()).toMatchObject({ error: "invalid_request" });
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
  });

  it("lists my connections and revokes one (another person's is 404); the next MCP call is 401", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s, { companyId: demo.companyId });
    const grantId = await grantOf(tokens.access_token);
    const mine = await call<{ connections: { id: string; write: boolean; name: string }[] }>(
      connectionsRoute.GET,
      "GET",
      "/",
      { cookie: ownerCookie, query: { companyId: demo.companyId } },
    );
    const listed = mine.json.connections.find((c) => c.id === grantId)!;
    expect(listed).toMatchObject({ write: true, name: "Ada Owner's Strict Client connection" });
    const theirs = await call(connectionRevokeRoute.POST, "POST", "/", {
      cookie: viewerCookie,
      params: { grantId },
    });
    expect(theirs.status).toBe(404);
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    const revoked = await call(connectionRevokeRoute.POST, "POST", "/", {
      cookie: ownerCookie,
      params: { grantId },
    });
    expect(revoked.status).toBe(200);
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
  });

  it("GET on the MCP endpoint is 405; switching off and on again resumes an unexpired grant", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s);
    const get = await fetch(`${server.origin}/mcp/paperclip`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(get.status).toBe(405);
    await setEnabled(false);
    try {
      expect((await mcpCall(tokens.access_token)).status).toBe(503);
    } finally {
      await setEnabled(true);
    }
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
  });

  it("at most 10 pending authorization requests per client; the 11th is temporarily_unavailable", async () => {
    const s = await strictClient();
    const url = () => authorizeUrl(s.client.client_id);
    const locations: URL[] = [];
    for (let i = 0; i < 11; i++)
      locations.push(new URL((await fetch(await url(), { redirect: "manual" })).headers.get("location")!));
    expect(locations.slice(0, 10).every((l) => l.pathname.startsWith("/mcp-connect/"))).toBe(true);
    expect(locations[10]!.searchParams.get("error")).toBe("temporarily_unavailable");
    expect(locations[10]!.searchParams.get("iss")).toBe(server.origin);
    // Expired requests are removed first: ten minutes later there is room again.
    clock += 11 * 60_000;
    expect(
      new URL((await fetch(await url(), { redirect: "manual" })).headers.get("location")!).pathname,
    ).toMatch(/^\/mcp-connect\//);
  });

  it("device logins: 6 new per minute per source, the 7th is 429 with Retry-After", async () => {
    const s = await strictClient();
    const start = () =>
      fetch(s.as.device_authorization_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: s.client.client_id, scope: "paperclip:read" }),
      });
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await start());
    expect(answers.slice(0, 6).every((a) => a.status === 200)).toBe(true);
    expect(answers[6]!.status).toBe(429);
    expect(Number(answers[6]!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("set-up: signed-in browsers only, the configured origin only, an invitation without credentials", async () => {
    const forged = { "x-forwarded-host": "evil.example", host: "evil.example" };
    process.env.TRUST_PROXY = "1";
    try {
      const mine = await call<{
        enabled: boolean;
        endpoint: string;
        invitationUrl: string;
        markdown: string;
      }>(setupRoute.GET, "GET", "/api/mcp/setup", {
        cookie: ownerCookie,
        headers: forged,
        query: { companyId: demo.companyId },
      });
      expect(mine.status).toBe(200);
      expect(mine.json.endpoint).toBe(`${server.origin}/mcp/paperclip`);
      expect(mine.json.invitationUrl).toBe(`${server.origin}/mcp/setup?company_id=${demo.companyId}`);
      expect(JSON.stringify(mine.json)).not.toContain("evil.example");
      expect((await call(setupRoute.GET, "GET", "/api/mcp/setup", { token: demo.boardApiKey })).status).toBe(
        403,
      );
      const md = await setupMdRoute.GET();
      expect(md.headers.get("content-type")).toMatch(/text\/markdown/);
      const text = await md.text();
      expect(text).toContain(`codex mcp add paperclip --url ${server.origin}/mcp/paperclip`);
      expect(text).toContain("paperclipai mcp login --device");
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });

  it("a token value never appears in logs or in any table except as its hash", async () => {
    const s = await strictClient();
    const { tokens } = await strictTokens(s);
    const dump = await database.db.execute<{ t: string }>(sql`
      select string_agg(row_to_json(x)::text, '') as t from (
        select * from oauth_tokens union all select null::uuid, null, null, null, null, null, null, null, null where false
      ) x`);
    const activity = await database.db.execute<{ t: string }>(
      sql`select string_agg(row_to_json(a)::text, '') as t from activity_log a`,
    );
    // A refused redemption and a token-endpoint failure log nothing of the body either.
    await fetch(s.as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: `${tokens.refresh_token}x`,
        client_id: s.client.client_id,
      }),
    });
    for (const secret of [tokens.access_token, tokens.refresh_token!]) {
      expect(logged.join("\n")).not.toContain(secret);
      expect(dump[0]?.t ?? "").not.toContain(secret);
      expect(activity[0]?.t ?? "").not.toContain(secret);
    }
  });
});
