// Issue 16, deliverable 5: a database that cannot be reached answers `503 database_unavailable`
// fast, the breaker refuses without a connection attempt per request and closes again; the
// snapshot reload is coalesced; slot rows are reconciled against live processes.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as projectsRoute from "@/app/api/companies/[companyId]/projects/route";
import * as installRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/install/route";
import * as liveRoute from "@/app/api/health/live/route";
import * as healthRoute from "@/app/api/health/route";
import { type Database, openDatabase } from "@/db/client";
import { toolConnections, toolRuntimeSlots } from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import { clearSnapshotCache, getAccessSnapshot } from "@/server/access/snapshot";
import { type DemoCredentials, seedDemoIfEmpty } from "@/server/core/seed";
import { setGatewayDatabase } from "@/server/gateway/http";
import { setRouteDatabase } from "@/server/http/route";
import { reconcileSlotRows, shutdownAllSlots } from "@/server/runtime";
import { runtimeSupervisor } from "@/server/runtime/supervisor";
import { call } from "@/server/testing/api";
import { databaseBreaker } from "./breaker";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let down: Database;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

beforeAll(async () => {
  process.env.PAPERCLIP_HOME = mkdtempSync(path.join(tmpdir(), "pc-outage-"));
  database = await createTestDatabase();
  demo = (await seedDemoIfEmpty(database.db, "http://localhost:3100"))!;
  down = openDatabase(`postgres://nobody:pw@127.0.0.1:${await closedPort()}/none`, { max: 2 });
}, 60_000);

afterAll(async () => {
  setRouteDatabase(null);
  setGatewayDatabase(null);
  databaseBreaker().reset();
  await shutdownAllSlots();
  await down?.close();
  await database?.drop();
});

describe("a database that cannot be reached", () => {
  it("answers 503 database_unavailable with Retry-After, then refuses at once while open, and recovers", async () => {
    setRouteDatabase(down.db);
    const breaker = databaseBreaker();
    const first = await call<{ error: { code: string } }>(projectsRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
    });
    expect(first.status).toBe(503);
    expect(first.json.error.code).toBe("database_unavailable");
    // The probe fails on the refused port: the breaker opens.
    for (let i = 0; i < 50 && breaker.state === "closed"; i++) await new Promise((r) => setTimeout(r, 20));
    expect(breaker.state).not.toBe("closed");
    const probes = breaker.status().probes;
    const refused = breaker.status().refused;
    const started = performance.now();
    for (let i = 0; i < 50; i++) {
      const res = await call<{ error: { code: string } }>(projectsRoute.GET, "GET", "/", {
        token: demo.boardApiKey,
        params: { companyId: demo.companyId },
      });
      expect(res.status).toBe(503);
      expect(res.json.error.code).toBe("database_unavailable");
      expect(res.headers.get("retry-after")).toBe("1");
      expect(["open", "half_open"]).toContain(res.headers.get("x-paperclip-db"));
    }
    // 50 refusals in well under a second, with at most the timer's probe in between.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(breaker.status().probes - probes).toBeLessThanOrEqual(1);
    // Refused by the breaker itself, not by a failed connection attempt.
    expect(breaker.status().refused - refused).toBe(50);
    const health = await call<{ database: string; breaker: { state: string } }>(
      healthRoute.GET,
      "GET",
      "/api/health",
    );
    expect(health.status).toBe(503);
    expect(health.json.database).toBe("unavailable");
    expect(health.json.breaker.state).not.toBe("closed");
    // Liveness: the database is down, not this process — a restart would not help.
    setGatewayDatabase(down.db);
    const live = await liveRoute.GET();
    expect(live.status).toBe(200);

    // The database is back (the routes' database answers again): the next probe closes it.
    setRouteDatabase(database.db);
    setGatewayDatabase(database.db);
    breaker.verify(() => database.db.execute("select 1" as never));
    for (let i = 0; i < 150 && breaker.state !== "closed"; i++) await new Promise((r) => setTimeout(r, 20));
    expect(breaker.state).toBe("closed");
    const ok = await call(projectsRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
    });
    expect(ok.status).toBe(200);
    expect((await call(healthRoute.GET, "GET", "/api/health")).status).toBe(200);
    expect((await liveRoute.GET()).status).toBe(200);
  }, 30_000);
});

describe("snapshot reloads", () => {
  it("concurrent misses of one company and version share one load", async () => {
    clearSnapshotCache();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => getAccessSnapshot(database.db, demo.companyId)),
    );
    expect(new Set(all).size).toBe(1);
  });
});

describe("slot rows", () => {
  it("a live row of this server with no live slot behind it is reconciled to stopped", async () => {
    setRouteDatabase(database.db);
    const installed = await call<{ connectionId: string }>(installRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId, exampleId: "lab" },
    });
    expect(installed.status, JSON.stringify(installed.json)).toBe(201);
    const [conn] = await database.db
      .select()
      .from(toolConnections)
      .where(eq(toolConnections.id, installed.json.connectionId));
    const supervisor = runtimeSupervisor();
    const base = {
      companyId: demo.companyId,
      connectionId: conn!.id,
      templateId: conn!.stdioTemplateId,
      workspaceScope: "none",
      credentialScope: "none",
      trustScope: "company",
      host: supervisor.host,
      idleTtlMs: 60_000,
      status: "running" as const,
      pid: 2_000_000_000, // no such process
      startedAt: new Date(),
    };
    const [stale] = await database.db
      .insert(toolRuntimeSlots)
      .values({ ...base, slotKey: `stale-${randomUUID()}`, supervisorId: supervisor.supervisorId })
      .returning();
    const [foreign] = await database.db
      .insert(toolRuntimeSlots)
      .values({ ...base, slotKey: `foreign-${randomUUID()}`, supervisorId: `${supervisor.host}/1/1` })
      .returning();
    const out = await reconcileSlotRows(database.db);
    expect(out.stopped).toBe(1);
    const rows = await database.db.select().from(toolRuntimeSlots);
    expect(rows.find((r) => r.id === stale!.id)).toMatchObject({ status: "stopped", pid: null });
    expect(rows.find((r) => r.id === foreign!.id)?.status).toBe("running");
  });
});
