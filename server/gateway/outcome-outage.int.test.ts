/**
 * Issue 35 item 3: a write that already ran upstream when the database went away is never
 * answered `503 database_unavailable` (an invitation to a blind retry of a write that
 * happened). Its outcome is kept in memory and recorded once the database is back — within a
 * lease — and the agent gets the result; past that, it is told the outcome is unknown.
 *
 * The database is cut for real: the gateway talks to PostgreSQL through a loopback TCP proxy
 * that this test closes (every connection reset, new ones refused) and opens again.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/db/client";
import { toolCallEvents, toolInvocations } from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import { type HttpFixture, startHttpFixture } from "@/fixtures/mcp/http";
import { createRelayServer, RelayState } from "@/fixtures/mcp/relay";
import type { DemoCredentials } from "@/server/core/seed";
import { databaseBreaker } from "@/server/database/breaker";
import { LEASE_ENV } from "@/server/ledger/lease";
import { recordAttempt } from "@/server/ledger/record-attempt";
import { sweepExpiredLeases } from "@/server/ledger/sweep";
import { bindSecret } from "@/server/secrets/bindings";
import { createSecret } from "@/server/secrets/secrets";
import { CuttableProxy } from "@/server/testing/cuttable-proxy";
import { installMcpApplication } from "@/server/testing/mcp-app";
import { boardKeyContext, closeDemoWorld, demoWorld } from "@/server/testing/world";
import { gatewayCallTool } from "./call-tool";
import { execContextOf, executeInvocation } from "./execute";
import { authenticateGatewayToken } from "./sessions";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let upstream: HttpFixture<unknown>;
const state = new RelayState();
let token: string;
let connectionId: string;
let proxy: CuttableProxy;
let through: Database;
const previousLease = process.env[LEASE_ENV];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-outcome-outage-", gateway: true }));
  upstream = (await startHttpFixture(() => createRelayServer(state))) as HttpFixture<unknown>;
  ({ token, connectionId } = await installMcpApplication(database.db, demo, {
    slug: "relay",
    url: upstream.url,
  }));
  const url = new URL(database.url);
  proxy = new CuttableProxy(url.hostname, Number(url.port || 5432));
  await proxy.open();
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  through = openDatabase(url.toString(), { max: 4 });
}, 90_000);

afterAll(async () => {
  if (previousLease === undefined) delete process.env[LEASE_ENV];
  else process.env[LEASE_ENV] = previousLease;
  databaseBreaker().reset();
  await through?.close();
  await proxy?.cut();
  await upstream?.close();
  await closeDemoWorld(database);
});

/** A slow write through the proxied database; the database is cut while the upstream runs it. */
async function writeThroughOutage(id: string, opts: { ms: number; cutAt: number; restoreAt: number }) {
  const gw = await authenticateGatewayToken(database.db, token, new Date());
  const started = Date.now();
  const answer = gatewayCallTool(through.db, gw, {
    tool: "relay__slow_write",
    arguments: { id, ms: opts.ms },
    idempotencyKey: id,
  });
  const settled = answer.then(
    () => Date.now() - started,
    () => Date.now() - started,
  );
  await sleep(opts.cutAt);
  // The upstream has the request by now, and the database goes away.
  await proxy.cut();
  await sleep(opts.restoreAt - opts.cutAt);
  await proxy.open();
  return { outcome: await answer, ms: await settled };
}

describe("a write that ran when the database went away", () => {
  it("is recorded once the database is back, and the agent gets its result (never a 503)", async () => {
    process.env[LEASE_ENV] = "6000";
    const { outcome } = await writeThroughOutage("outage-recorded", {
      ms: 1500,
      cutAt: 600,
      restoreAt: 3000,
    });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(state.written.filter((w) => w === "outage-recorded")).toHaveLength(1);
    const inv = (
      await database.db
        .select({
          executionStatus: toolInvocations.executionStatus,
          resultEncrypted: toolInvocations.resultEncrypted,
        })
        .from(toolInvocations)
        .where(eq(toolInvocations.id, (outcome as { invocationId: string }).invocationId))
    )[0]!;
    expect(inv.executionStatus).toBe("succeeded");
    expect(inv.resultEncrypted).not.toBeNull();
    const events = await database.db
      .select({ eventType: toolCallEvents.eventType })
      .from(toolCallEvents)
      .where(eq(toolCallEvents.invocationId, (outcome as { invocationId: string }).invocationId));
    expect(events.filter((e) => e.eventType === "result_returned")).toHaveLength(1);
  });

  it("past the lease it answers invocation_outcome_unknown, and the row is left for the sweeper", async () => {
    process.env[LEASE_ENV] = "1500";
    const { outcome, ms } = await writeThroughOutage("outage-abandoned", {
      ms: 900,
      cutAt: 400,
      restoreAt: 4500,
    });
    expect(outcome.ok).toBe(false);
    expect(outcome).toMatchObject({ code: "invocation_outcome_unknown", status: 409 });
    // Bounded: it answered before the database came back (the lease after the call, not more).
    expect(ms).toBeLessThan(4500);
    expect(state.written).toContain("outage-abandoned");
    await sweepExpiredLeases(database.db);
    const [inv] = await database.db
      .select({ executionStatus: toolInvocations.executionStatus })
      .from(toolInvocations)
      .where(eq(toolInvocations.id, (outcome as { invocationId: string }).invocationId));
    expect(inv!.executionStatus).toBe("outcome_unknown");
  });

  it("one that went away before the request was sent is recorded as never run; the retry runs it", async () => {
    process.env[LEASE_ENV] = "6000";
    // A bound secret makes the gateway read the database between the claim and the request.
    const ctx = boardKeyContext(database.db, demo.companyId);
    const secret = await createSecret(ctx, demo.companyId, {
      name: "RELAY_TOKEN",
      value: "relay-secret-value-1",
    });
    await bindSecret(ctx, demo.companyId, connectionId, {
      secretId: secret.id,
      placement: "http_header",
      target: "X-Relay-Token",
    });
    const id = "outage-before-send";
    const input = { tool: "relay__slow_write", arguments: { id, ms: 10 }, idempotencyKey: id };
    const gw = await authenticateGatewayToken(database.db, token, new Date());
    const attempt = await recordAttempt(database.db, {
      actorType: "gateway_session",
      actorId: gw.sessionId,
      context: { ...gw, sessionValid: true },
      sessionId: gw.sessionId,
      toolName: input.tool,
      arguments: input.arguments,
      idempotencyKey: id,
      now: new Date(),
      accessVersion: gw.accessVersion,
    });
    expect(attempt.outcome).toBe("allow");
    await proxy.cut();
    const execution = executeInvocation(
      through.db,
      execContextOf(gw),
      attempt.invocation,
      attempt.decision,
      attempt.canonicalArguments!,
      { leaseToken: attempt.leaseToken, snapshot: attempt.snapshot },
    );
    await expect(execution).rejects.toThrow(); // the database failure itself (503 at the route)
    await sleep(500);
    await proxy.open();
    const status = async () =>
      (
        await database.db
          .select({ s: toolInvocations.executionStatus, e: toolInvocations.errorCode })
          .from(toolInvocations)
          .where(eq(toolInvocations.id, attempt.invocation.id))
      )[0]!;
    for (let i = 0; i < 50 && (await status()).s === "running"; i++) await sleep(100);
    expect(await status()).toEqual({ s: "failed", e: "database_unavailable" });
    expect(state.written).not.toContain(id);
    databaseBreaker().reset();
    // The agent's retry is decided afresh and runs once — no person is asked about it.
    const retry = await gatewayCallTool(database.db, gw, input);
    expect(retry.ok, JSON.stringify(retry)).toBe(true);
    expect(state.written.filter((w) => w === id)).toHaveLength(1);
  });
});
