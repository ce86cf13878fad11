/**
 * `paperclipai mcp <login|proxy|logout|status>` (issue 20, item 6; spec "Headless device
 * login and stdio bridge"). Human messages go to stderr (stdout belongs to the MCP host in
 * `proxy`); `status` prints to stdout. No command prints a token, a device code or a
 * refresh token, not even in an error.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  CliFailure,
  discover,
  EXIT,
  pollDeviceToken,
  registerClient,
  revokeToken,
  type ServerMetadata,
  startDeviceAuthorization,
} from "./mcp-oauth";
import { Relay, runProxy, TokenSource } from "./mcp-proxy";
import {
  canonicalEndpoint,
  credentialsDir,
  credentialsFile,
  deleteCredentials,
  readCredentials,
  type StoredCredentials,
  writeCredentials,
} from "./mcp-store";

export const MCP_USAGE = `usage: paperclipai mcp <command> [options]

commands:
  login --device --url <endpoint>   sign in without a browser here: prints a URL and a code to
    [--company <organization id>]   approve on any signed-in device, then stores the login
    [--scope "<scopes>"]            (default: every scope the endpoint offers; the approval
                                    page may grant less)
  proxy --url <endpoint>            a local stdio MCP server relaying to the endpoint with the
                                    stored login (configure it as the host's command)
  logout --url <endpoint>           revoke the login at the server and delete it here
  status [--url <endpoint>]         who, where, scopes and expiry of the stored logins

endpoint: e.g. https://paperclip.example.com/mcp/paperclip
storage:  $PAPERCLIP_HOME/mcp (default ~/.paperclip/mcp), directory 0700, files 0600
exit codes: 0 ok · 1 failure · 2 usage · 3 not logged in (log in again) · 4 declined · 5 code expired
`;

export interface CliIo {
  /** Human-facing progress and errors (stderr). */
  err: (line: string) => void;
  /** Command output (stdout); never used by `proxy`. */
  out: (line: string) => void;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith("--")) throw new CliFailure(`${name} needs a value`, EXIT.usage);
  return value;
}

function endpointOf(args: string[]): string {
  const url = option(args, "--url");
  if (!url)
    throw new CliFailure("--url <endpoint> is required (e.g. https://host/mcp/paperclip)", EXIT.usage);
  const resource = canonicalEndpoint(url);
  if (!resource) throw new CliFailure("--url must be an http(s) URL", EXIT.usage);
  return resource;
}

/** Who and where the new login acts, from the endpoint's `paperclip_connection` (best effort). */
async function describeConnection(resource: string): Promise<StoredCredentials["connection"]> {
  let answer: unknown;
  const relay = new Relay({
    resource,
    tokens: new TokenSource(resource),
    deliver: (m) => {
      answer = m;
    },
  });
  await relay.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "paperclip_connection", arguments: {} },
  });
  const content = (answer as { result?: { structuredContent?: Record<string, Record<string, unknown>> } })
    ?.result?.structuredContent;
  if (!content) return undefined;
  const person = content.person ?? {};
  const company = content.company ?? {};
  return {
    user: String(person.email ?? person.name ?? ""),
    company: String(company.name ?? ""),
    companyId: String(company.id ?? ""),
    role: typeof content.role === "string" ? content.role : undefined,
    manage: typeof content.manage === "string" ? content.manage : undefined,
  };
}

async function login(args: string[], io: CliIo): Promise<number> {
  if (!args.includes("--device"))
    throw new CliFailure("only device login is supported here: add --device", EXIT.usage);
  const companyId = option(args, "--company");
  if (companyId && !/^[0-9a-f-]{36}$/i.test(companyId))
    throw new CliFailure("--company must be an organization id (a UUID)", EXIT.usage);
  const meta: ServerMetadata = await discover(endpointOf(args));
  const scope =
    option(args, "--scope") ?? (meta.scopes.length > 0 ? meta.scopes.join(" ") : "paperclip:read");
  const previous = readCredentials(meta.resource);
  const base = (clientId: string): StoredCredentials => ({
    version: 1,
    resource: meta.resource,
    issuer: meta.issuer,
    tokenEndpoint: meta.tokenEndpoint,
    revocationEndpoint: meta.revocationEndpoint,
    deviceAuthorizationEndpoint: meta.deviceAuthorizationEndpoint,
    registrationEndpoint: meta.registrationEndpoint,
    clientId,
    ...(previous?.tokens ? { tokens: previous.tokens, connection: previous.connection } : {}),
    updatedAt: new Date().toISOString(),
  });
  // Reuse this endpoint's registration; register (again) when there is none or the server forgot it.
  let clientId = previous?.issuer === meta.issuer ? previous.clientId : null;
  let start = clientId ? await startDeviceAuthorization(meta, clientId, scope, companyId) : null;
  if (!start) {
    clientId = await registerClient(meta, scope);
    writeCredentials(base(clientId));
    start = await startDeviceAuthorization(meta, clientId, scope, companyId);
    if (!start) throw new CliFailure("the server refused the client it just registered", EXIT.failure);
  }
  io.err("");
  io.err(`To connect this machine to Paperclip, open  ${start.verificationUri}`);
  io.err(`and enter the code  ${start.userCode}`);
  if (start.verificationUriComplete) io.err(`(or open ${start.verificationUriComplete})`);
  io.err("Compare the code on the page before approving. Waiting for approval…");
  const tokens = await pollDeviceToken(meta, clientId!, start, scope);
  const replaced = previous?.tokens;
  writeCredentials({ ...base(clientId!), tokens, connection: undefined });
  if (replaced && replaced.refreshToken !== tokens.refreshToken) {
    // The earlier login of this endpoint is superseded: withdraw it rather than leave it live.
    await revokeToken(
      base(clientId!),
      replaced.refreshToken ?? replaced.accessToken,
      replaced.refreshToken ? "refresh_token" : "access_token",
    ).catch(() => {});
  }
  const connection = await describeConnection(meta.resource).catch(() => undefined);
  const stored = readCredentials(meta.resource)!;
  writeCredentials({ ...stored, connection });
  io.err(
    `✔ connected${connection?.user ? ` as ${connection.user}` : ""}${connection?.company ? ` in ${connection.company}` : ""} (scopes: ${tokens.scope})`,
  );
  io.err(`  stored in ${credentialsFile(meta.resource)}`);
  io.err(`  use it from a stdio host: paperclipai mcp proxy --url ${meta.resource}`);
  return EXIT.ok;
}

async function logout(args: string[], io: CliIo): Promise<number> {
  const resource = endpointOf(args);
  const stored = readCredentials(resource);
  if (!stored) {
    io.err(`not logged in to ${resource}`);
    return EXIT.notLoggedIn;
  }
  let failure: string | null = null;
  if (stored.tokens) {
    // RFC 7009: the refresh token first (the server revokes its whole family), then the access token.
    const order: [string | null, "refresh_token" | "access_token"][] = [
      [stored.tokens.refreshToken, "refresh_token"],
      [stored.tokens.accessToken, "access_token"],
    ];
    for (const [token, hint] of order) {
      if (!token) continue;
      try {
        await revokeToken(stored, token, hint);
      } catch (err) {
        failure = (err as Error).message;
      }
    }
  }
  deleteCredentials(resource);
  if (failure) {
    io.err(`✖ deleted the local login, but the server could not confirm the revocation (${failure});`);
    io.err(`  revoke the connection under ${new URL(stored.issuer).origin}/assistant-connections`);
    return EXIT.failure;
  }
  io.err(`✔ logged out of ${resource} (revoked at the server, deleted here)`);
  return EXIT.ok;
}

function status(args: string[], io: CliIo): number {
  const only = args.includes("--url") ? endpointOf(args) : null;
  const dir = credentialsDir();
  const all = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => {
      try {
        return JSON.parse(readFileSync(path.join(dir, f), "utf8")) as StoredCredentials;
      } catch {
        return null;
      }
    })
    .filter((s): s is StoredCredentials => s?.version === 1 && (!only || s.resource === only));
  if (all.length === 0) {
    io.out(only ? `not logged in to ${only}` : `no stored logins in ${dir}`);
    return EXIT.notLoggedIn;
  }
  for (const s of all) {
    io.out(s.resource);
    if (!s.tokens) {
      io.out("  not logged in (a client registration only)");
      continue;
    }
    const c = s.connection;
    if (c?.user) io.out(`  who:     ${c.user}${c.role ? ` (${c.role})` : ""}`);
    if (c?.company) io.out(`  where:   ${c.company}${c.companyId ? ` (${c.companyId})` : ""}`);
    io.out(`  scopes:  ${s.tokens.scope}`);
    const expires = new Date(s.tokens.expiresAt);
    io.out(
      `  access:  ${expires.getTime() > Date.now() ? "expires" : "expired"} ${expires.toISOString()}${s.tokens.refreshToken ? " (refreshed automatically)" : ""}`,
    );
    if (c?.manage) io.out(`  manage:  ${c.manage}`);
  }
  return EXIT.ok;
}

/** Runs `paperclipai mcp …`; the exit code. Failures are printed, never thrown. */
export async function runMcpCommand(args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case "login":
        return await login(rest, io);
      case "proxy":
        await runProxy(endpointOf(rest), io.err);
        return EXIT.ok;
      case "logout":
        return await logout(rest, io);
      case "status":
        return status(rest, io);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.err(MCP_USAGE);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        io.err(`unknown command \`mcp ${command}\`\n`);
        io.err(MCP_USAGE);
        return EXIT.usage;
    }
  } catch (err) {
    if (err instanceof CliFailure) {
      io.err(`✖ ${err.message}`);
      return err.exitCode;
    }
    // Unexpected: the message only (a stack could carry request details), never a token.
    io.err(`✖ ${String((err as Error)?.message ?? err).replace(/\b[A-Za-z0-9_-]{24,}\b/g, "[redacted]")}`);
    return EXIT.failure;
  }
}
