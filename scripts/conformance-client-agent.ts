/**
 * The client command of `npm run conformance:client` (scripts/conformance-client.ts): the
 * official suite runs `tsx scripts/conformance-client-agent.ts <serverUrl>` for one client
 * scenario (docs/conformance-client-notes.md). It plays the operator and the agent of a
 * running Paperclip, over its public HTTP API only, so the gateway is the OAuth client under
 * test:
 *
 *   operator — allow the loopback origin(s), create an `mcp_http` application and connection
 *   for the scenario's server, refresh its catalog (refused 401 before authorization), set the
 *   authorization kind, connect (follow the authorization URL to its redirect, then open the
 *   callback as the signed-in person), refresh again, approve the tools, test, enable, put the
 *   application in a profile bound to the company;
 *   agent — start a run and, with the MCP SDK client on `/api/tool-gateway/mcp`, list the tools
 *   and call the scenario's `test-tool`.
 *
 * Environment: PAPERCLIP_URL, PAPERCLIP_BOARD_KEY (an admin board key of the company), and
 * DATABASE_URL of that instance to allow private upstream origins as `npm run cli -- upstreams
 * allow` does (without it the origins must already be allowed); from the suite
 * MCP_CONFORMANCE_SCENARIO and, for some scenarios, MCP_CONFORMANCE_CONTEXT. Exit 0 when the
 * tool call returned the scenario's answer; 1 otherwise (the suite judges by its own checks).
 * Never prints a secret: client secrets and keys come from the suite's context and go only into
 * the PUT body.
 */
import { createPrivateKey } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** A failed admin call: its HTTP status and the API's stable error code (server/http/route.ts). */
export class ApiError extends Error {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly details: Record<string, unknown> | undefined,
    message: string,
  ) {
    super(`${what}: ${status} ${code ?? ""} ${message}`.trim());
  }
}

export interface AgentEnv {
  paperclipUrl: string;
  boardKey: string;
  databaseUrl?: string;
  scenario: string;
  context: Record<string, unknown>;
  log: (line: string) => void;
}

type AuthorizationKind = "static" | "oauth_company" | "oauth_user" | "client_credentials";

/** The PUT …/authorization body (the lead's contract, issue 36). */
export interface AuthorizationInput {
  kind: AuthorizationKind;
  scopes?: string[];
  clientId?: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  privateKeyJwk?: Record<string, unknown>;
}

export interface AuthorizationStatus {
  kind: AuthorizationKind;
  status: "not_connected" | "connected" | "needs_reauthorization";
  connectedAs?: string | null;
  scopes?: string[] | null;
  expiresAt?: string | null;
  issuer?: string | null;
}

/**
 * What the operator enters for a scenario: the client identity the suite hands over in its
 * context (pre-registration, client credentials), otherwise a company OAuth grant with
 * everything else (client registration, scopes, auth method) left to discovery.
 */
export function authorizationFor(scenario: string, context: Record<string, unknown>): AuthorizationInput {
  const str = (k: string) => (typeof context[k] === "string" ? (context[k] as string) : undefined);
  if (scenario === "auth/client-credentials-jwt") {
    const pem = str("private_key_pem");
    if (!pem) throw new Error("the suite's context has no private_key_pem");
    // The contract takes a JWK: the PKCS#8 PEM converted by node:crypto, with its algorithm.
    const jwk = createPrivateKey(pem).export({ format: "jwk" }) as Record<string, unknown>;
    return {
      kind: "client_credentials",
      clientId: str("client_id"),
      tokenEndpointAuthMethod: "private_key_jwt",
      privateKeyJwk: { ...jwk, alg: str("signing_algorithm") ?? "ES256" },
    };
  }
  if (scenario.startsWith("auth/client-credentials-")) {
    return {
      kind: "client_credentials",
      clientId: str("client_id"),
      clientSecret: str("client_secret"),
      tokenEndpointAuthMethod: "client_secret_basic",
    };
  }
  if (str("client_id")) {
    // auth/pre-registration: the authorization server has no registration endpoint.
    return {
      kind: "oauth_company",
      clientId: str("client_id"),
      clientSecret: str("client_secret"),
      tokenEndpointAuthMethod: str("client_secret") ? "client_secret_basic" : "none",
    };
  }
  return { kind: "oauth_company" };
}

/** An application slug for a scenario (`<slug>__<tool>` is what the agent sees). */
export function slugFor(scenario: string, suffix: string): string {
  const base = scenario
    .replace(/^auth\//, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const head = `cc-${base}`.slice(0, 40).replace(/-+$/, "");
  return `${head}-${suffix}`;
}

/** The Paperclip admin API as a board key holder calls it. */
export function adminApi(env: Pick<AgentEnv, "paperclipUrl" | "boardKey">) {
  const base = env.paperclipUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${env.boardKey}`, "content-type": "application/json" };
  async function request<T>(what: string, method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // A non-JSON answer (a 404 page of a route that does not exist yet) keeps its status.
    }
    if (!res.ok) {
      const err = (json.error ?? {}) as {
        code?: string;
        message?: string;
        details?: Record<string, unknown>;
      };
      const message =
        err.message ??
        (res.status === 404 && !err.code
          ? `no route ${method} ${path} on this instance`
          : text.slice(0, 200));
      throw new ApiError(what, res.status, err.code, err.details, message);
    }
    return json as T;
  }
  return { base, headers, request };
}

/**
 * Allows a loopback origin for the instance's connections, as `npm run cli -- upstreams allow`
 * does (the same verb, as the system actor), when DATABASE_URL names the instance's database.
 */
async function allowOrigin(env: AgentEnv, origin: string, allowed: Set<string>): Promise<boolean> {
  if (allowed.has(origin)) return false;
  allowed.add(origin);
  if (!env.databaseUrl) {
    env.log(`  ! ${origin} must be on the instance's private-upstream list (no DATABASE_URL to add it)`);
    return false;
  }
  const [{ openDatabase }, { systemContext }, { addPrivateUpstream }, { isServiceError }] = await Promise.all(
    [
      import("../db/client"),
      import("../server/context"),
      import("../server/instance/private-upstreams"),
      import("../server/errors"),
    ],
  );
  const database = openDatabase(env.databaseUrl, { max: 1 });
  try {
    await addPrivateUpstream(systemContext(database.db, "cli"), { origin, note: "conformance:client" });
  } catch (err) {
    if (!(isServiceError(err) && err.code === "private_upstream_exists")) throw err;
  } finally {
    await database.close();
  }
  env.log(`  allowed ${origin}`);
  return true;
}

/**
 * Runs `step`; when the network guard refuses an origin nobody allowed
 * (`upstream_requires_operator`, e.g. the authorization server the gateway just discovered on
 * another loopback port), allows it as the operator reading that message would, and retries.
 */
async function withOperatorGrants<T>(
  env: AgentEnv,
  allowed: Set<string>,
  step: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      const origin = err instanceof ApiError ? err.details?.origin : undefined;
      if (
        attempt < 4 &&
        err instanceof ApiError &&
        err.code === "upstream_requires_operator" &&
        typeof origin === "string" &&
        (await allowOrigin(env, origin, allowed))
      )
        continue;
      throw err;
    }
  }
}

/**
 * The person's part of an authorization-code grant: open the authorization URL (the suite's
 * authorization server redirects at once, with no consent page), then open the callback it
 * redirects to, signed in as the same person (the state is bound to them).
 */
export async function completeAuthorization(
  api: ReturnType<typeof adminApi>,
  authorizationUrl: string,
): Promise<AuthorizationStatus> {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  await res.body?.cancel();
  if (res.status < 300 || res.status >= 400 || !location) {
    throw new Error(`the authorization server answered ${res.status} without a redirect`);
  }
  const callback = new URL(location, authorizationUrl);
  // The redirect must come back to this Paperclip: the board key goes nowhere else.
  if (callback.origin !== new URL(api.base).origin) {
    throw new Error(`the authorization server redirected to ${callback.origin}, not to Paperclip`);
  }
  const back = await fetch(callback, {
    headers: { authorization: api.headers.authorization, accept: "application/json" },
    redirect: "manual",
  });
  const body = (await back.json().catch(() => ({}))) as {
    authorization?: AuthorizationStatus;
    error?: { code?: string; message?: string; details?: Record<string, unknown> };
  };
  if (!back.ok || !body.authorization) {
    throw new ApiError(
      "callback",
      back.status,
      body.error?.code,
      body.error?.details,
      body.error?.message ?? "no authorization in the callback's answer",
    );
  }
  return body.authorization;
}

const TOOL = "test-tool";
/** Step-up rounds the script will go through; above the suite's limit of 3 on purpose, so that
 * `auth/scope-retry-limit` measures the gateway's own limit rather than this script's. */
const MAX_REAUTHORIZATIONS = 5;

export async function runAgent(serverUrl: string, env: AgentEnv): Promise<void> {
  const api = adminApi(env);
  const log = env.log;
  const allowed = new Set<string>();

  const { companies } = await api.request<{ companies: { id: string }[] }>(
    "companies",
    "GET",
    "/api/companies",
  );
  const companyId = process.env.PAPERCLIP_COMPANY_ID ?? companies[0]?.id;
  if (!companyId) throw new Error("the board key sees no company");
  const { agents } = await api.request<{ agents: { id: string }[] }>(
    "agents",
    "GET",
    `/api/companies/${companyId}/agents`,
  );
  const agentId = process.env.PAPERCLIP_AGENT_ID ?? agents[0]?.id;
  if (!agentId) throw new Error("the company has no agent");
  const tools = `/api/companies/${companyId}/tools`;

  // Operator: the scenario's MCP server listens on loopback.
  await allowOrigin(env, new URL(serverUrl).origin, allowed);
  const slug = slugFor(env.scenario, Math.random().toString(36).slice(2, 8));
  const application = await api.request<{ id: string }>("application", "POST", `${tools}/applications`, {
    slug,
    name: `Conformance ${env.scenario}`,
    type: "mcp_http",
  });
  const connection = await api.request<{ id: string }>("connection", "POST", `${tools}/connections`, {
    applicationId: application.id,
    name: `Conformance ${env.scenario}`,
    transportConfig: { url: serverUrl },
  });
  const conn = `${tools}/connections/${connection.id}`;
  log(`  connection ${connection.id} (application ${slug}) for ${serverUrl}`);

  const refresh = () =>
    withOperatorGrants(env, allowed, () => api.request("catalog refresh", "POST", `${conn}/catalog/refresh`));
  try {
    // Without authorization the upstream answers 401: what an operator sees first.
    await refresh();
    log("  catalog refresh before authorization: accepted");
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    log(`  catalog refresh before authorization: ${err.status} ${err.code ?? ""}`);
  }

  try {
    // From here on, the lead's routes (issue 36): the authorization of the connection.
    const input = authorizationFor(env.scenario, env.context);
    await withOperatorGrants(env, allowed, () =>
      api.request<{ authorization: AuthorizationStatus }>(
        "authorization",
        "PUT",
        `${conn}/authorization`,
        input,
      ),
    );
    log(`  authorization kind ${input.kind}`);

    const connect = async (): Promise<AuthorizationStatus> => {
      const started = await withOperatorGrants(env, allowed, () =>
        api.request<{ authorizationUrl?: string; authorization?: AuthorizationStatus }>(
          "connect",
          "POST",
          `${conn}/authorization/connect`,
          {},
        ),
      );
      if (started.authorizationUrl) return completeAuthorization(api, started.authorizationUrl);
      if (started.authorization) return started.authorization;
      throw new Error("connect answered neither an authorization URL nor a status");
    };
    const status = await connect();
    log(
      `  authorization: ${status.status}${status.scopes?.length ? ` (scopes ${status.scopes.join(" ")})` : ""}`,
    );
    if (status.status !== "connected") throw new Error(`the connection is ${status.status} after connecting`);

    // Step-up rounds (403 insufficient_scope leaves the connection needing a person's consent
    // again): the person gives it (the authorization server asks nothing) and the step retries.
    // Counted over the whole scenario, the catalog refresh's and the tool call's together.
    let reauthorizations = 0;
    const reauthorizeOrThrow = async (what: string, why: string) => {
      const now = await api.request<{ authorization: AuthorizationStatus }>(
        "authorization status",
        "GET",
        `${conn}/authorization`,
      );
      log(`  ${what} refused (${why.slice(0, 160)}); authorization ${now.authorization.status}`);
      if (now.authorization.status !== "needs_reauthorization" || reauthorizations >= MAX_REAUTHORIZATIONS) {
        throw new Error(`${what} failed: ${why.slice(0, 300)}`);
      }
      reauthorizations++;
      const again = await connect();
      log(
        `  reauthorized: ${again.status}${again.scopes?.length ? ` (scopes ${again.scopes.join(" ")})` : ""}`,
      );
    };

    for (;;) {
      try {
        await refresh();
        break;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        await reauthorizeOrThrow("catalog refresh", err.message);
      }
    }
    const { entries } = await api.request<{
      entries: { id: string; kind: string; name: string; schemaProblem: string | null }[];
    }>("catalog", "GET", `${conn}/catalog`);
    await api.request("review", "POST", `${conn}/catalog/review`, {
      entries: entries.filter((e) => !e.schemaProblem).map((e) => ({ id: e.id, action: "approve" })),
    });
    // Enabling needs a passing health check (server/tools/connections.ts `enableConnection`),
    // which lists the upstream's tools with the grant just obtained.
    const health = await api.request<{ health: string; error: string | null }>(
      "health check",
      "POST",
      `${conn}/test`,
    );
    if (health.health !== "ok") throw new Error(`health check: ${health.health} ${health.error ?? ""}`);
    await api.request("enable", "POST", `${conn}/enable`);
    const profile = await api.request<{ id: string }>("profile", "POST", `${tools}/profiles`, {
      name: `${slug} profile`,
    });
    await api.request("profile entry", "POST", `${tools}/profiles/${profile.id}/entries`, {
      mode: "include",
      selector: { type: "application", applicationId: application.id },
    });
    await api.request("binding", "POST", `${tools}/profiles/${profile.id}/bindings`, {
      targetType: "company",
    });
    log(`  catalog: ${entries.length} entries approved, connection enabled, profile bound`);

    // Agent: a run and its gateway session, then the MCP SDK client on the agent endpoint.
    const run = await api.request<{ gateway: { token: string } }>(
      "run",
      "POST",
      `/api/agents/${agentId}/runs`,
      {},
    );
    const client = new Client({ name: "paperclip-conformance-client", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.base}/api/tool-gateway/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${run.gateway.token}` } },
      }),
    );
    try {
      const listed = await client.listTools();
      const name = `${slug}__${TOOL}`;
      if (!listed.tools.some((t) => t.name === name)) {
        throw new Error(`tools/list has no ${name} (${listed.tools.length} tools)`);
      }
      log(`  tools/list: ${name} among ${listed.tools.length} tools`);
      for (;;) {
        const result = await client.callTool({ name, arguments: {} }).catch((err: Error) => ({
          isError: true,
          content: [{ type: "text", text: err.message }],
        }));
        const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");
        if (!result.isError && text === "test") {
          log(`  tools/call ${name}: "${text}"`);
          break;
        }
        await reauthorizeOrThrow(`tools/call ${name}`, text);
      }
    } finally {
      await client.close();
    }
  } finally {
    // Leave the company as it was for the next scenario: its tools out of every agent's list.
    await api.request("disable", "POST", `${conn}/disable`).catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const serverUrl = process.argv[2];
  const paperclipUrl = process.env.PAPERCLIP_URL;
  const boardKey = process.env.PAPERCLIP_BOARD_KEY;
  if (!serverUrl || !paperclipUrl || !boardKey) {
    console.error(
      "usage: PAPERCLIP_URL=… PAPERCLIP_BOARD_KEY=… tsx scripts/conformance-client-agent.ts <serverUrl>",
    );
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "unknown";
  let context: Record<string, unknown> = {};
  try {
    context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, unknown>;
  } catch {
    console.error("MCP_CONFORMANCE_CONTEXT is not JSON");
    return 2;
  }
  const log = (line: string) => console.log(line);
  log(`conformance:client agent, ${scenario}`);
  try {
    await runAgent(serverUrl, {
      paperclipUrl,
      boardKey,
      databaseUrl: process.env.DATABASE_URL || undefined,
      scenario,
      context,
      log,
    });
    log("  done");
    return 0;
  } catch (err) {
    log(`  ✗ ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(await main());
}
