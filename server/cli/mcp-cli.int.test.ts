/**
 * `paperclipai mcp` (issue 20 item 6; spec "Headless device login and stdio bridge") as a
 * person uses it: the real bin (scripts/paperclipai.mjs) in child processes against the
 * public MCP routes served on a real loopback HTTP server over PostgreSQL, the approval made
 * through the same verbs `/mcp-device` calls, and the MCP SDK's stdio client as the host.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DemoCredentials } from "@/server/core/seed";
import { decideDeviceCode, servePublicMcp } from "@/server/testing/oauth-server";
import { serveRoutes } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld, ownerSession, type TestDatabase } from "@/server/testing/world";
import { EXIT, pollDeviceToken, type ServerMetadata } from "./mcp-oauth";
import type { StoredCredentials } from "./mcp-store";
import { withFileLock } from "./mcp-store";

const BIN = path.join(process.cwd(), "scripts", "paperclipai.mjs");

let database: TestDatabase;
let demo: DemoCredentials;
let ownerCookie: string;
let server: Awaited<ReturnType<typeof servePublicMcp>>;
let home: string;
/** Every byte the CLI processes wrote, checked for tokens at the end. */
const outputs: string[] = [];
/** Every token value the credential file held at some point. */
const tokensSeen = new Set<string>();
/** `tools/call` bodies that reached the server, and whether to drop the answer of the next write. */
const toolCalls: string[] = [];
let dropNextWrite = false;

function observe(pathname: string, body: string): "drop" | undefined {
  if (pathname !== "/mcp/paperclip" || !body.includes('"tools/call"')) return undefined;
  toolCalls.push(body);
  if (dropNextWrite && body.includes("paperclip_call_api")) {
    dropNextWrite = false;
    return "drop";
  }
  return undefined;
}

function credentialFile(): string {
  const dir = path.join(home, "mcp");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  expect(files).toHaveLength(1);
  return path.join(dir, files[0]!);
}

function stored(): StoredCredentials {
  const s = JSON.parse(readFileSync(credentialFile(), "utf8")) as StoredCredentials;
  if (s.tokens) {
    tokensSeen.add(s.tokens.accessToken);
    if (s.tokens.refreshToken) tokensSeen.add(s.tokens.refreshToken);
  }
  return s;
}

function editStored(change: (s: StoredCredentials) => void) {
  const s = stored();
  change(s);
  writeFileSync(credentialFile(), JSON.stringify(s));
}

function cli(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [BIN, "mcp", ...args], {
    env: { ...process.env, PAPERCLIP_HOME: home, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => {
    stdout += d;
    outputs.push(String(d));
  });
  child.stderr!.on("data", (d) => {
    stderr += d;
    outputs.push(String(d));
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
  const waitForCode = async (): Promise<string> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const m = /enter the code\s+([A-Z]{4}-[A-Z]{4})/.exec(stderr);
      if (m) return m[1]!;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`no user code printed:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, done, waitForCode };
}

async function login(decision: { approve: boolean; write?: boolean } = { approve: true, write: true }) {
  const run = cli(["login", "--device", "--url", server.resource]);
  const userCode = await run.waitForCode();
  await decideDeviceCode(ownerCookie, userCode, { ...decision, companyId: demo.companyId });
  return run.done;
}

/** The MCP SDK's stdio client with `paperclipai mcp proxy` as its server process. */
async function host(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", "proxy", "--url", server.resource],
    env: { ...(process.env as Record<string, string>), PAPERCLIP_HOME: home },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d) => outputs.push(String(d)));
  const client = new Client({ name: "stdio-host", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** `paperclip_call_api` is not read-only, so the proxy treats every call of it as a write. */
const writeCall = (client: Client) =>
  client.callTool({ name: "paperclip_call_api", arguments: { operation: "connection", arguments: {} } });

async function refusedWith(call: Promise<unknown>, code: number, text: string) {
  await expect(call).rejects.toMatchObject({ code, message: expect.stringContaining(text) });
}

async function grantState() {
  const clientId = stored().clientId;
  const [row] = await database.db.execute<{
    id: string;
    revoked: boolean;
    refreshes: number;
    live: number;
  }>(sql`
    select g.id, g.revoked_at is not null as revoked,
      (select count(*)::int from oauth_tokens t where t.grant_id = g.id and t.kind = 'refresh') as refreshes,
      (select count(*)::int from oauth_tokens t where t.grant_id = g.id and t.kind = 'refresh' and t.consumed_at is null) as live
    from oauth_grants g join oauth_clients c on c.id = g.client_id
    where c.client_id = ${clientId} order by g.created_at desc limit 1`);
  return row!;
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld());
  ({ cookie: ownerCookie } = await ownerSession(database.db, demo));
  server = await servePublicMcp(database.db, observe);
  home = mkdtempSync(path.join(tmpdir(), "pc-cli-home-"));
}, 60_000);

afterAll(async () => {
  delete process.env.PAPERCLIP_PUBLIC_URL;
  await server?.close();
  await closeDemoWorld(database);
});

beforeEach(async () => {
  await database.db.execute(sql`delete from oauth_admissions`);
});

describe("paperclipai mcp login --device", () => {
  it("a declined request ends with exit code 4 and stores no tokens", async () => {
    const result = await login({ approve: false });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("declined");
    // The registration is kept for the next attempt; no tokens.
    expect(stored().tokens).toBeUndefined();
  });

  it("completes once the person approves, reusing the registration; private dir and file", async () => {
    const clientBefore = stored().clientId;
    const result = await login();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/open\s+http:\/\/localhost:\d+\/mcp-device/);
    expect(result.stderr).toContain("✔ connected as");
    const s = stored();
    expect(s.clientId).toBe(clientBefore);
    expect(s.resource).toBe(server.resource);
    expect(s.tokens?.accessToken).toMatch(/^pcoa_/);
    expect(s.tokens?.refreshToken).toMatch(/^pcor_/);
    expect(s.connection?.companyId).toBe(demo.companyId);
    expect(statSync(path.join(home, "mcp")).mode & 0o777).toBe(0o700);
    expect(statSync(credentialFile()).mode & 0o777).toBe(0o600);
    // Atomic replacement leaves no temp files or locks behind.
    expect(readdirSync(path.join(home, "mcp"))).toHaveLength(1);
    const g = await grantState();
    expect(g.revoked).toBe(false);
  });

  it("a code nobody approves in time ends with exit code 5", async () => {
    const run = cli(["login", "--device", "--url", server.resource]);
    await run.waitForCode();
    await database.db.execute(
      sql`update oauth_device_authorizations set expires_at = now() - interval '1 second' where status = 'pending'`,
    );
    const result = await run.done;
    expect(result.code).toBe(EXIT.expired);
    expect(result.stderr).toContain("expired");
  });

  it("status names who, where, scopes and expiry without a token", async () => {
    const result = await cli(["status"]).done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(server.resource);
    expect(result.stdout).toContain(demo.companyId);
    expect(result.stdout).toMatch(/scopes:\s+paperclip:read/);
    expect(result.stdout).toMatch(/access:\s+expires \d{4}-/);
  });

  it("refuses a redirect during discovery (exit 1), and a bad --url (exit 2)", async () => {
    const redirecting = await serveRoutes({
      "/.well-known/oauth-protected-resource/mcp/paperclip": async () =>
        new Response(null, {
          status: 302,
          headers: { location: `${server.origin}/.well-known/oauth-protected-resource/mcp/paperclip` },
        }),
    });
    try {
      const result = await cli(["login", "--device", "--url", `${redirecting.origin}/mcp/paperclip`]).done;
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("redirects are refused");
    } finally {
      await redirecting.close();
    }
    expect((await cli(["login", "--device", "--url", "ftp://x"]).done).code).toBe(2);
    expect(
      (await cli(["login", "--device", "--url", "http://paperclip.example.com/mcp/paperclip"]).done).code,
    ).toBe(1);
  });
});

describe("paperclipai mcp proxy", () => {
  it("serves the SDK's stdio client: lists tools and calls paperclip_connection", async () => {
    const client = await host();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("paperclip_connection");
      const result = await client.callTool({ name: "paperclip_connection", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { company: { id: string } }).company.id).toBe(demo.companyId);
    } finally {
      await client.close();
    }
  });

  it("two proxies refreshing at once make one refresh and both keep working", async () => {
    const before = await grantState();
    editStored((s) => {
      s.tokens!.expiresAt = Date.now() - 1000; // both proxies must refresh before their first request
    });
    const [a, b] = await Promise.all([host(), host()]);
    try {
      const [ra, rb] = await Promise.all([
        a.callTool({ name: "paperclip_connection", arguments: {} }),
        b.callTool({ name: "paperclip_connection", arguments: {} }),
      ]);
      expect(ra.isError).toBeFalsy();
      expect(rb.isError).toBeFalsy();
      const after = await grantState();
      expect(after.revoked).toBe(false); // no replayed refresh token
      expect(after.refreshes).toBe(before.refreshes + 1);
      expect(after.live).toBe(1);
      expect(stored().tokens!.expiresAt).toBeGreaterThan(Date.now());
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a write whose answer is lost is not re-sent: the host hears the outcome is unknown", async () => {
    const client = await host();
    try {
      toolCalls.length = 0;
      dropNextWrite = true;
      await refusedWith(writeCall(client), -32001, "outcome unknown");
      expect(toolCalls.filter((b) => b.includes("paperclip_call_api"))).toHaveLength(1);
      // The proxy keeps working for the next request.
      const next = await client.callTool({ name: "paperclip_connection", arguments: {} });
      expect(next.isError).toBeFalsy();
      expect(toolCalls.filter((b) => b.includes("paperclip_call_api"))).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("after a 401 a read is re-sent once with a refreshed token; a write is not re-sent", async () => {
    const client = await host();
    try {
      await client.listTools(); // the proxy learns which tools are read-only
      const refuse = () =>
        editStored((s) => {
          s.tokens!.accessToken = `pcoa_${"x".repeat(43)}`; // unknown to the server: 401
          s.tokens!.expiresAt = Date.now() + 10 * 60_000;
        });
      refuse();
      toolCalls.length = 0;
      const read = await client.callTool({ name: "paperclip_connection", arguments: {} });
      expect(read.isError).toBeFalsy();
      expect(toolCalls).toHaveLength(2); // refused, then re-sent

      refuse();
      toolCalls.length = 0;
      await refusedWith(writeCall(client), -32003, "not re-sent");
      expect(toolCalls).toHaveLength(1); // the refused one only
      expect((await grantState()).revoked).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe("paperclipai mcp logout", () => {
  it("revokes the connection at the server and deletes the file; then proxy exits 3", async () => {
    const result = await cli(["logout", "--url", server.resource]).done;
    expect(result.code, result.stderr).toBe(0);
    const [grant] = await database.db.execute<{ revoked: boolean }>(sql`
      select revoked_at is not null as revoked from oauth_grants order by created_at desc limit 1`);
    expect(grant!.revoked).toBe(true);
    expect(readdirSync(path.join(home, "mcp")).filter((f) => f.endsWith(".json"))).toHaveLength(0);
    const proxy = await cli(["proxy", "--url", server.resource]).done;
    expect(proxy.code).toBe(3);
    expect(proxy.stderr).toContain("not logged in");
  });

  it("no output of any command carried a token", () => {
    const all = outputs.join("");
    expect(tokensSeen.size).toBeGreaterThan(2);
    for (const token of tokensSeen) expect(all).not.toContain(token);
    expect(all).not.toMatch(/pco[adr]_[A-Za-z0-9_-]{10}/);
  });
});

describe("device polling (RFC 8628 §3.5)", () => {
  it("waits the interval, adds 5 s for every slow_down, keeps polling while pending", async () => {
    const answers = ["authorization_pending", "slow_down", "authorization_pending", "slow_down", null];
    const polls: URLSearchParams[] = [];
    const fake = await serveRoutes({
      "/token": async (request) => {
        polls.push(new URLSearchParams(await request.text()));
        const error = answers[polls.length - 1];
        return error
          ? Response.json({ error }, { status: 400 })
          : Response.json({
              access_token: "a".repeat(30),
              token_type: "Bearer",
              expires_in: 900,
              scope: "paperclip:read",
            });
      },
    });
    try {
      const meta = { tokenEndpoint: `${fake.origin}/token` } as ServerMetadata;
      const waits: number[] = [];
      const start = {
        deviceCode: "d",
        userCode: "u",
        verificationUri: "",
        verificationUriComplete: null,
        expiresIn: 600,
        interval: 5,
      };
      const tokens = await pollDeviceToken(meta, "client", start, "paperclip:read", async (ms) => {
        waits.push(ms);
      });
      expect(waits).toEqual([5000, 5000, 10_000, 10_000, 15_000]);
      expect(polls).toHaveLength(5);
      expect(polls[0]!.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:device_code");
      expect(tokens.scope).toBe("paperclip:read");
    } finally {
      await fake.close();
    }
  });
});

describe("the credential lock", () => {
  it("serialises holders across calls and breaks a lock whose process is gone", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pc-lock-"));
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "c.json");
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withFileLock(file, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 20));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    // A lock left by a process that no longer exists (pid 2^22 + 1 is above Linux's pid_max default).
    writeFileSync(`${file}.lock`, "4194305 deadbeef");
    const started = Date.now();
    await withFileLock(file, async () => {});
    expect(Date.now() - started).toBeLessThan(5000);
    expect(readdirSync(dir)).toEqual([]);
  });
});
