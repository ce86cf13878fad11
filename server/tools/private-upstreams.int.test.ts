/**
 * Issue 12 "trustedLocal becomes operator-granted" and "the connection test returns a
 * classified error, never raw upstream text": real routes, real PostgreSQL, real loopback MCP
 * fixture servers, the real gateway. A company admin (the demo board key, a company owner's
 * credential) against the instance administrator's list.
 */

import { mkdtempSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as applicationsRoute from "@/app/api/companies/[companyId]/tools/applications/route";
import * as refreshRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/catalog/refresh/route";
import * as connectionRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/route";
import * as connectionTestRoute from "@/app/api/companies/[companyId]/tools/connections/[connectionId]/test/route";
import * as connectionsRoute from "@/app/api/companies/[companyId]/tools/connections/route";
import * as privateUpstreamsRemoveRoute from "@/app/api/instance/private-upstreams/remove/route";
import * as privateUpstreamsRoute from "@/app/api/instance/private-upstreams/route";
import * as callRoute from "@/app/api/tool-gateway/tools/call/route";
import { activityLog, toolConnections, toolInvocations, users } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { hashPassword } from "@/server/auth/password";
import { CONNECTION_TEST_ERRORS } from "@/server/connectors/test-errors";
import type { DemoCredentials } from "@/server/core/seed";
import { setExampleUrlResolver } from "@/server/examples/examples";
import { call, sessionCookie } from "@/server/testing/api";
import { captureConsole, listenLoopback } from "@/server/testing/serve";
import { closeDemoWorld, demoWorld, installExample, ownerSession, startRun } from "@/server/testing/world";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let companyId: string;
let appId: string;
let echo: HttpFixture<unknown>;
let hostile: { server: http.Server; origin: string };
let operatorCookie: string;
let ownerOnlyCookie: string;
const logs: string[] = [];
const CANARY = "upstream-canary-5f0e-must-not-reach-the-client";
const board = () => ({ token: demo.boardApiKey });
/** A port on a loopback address no operator listed (the redirect target of `/redirect-private`). */
const unlistedPort = 9;

type ConnJson = { id: string; error?: { code: string; message: string } };
const createConnection = (url: string, extra: Record<string, unknown> = {}) =>
  call<ConnJson>(connectionsRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { applicationId: appId, name: `c-${Math.random()}`, transportConfig: { url }, ...extra },
  });
const testConnection = (connectionId: string) =>
  call<{ health: string; error: string | null; errorCode: string | null }>(
    connectionTestRoute.POST,
    "POST",
    "/",
    {
      ...board(),
      params: { companyId, connectionId },
    },
  );
const listAdd = (cookie: string | undefined, origin: string, token?: string) =>
  call<{ entries?: { origin: string }[]; error?: { code: string } }>(
    privateUpstreamsRoute.POST,
    "POST",
    "/",
    {
      ...(cookie ? { cookie } : {}),
      ...(token ? { token } : {}),
      body: { origin },
    },
  );
const listRemove = (origin: string) =>
  call<{ entries?: { origin: string }[]; unlisted?: { origin: string }[]; error?: { code: string } }>(
    privateUpstreamsRemoveRoute.POST,
    "POST",
    "/",
    {
      cookie: operatorCookie,
      body: { origin },
    },
  );

async function refusals() {
  return database.db
    .select({ details: activityLog.details })
    .from(activityLog)
    .where(
      and(eq(activityLog.companyId, companyId), eq(activityLog.action, "tool_connection.upstream_refused")),
    );
}

/** An upstream that answers every request badly, with the canary in the body. */
async function startHostile() {
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    req.resume();
    if (p === "/500") res.writeHead(500, { "content-type": "text/plain" }).end(`internal error: ${CANARY}`);
    else if (p === "/401")
      res
        .writeHead(401, { "content-type": "text/plain", "www-authenticate": `Bearer ${CANARY}` })
        .end(CANARY);
    else if (p === "/rpc-error")
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(
          JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: -32000, message: CANARY, data: CANARY } }),
        );
    else if (p === "/garbage") res.writeHead(200, { "content-type": "application/json" }).end(`{${CANARY}`);
    else if (p === "/redirect") res.writeHead(302, { location: `http://169.254.169.254/${CANARY}` }).end();
    else if (p === "/redirect-private")
      res.writeHead(307, { location: `http://127.0.0.2:${unlistedPort}/${CANARY}` }).end();
    else res.writeHead(404).end(CANARY);
  });
  return { server, origin: `http://127.0.0.1:${await listenLoopback(server)}` };
}

beforeAll(async () => {
  process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), "pc-private-upstreams-"));
  captureConsole(logs);
  ({ database, demo } = await demoWorld({ gateway: true }));
  companyId = demo.companyId;
  // The demo owner is the first account: this instance's administrator.
  const owner = await ownerSession(database.db, demo);
  operatorCookie = owner.cookie;
  const [other] = await database.db
    .insert(users)
    .values({ email: "owner-only@example.com", passwordHash: await hashPassword("x") })
    .returning();
  ownerOnlyCookie = await sessionCookie(database.db, other!.id, other!.email);
  echo = (await startHttpFixture("echo")) as HttpFixture<unknown>;
  hostile = await startHostile();
  const app = await call<{ id: string }>(applicationsRoute.POST, "POST", "/", {
    ...board(),
    params: { companyId },
    body: { slug: "internal", name: "Internal", type: "mcp_http" },
  });
  appId = app.json.id;
}, 60_000);

afterAll(async () => {
  setExampleUrlResolver(null);
  await echo?.close();
  hostile?.server.closeAllConnections();
  await new Promise<void>((resolve) => hostile?.server.close(() => resolve()));
  await closeDemoWorld(database);
});

describe("a company admin and loopback/private upstreams", () => {
  it("a trustedLocal connection to a loopback origin not on the operator's list is refused (403) and audited", async () => {
    const port = new URL(echo.url).port;
    for (const url of [
      echo.url,
      `http://localhost:${port}/mcp`,
      `http://0x7f.1:${port}/mcp`,
      `http://[::1]:${port}/mcp`,
      `http://[::ffff:127.0.0.1]:${port}/mcp`,
      "http://10.1.2.3/mcp",
      "http://192.168.0.10:8080/mcp",
    ]) {
      const res = await createConnection(url, { trustedLocal: true });
      expect(res.status, url).toBe(403);
      expect(res.json.error?.code, url).toBe("upstream_requires_operator");
    }
    const metadata = await createConnection("http://169.254.169.254/latest/meta-data/", {
      trustedLocal: true,
    });
    expect(metadata.status).toBe(403);
    expect(metadata.json.error?.code).toBe("upstream_blocked");
    const audited = await refusals();
    expect(audited.length).toBeGreaterThanOrEqual(8);
    expect(audited.map((r) => (r.details as { code: string }).code)).toContain("upstream_requires_operator");
    const [{ n }] = (await database.db.execute(
      sql`select count(*)::int as n from tool_connections where company_id = ${companyId}`,
    )) as unknown as [{ n: number }];
    expect(n).toBe(0);
  });

  it("neither a board key nor a company owner who is not an instance admin can change the list", async () => {
    const byKey = await listAdd(undefined, new URL(echo.url).origin, demo.boardApiKey);
    expect(byKey.status).toBe(403);
    expect(byKey.json.error?.code).toBe("instance_admin_required");
    const byOwner = await listAdd(ownerOnlyCookie, new URL(echo.url).origin);
    expect(byOwner.status).toBe(403);
    expect(byOwner.json.error?.code).toBe("instance_admin_required");
    const list = await call<{ entries: unknown[] }>(privateUpstreamsRoute.GET, "GET", "/", {
      cookie: operatorCookie,
    });
    expect(list.json.entries).toEqual([]);
  });

  it("the operator cannot list metadata addresses or anything but an origin", async () => {
    expect((await listAdd(operatorCookie, "http://169.254.169.254")).json.error?.code).toBe(
      "upstream_blocked",
    );
    expect((await listAdd(operatorCookie, "http://[fd00:ec2::254]")).json.error?.code).toBe(
      "upstream_blocked",
    );
    // Unspecified addresses (issue 34): the guard never connects there, so they are not listable.
    for (const origin of ["http://0.0.0.0:9", "http://[::]:9", "http://0x0:9"])
      expect((await listAdd(operatorCookie, origin)).json.error?.code, origin).toBe("upstream_blocked");
    expect((await listAdd(operatorCookie, "http://127.0.0.1:8080/mcp")).status).toBe(400);
    expect((await listAdd(operatorCookie, "ftp://127.0.0.1")).status).toBe(400);
  });

  let connectionId: string;
  let token: string;

  it("once an instance admin lists the exact origin, the same connection works end to end", async () => {
    const added = await listAdd(operatorCookie, new URL(echo.url).origin.replace("127.0.0.1", "0x7f.1"));
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    expect(added.json.entries?.map((e) => e.origin)).toEqual([new URL(echo.url).origin]);
    const res = await createConnection(echo.url);
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const health = await testConnection(res.json.id);
    expect(health.json.health).toBe("ok");
    // Only that origin: another spelling of the host, or another port, stays refused.
    const port = Number(new URL(echo.url).port);
    expect((await createConnection(`http://localhost:${port}/mcp`)).json.error?.code).toBe(
      "upstream_requires_operator",
    );
    expect((await createConnection(`http://127.0.0.1:${port + 1}/mcp`)).json.error?.code).toBe(
      "upstream_requires_operator",
    );
    // An update to an unlisted origin is refused too, and leaves the connection as it was.
    const moved = await call<ConnJson>(connectionRoute.PATCH, "PATCH", "/", {
      ...board(),
      params: { companyId, connectionId: res.json.id },
      body: { transportConfig: { url: `http://127.0.0.1:${port + 1}/mcp` } },
    });
    expect(moved.status).toBe(403);
    expect(moved.json.error?.code).toBe("upstream_requires_operator");

    // Through the gateway: the echo example on that origin, called by an agent.
    setExampleUrlResolver(() => echo.url);
    const installed = await installExample<{ connectionId: string }>(demo, "echo");
    expect(installed.status, JSON.stringify(installed.json)).toBe(201);
    connectionId = installed.json.connectionId;
    const run = await startRun(demo);
    token = run.json.gateway.token;
    const ok = await call<{ result?: unknown }>(callRoute.POST, "POST", "/api/tool-gateway/tools/call", {
      token,
      body: { tool: "echo__echo", arguments: { text: "hello" } },
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
  });

  it("removed from the list later, the next call fails closed (and the connection's own flag grants nothing)", async () => {
    // A legacy row claiming trusted_local must not matter.
    await database.db
      .update(toolConnections)
      .set({ trustedLocal: true })
      .where(eq(toolConnections.id, connectionId));
    const removed = await listRemove(new URL(echo.url).origin);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(removed.json.entries).toEqual([]);
    expect(removed.json.unlisted?.map((u) => u.origin)).toContain(new URL(echo.url).origin);
    const refused = await call<{ error?: { code: string }; invocationId?: string }>(
      callRoute.POST,
      "POST",
      "/api/tool-gateway/tools/call",
      { token, body: { tool: "echo__echo", arguments: { text: "again" } } },
    );
    expect(refused.status).toBe(502);
    expect(refused.json.error?.code).toBe("upstream_error");
    const [inv] = await database.db
      .select({ errorCode: toolInvocations.errorCode })
      .from(toolInvocations)
      .where(and(eq(toolInvocations.companyId, companyId), eq(toolInvocations.toolName, "echo__echo")))
      .orderBy(sql`${toolInvocations.createdAt} desc`)
      .limit(1);
    expect(inv?.errorCode).toBe("upstream_requires_operator");
    const health = await testConnection(connectionId);
    expect(health.json.errorCode).toBe("upstream_requires_operator");
    expect(health.json.error).toBe(
      `upstream_requires_operator: ${CONNECTION_TEST_ERRORS.upstream_requires_operator}`,
    );
    // The operator sees the origin live connections still use, to allow it again or not.
    const list = await call<{ unlisted: { origin: string; connections: number; companies: number }[] }>(
      privateUpstreamsRoute.GET,
      "GET",
      "/",
      { cookie: operatorCookie },
    );
    expect(list.json.unlisted).toContainEqual({
      origin: new URL(echo.url).origin,
      connections: 2,
      companies: 1,
    });
    const removedLog = await database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.action, "private_upstream.remove"));
    expect(removedLog).toHaveLength(1);
  });
});

describe("connection test errors", () => {
  it("are a classified code with our own sentence, never the upstream's text", async () => {
    expect((await listAdd(operatorCookie, hostile.origin)).status).toBe(201);
    // A port with nothing listening (bound, then closed), also listed.
    const gone = http.createServer();
    const gonePort = await listenLoopback(gone);
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    expect((await listAdd(operatorCookie, `http://127.0.0.1:${gonePort}`)).status).toBe(201);

    const cases: [string, string[]][] = [
      [`${hostile.origin}/500`, ["upstream_protocol_error"]],
      [`${hostile.origin}/401`, ["upstream_auth_failed"]],
      // The SDK may report an error answer to `initialize` as a closed connection.
      [`${hostile.origin}/rpc-error`, ["upstream_protocol_error", "upstream_unreachable"]],
      [`${hostile.origin}/garbage`, ["upstream_protocol_error"]],
      // The SDK refuses a cross-origin redirect itself (the guard would refuse metadata anyway):
      // a refused redirect, never a protocol error.
      [`${hostile.origin}/redirect`, ["upstream_redirect_refused"]],
      [`http://127.0.0.1:${gonePort}/mcp`, ["upstream_unreachable"]],
      // A redirect to a private origin nobody listed: the guard's reason, not a protocol error.
      [`${hostile.origin}/redirect-private`, ["upstream_requires_operator"]],
    ];
    for (const [url, codes] of cases) {
      const conn = await createConnection(url);
      expect(conn.status, JSON.stringify(conn.json)).toBe(201);
      const res = await testConnection(conn.json.id);
      expect(res.status).toBe(200);
      expect(res.json.health, url).toBe("error");
      expect(codes, url).toContain(res.json.errorCode);
      expect(res.json.error).toBe(
        `${res.json.errorCode}: ${CONNECTION_TEST_ERRORS[res.json.errorCode as keyof typeof CONNECTION_TEST_ERRORS]}`,
      );
      expect(JSON.stringify(res.json), url).not.toContain(CANARY);
      const detail = await call(connectionRoute.GET, "GET", "/", {
        ...board(),
        params: { companyId, connectionId: conn.json.id },
      });
      expect(JSON.stringify(detail.json)).not.toContain(CANARY);
      // A catalog refresh fails the same way: classified, no upstream text.
      const refresh = await call<{ error?: { code: string } }>(refreshRoute.POST, "POST", "/", {
        ...board(),
        params: { companyId, connectionId: conn.json.id },
      });
      expect(refresh.status, url).toBeGreaterThanOrEqual(400);
      expect(Object.keys(CONNECTION_TEST_ERRORS)).toContain(refresh.json.error?.code);
      expect(JSON.stringify(refresh.json), url).not.toContain(CANARY);
    }
    const everything = JSON.stringify(
      await database.db.execute(sql`select * from activity_log where company_id = ${companyId}`),
    );
    expect(everything).not.toContain(CANARY);
    // The server log has the (redacted) cause for an operator.
    expect(logs.some((l) => l.includes("tool_connection.test_failed"))).toBe(true);
  });
});
