// Issue 23: a `tools/call` or `tools/list` may run on a session cached in process for a few
// seconds (one statement and one commit less per call, one round trip less per listing),
// verified by the request's first write (the call's ledger row, the listing's `discovery`
// event). These tests prove that revocation, the end of the run, expiry and an access change
// are all still effective on the very next request, and that nothing is written or listed for a
// request refused that way.
import { count, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as revokeRoute from "@/app/api/tool-gateway/sessions/[sessionId]/revoke/route";
import { toolCallEvents, toolGatewaySessions, toolInvocations } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { HttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { setExampleUrlResolver } from "@/server/examples/examples";
import { call } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, installWithFixture, startRun } from "@/server/testing/world";
import { handleGatewayMcp } from "./mcp";
import { sessionCacheHits } from "./sessions";

const PATH = "/api/tool-gateway/mcp";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let echo: HttpFixture<unknown>;
let install: { connectionId: string; profileId: string };
type Run = { id: string; gateway: { token: string; sessionId: string } };

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-gw-session-cache-", gateway: true }));
  const res = await installWithFixture<typeof install>(database.db, demo, "echo");
  echo = res.fixture;
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  install = res.json;
}, 60_000);

afterEach(() => {
  delete process.env.PAPERCLIP_SESSION_CACHE_MS;
});

afterAll(async () => {
  setExampleUrlResolver(null);
  await echo?.close();
  await closeDemoWorld(database);
});

async function newRun(): Promise<Run> {
  const started = await startRun<Run>(demo);
  expect(started.status).toBe(201);
  return started.json;
}

type RpcAnswer = { result?: unknown; error?: { code?: number; message?: string } };
let nextId = 1;
/** One JSON-RPC request to the gateway's MCP endpoint (stateless: each POST authenticates). */
async function rpc(token: string, method: string, params: Record<string, unknown>) {
  const res = await handleGatewayMcp(
    new Request(`http://localhost:3100${PATH}`, {
      method: "POST",
      headers: {
        host: "localhost:3100",
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    }),
  );
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as RpcAnswer };
}
const echoCall = (token: string, text = "cached") =>
  rpc(token, "tools/call", { name: "echo__echo", arguments: { text } });

/** Audit events that refused this session as `session_invalid`. */
async function sessionInvalidEvents(sessionId: string) {
  const [row] = await database.db
    .select({ n: count() })
    .from(toolCallEvents)
    .where(
      sql`${toolCallEvents.sessionId} = ${sessionId} and ${toolCallEvents.reasonCode} = 'session_invalid'`,
    );
  return row!.n;
}

async function ledgerRows(sessionId: string) {
  const [row] = await database.db
    .select({ n: count() })
    .from(toolInvocations)
    .where(eq(toolInvocations.sessionId, sessionId));
  return row!.n;
}

describe("the session cache of tools/call", () => {
  it("serves repeated calls from the cache, each still recorded on the ledger", async () => {
    const run = await newRun();
    const before = sessionCacheHits.count;
    for (let i = 0; i < 3; i++) {
      const r = await echoCall(run.gateway.token, `call ${i}`);
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.json.result)).toContain(`call ${i}`);
    }
    // The first call authenticated from the database; the next two came from the cache.
    expect(sessionCacheHits.count - before).toBe(2);
    expect(await ledgerRows(run.gateway.sessionId)).toBe(3);
  });

  it("a revoked session is refused on the very next call, and that call writes no ledger row", async () => {
    const run = await newRun();
    expect((await echoCall(run.gateway.token)).status).toBe(200);
    const revoked = await call(revokeRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { sessionId: run.gateway.sessionId },
    });
    expect(revoked.status, JSON.stringify(revoked.json)).toBe(200);
    const rows = await ledgerRows(run.gateway.sessionId);
    const hits = sessionCacheHits.count;
    const refused = await echoCall(run.gateway.token);
    expect(sessionCacheHits.count).toBe(hits + 1); // it was served from the cache…
    expect(refused.status, JSON.stringify(refused.json)).toBe(401); // …and still refused
    expect(await ledgerRows(run.gateway.sessionId)).toBe(rows);
    expect(await sessionInvalidEvents(run.gateway.sessionId)).toBeGreaterThan(0);
  });

  it("a session revoked in the database by another replica is refused on the next call too", async () => {
    const run = await newRun();
    expect((await echoCall(run.gateway.token)).status).toBe(200);
    // Not through this process's verbs: as another replica would, straight in the database.
    await database.db
      .update(toolGatewaySessions)
      .set({ revokedAt: new Date() })
      .where(eq(toolGatewaySessions.id, run.gateway.sessionId));
    const rows = await ledgerRows(run.gateway.sessionId);
    expect((await echoCall(run.gateway.token)).status).toBe(401);
    expect(await ledgerRows(run.gateway.sessionId)).toBe(rows);
  });

  it("an expired session and an ended run are refused on the next call", async () => {
    const expiring = await newRun();
    expect((await echoCall(expiring.gateway.token)).status).toBe(200);
    await database.db
      .update(toolGatewaySessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolGatewaySessions.id, expiring.gateway.sessionId));
    expect((await echoCall(expiring.gateway.token)).status).toBe(401);

    const ending = await newRun();
    expect((await echoCall(ending.gateway.token)).status).toBe(200);
    await database.db.execute(
      sql`update heartbeat_runs set status = 'succeeded', finished_at = now() where id = ${ending.id}`,
    );
    expect((await echoCall(ending.gateway.token)).status).toBe(401);
  });

  it("an access change is decided on the next call: a tool taken out of the profile is refused", async () => {
    const run = await newRun();
    expect((await echoCall(run.gateway.token)).status).toBe(200);
    // The echo tool is disabled in the catalog and the company's access version bumped, as
    // the review verb does.
    await database.db.execute(
      sql`update tool_catalog_entries set status = 'disabled' where connection_id = ${install.connectionId} and name = 'echo'`,
    );
    await database.db.execute(
      sql`update companies set access_version = access_version + 1 where id = ${demo.companyId}`,
    );
    const refused = await echoCall(run.gateway.token);
    // Unknown or hidden tool: one JSON-RPC error (docs/gateway.md), and a denied ledger row.
    expect(refused.json.error?.code).toBe(-32602);
    const [last] = await database.db
      .select({ decision: toolInvocations.decision })
      .from(toolInvocations)
      .where(eq(toolInvocations.sessionId, run.gateway.sessionId))
      .orderBy(sql`${toolInvocations.createdAt} desc`)
      .limit(1);
    expect(last?.decision).toBe("deny");
    await database.db.execute(
      sql`update tool_catalog_entries set status = 'active' where connection_id = ${install.connectionId} and name = 'echo'`,
    );
    await database.db.execute(
      sql`update companies set access_version = access_version + 1 where id = ${demo.companyId}`,
    );
    expect((await echoCall(run.gateway.token)).status).toBe(200);
  });

  it("PAPERCLIP_SESSION_CACHE_MS=0 switches the cache off", async () => {
    process.env.PAPERCLIP_SESSION_CACHE_MS = "0";
    const run = await newRun();
    const before = sessionCacheHits.count;
    for (let i = 0; i < 2; i++) expect((await echoCall(run.gateway.token)).status).toBe(200);
    expect(sessionCacheHits.count).toBe(before);
  });
});

describe("the session cache of tools/list", () => {
  const list = (token: string) => rpc(token, "tools/list", {});
  const listedNames = (r: { json: RpcAnswer }) =>
    ((r.json.result as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((t) => t.name);
  async function discoveries(sessionId: string) {
    const [row] = await database.db
      .select({ n: count() })
      .from(toolCallEvents)
      .where(sql`${toolCallEvents.sessionId} = ${sessionId} and ${toolCallEvents.eventType} = 'discovery'`);
    return row!.n;
  }

  it("serves repeated listings from the cache, each with its discovery event", async () => {
    const run = await newRun();
    const before = sessionCacheHits.count;
    for (let i = 0; i < 3; i++) {
      const r = await list(run.gateway.token);
      expect(r.status).toBe(200);
      expect(listedNames(r)).toContain("echo__echo");
    }
    expect(sessionCacheHits.count - before).toBe(2);
    expect(await discoveries(run.gateway.sessionId)).toBe(3);
  });

  it("a session revoked by another replica lists nothing on the very next request, and writes no discovery", async () => {
    const run = await newRun();
    expect((await list(run.gateway.token)).status).toBe(200);
    await database.db
      .update(toolGatewaySessions)
      .set({ revokedAt: new Date() })
      .where(eq(toolGatewaySessions.id, run.gateway.sessionId));
    const listed = await discoveries(run.gateway.sessionId);
    const hits = sessionCacheHits.count;
    const refused = await list(run.gateway.token);
    expect(sessionCacheHits.count).toBe(hits + 1); // served from the cache…
    expect(refused.status, JSON.stringify(refused.json)).toBe(401); // …and still refused
    expect(refused.json.result).toBeUndefined();
    expect(await discoveries(run.gateway.sessionId)).toBe(listed);
    // The refusal itself is on the audit trail.
    expect(await sessionInvalidEvents(run.gateway.sessionId)).toBeGreaterThan(0);
  });

  it("an expired session and an ended run list nothing on the next request", async () => {
    const expiring = await newRun();
    expect((await list(expiring.gateway.token)).status).toBe(200);
    await database.db
      .update(toolGatewaySessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(toolGatewaySessions.id, expiring.gateway.sessionId));
    expect((await list(expiring.gateway.token)).status).toBe(401);

    const ending = await newRun();
    expect((await list(ending.gateway.token)).status).toBe(200);
    await database.db.execute(
      sql`update heartbeat_runs set status = 'succeeded', finished_at = now() where id = ${ending.id}`,
    );
    expect((await list(ending.gateway.token)).status).toBe(401);
  });

  it("an access change shows on the next listing: a tool taken out of the catalog is no longer listed", async () => {
    const run = await newRun();
    expect(listedNames(await list(run.gateway.token))).toContain("echo__echo");
    await database.db.execute(
      sql`update tool_catalog_entries set status = 'disabled' where connection_id = ${install.connectionId} and name = 'echo'`,
    );
    await database.db.execute(
      sql`update companies set access_version = access_version + 1 where id = ${demo.companyId}`,
    );
    const after = await list(run.gateway.token);
    expect(after.status).toBe(200);
    expect(listedNames(after)).not.toContain("echo__echo");
    await database.db.execute(
      sql`update tool_catalog_entries set status = 'active' where connection_id = ${install.connectionId} and name = 'echo'`,
    );
    await database.db.execute(
      sql`update companies set access_version = access_version + 1 where id = ${demo.companyId}`,
    );
    expect(listedNames(await list(run.gateway.token))).toContain("echo__echo");
  });
});
