import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as exampleSmokeRoute from "@/app/api/companies/[companyId]/tools/examples/[exampleId]/smoke/route";
import * as smokeRoute from "@/app/api/companies/[companyId]/tools/examples/smoke/route";
import * as companiesRoute from "@/app/api/companies/route";
import {
  agents,
  companies,
  heartbeatRuns,
  toolApplications,
  toolCatalogEntries,
  toolConnections,
  toolPolicies,
  toolProfiles,
  toolRuntimeSlots,
} from "@/db/schema";
import { createTestDatabase } from "@/db/test/database";
import { runSmokeCommand } from "@/server/cli/smoke-command";
import { systemContext } from "@/server/context";
import type { DemoCredentials } from "@/server/core/seed";
import { shutdownAllSlots } from "@/server/runtime";
import { call } from "@/server/testing/api";
import { serveRoutes } from "@/server/testing/serve";
import {
  closeDemoWorld,
  demoWorld,
  installExample,
  ownerSession,
  startExampleFixtures,
} from "@/server/testing/world";
import { runAllSmokeChecks, SMOKE_ALL_CHECK_IDS } from "./smoke-all";
import { ensureSmokeCompanies } from "./smoke-companies";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let closeFixtures: () => Promise<void>;

type Result = {
  passed: boolean;
  durationMs: number;
  checks: { id: string; passed: boolean; error: string | null; evidence: unknown }[];
};

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-smoke-all-", gateway: true }));
  const fixtures = await startExampleFixtures(database.db, ["echo", "todo", "outbox", "social", "hostile"]);
  closeFixtures = async () => {
    for (const f of fixtures.values()) await f.close();
  };
}, 60_000);

afterAll(async () => {
  await shutdownAllSlots();
  await closeFixtures?.();
  await closeDemoWorld(database);
});

const TABLES = { agents, heartbeatRuns, toolProfiles, toolPolicies, toolConnections, toolApplications };

async function countsIn(companyIds: string[]) {
  const out: Record<string, number> = {};
  for (const [name, t] of Object.entries(TABLES)) {
    const [row] = await database.db.select({ n: count() }).from(t).where(inArray(t.companyId, companyIds));
    out[name] = row!.n;
  }
  return out;
}

async function liveProcesses() {
  const rows = await database.db.select({ status: toolRuntimeSlots.status }).from(toolRuntimeSlots);
  return rows.filter((r) => r.status === "running" || r.status === "idle" || r.status === "starting").length;
}

const runSmoke = () =>
  call<Result>(smokeRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params: { companyId: demo.companyId },
  });

const failed = (r: Result) => r.checks.filter((c) => !c.passed);

describe("run all smoke checks", () => {
  it("passes 13/13 twice without growing the smoke companies or touching the caller", async () => {
    const callerBefore = await countsIn([demo.companyId]);
    const t0 = Date.now();
    const first = await runSmoke();
    console.log(`smoke run 1: ${Date.now() - t0} ms`);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(failed(first.json), JSON.stringify(failed(first.json), null, 1)).toEqual([]);
    expect(first.json.checks.map((c) => c.id)).toEqual(SMOKE_ALL_CHECK_IDS);
    const smoke = await ensureSmokeCompanies(database.db);
    const smokeAfterFirst = await countsIn([smoke.a, smoke.b]);
    const processesAfterFirst = await liveProcesses();
    const t1 = Date.now();
    const second = await runSmoke();
    console.log(`smoke run 2: ${Date.now() - t1} ms`);
    expect(failed(second.json), JSON.stringify(failed(second.json), null, 1)).toEqual([]);
    expect(await countsIn([smoke.a, smoke.b])).toEqual(smokeAfterFirst);
    expect(await countsIn([demo.companyId])).toEqual(callerBefore);
    expect(await liveProcesses()).toBeLessThanOrEqual(processesAfterFirst);
    const last = await call<Result>(smokeRoute.GET, "GET", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
    });
    expect(last.json.checks).toHaveLength(13);
    expect(last.json.passed).toBe(true);
  }, 240_000);

  it("the smoke companies appear in no company list", async () => {
    const smoke = await ensureSmokeCompanies(database.db);
    const owner = await ownerSession(database.db, demo);
    const listed = await call<{ companies: { id: string }[] }>(companiesRoute.GET, "GET", "/", {
      cookie: owner.cookie,
    });
    const ids = JSON.stringify(listed.json);
    expect(listed.status).toBe(200);
    expect(ids).not.toContain(smoke.a);
    expect(ids).not.toContain(smoke.b);
    const byKey = await call(companiesRoute.GET, "GET", "/", { token: demo.boardApiKey });
    expect(JSON.stringify(byKey.json)).not.toContain(smoke.a);
    // Creation is once per instance: a second ensure (another replica) finds the same rows.
    const again = await Promise.all([ensureSmokeCompanies(database.db), ensureSmokeCompanies(database.db)]);
    expect(again).toEqual([smoke, smoke]);
    const rows = await database.db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.smokeRole, "a"));
    expect(rows).toHaveLength(1);
  });

  it("a check fails when its guarantee is broken (test-only switch), and the next run resets it", async () => {
    // `breakChecks` is honoured only when NODE_ENV=test (vitest sets it).
    const owner = await ownerSession(database.db, demo);
    const ctx = {
      ...systemContext(database.db, "t"),
      actor: { type: "user" as const, userId: owner.id, email: owner.email },
    };
    const broken = await runAllSmokeChecks(ctx, demo.companyId, {
      breakChecks: ["approval_pending", "rate_limit", "unauthorized"],
    });
    expect(
      failed(broken)
        .map((c) => c.id)
        .sort(),
    ).toEqual(expect.arrayContaining(["approval_pending", "rate_limit", "unauthorized"]));
    const fixed = await runAllSmokeChecks(ctx, demo.companyId);
    expect(failed(fixed), JSON.stringify(failed(fixed), null, 1)).toEqual([]);
  }, 240_000);

  it("`npm run cli -- smoke` prints every check and exits 0, or 1 for a refused key", async () => {
    const served = await serveRoutes({
      "/api/companies": companiesRoute.GET,
      "/api/companies/[companyId]/tools/examples/smoke": smokeRoute.POST,
    });
    try {
      const lines: string[] = [];
      const code = await runSmokeCommand({
        url: served.origin,
        boardKey: demo.boardApiKey,
        out: (l) => lines.push(l),
      });
      expect(code, lines.join("\n")).toBe(0);
      expect(lines.filter((l) => l.startsWith("✔"))).toHaveLength(13);
      expect(lines.at(-1)).toMatch(/^13\/13 smoke checks passed/);
      const refused: string[] = [];
      expect(
        await runSmokeCommand({ url: served.origin, boardKey: "pcb_nope", out: (l) => refused.push(l) }),
      ).toBe(1);
    } finally {
      await served.close();
    }
  }, 240_000);

  it("replicas racing on a fresh database create each smoke company once", async () => {
    const fresh = await createTestDatabase();
    try {
      const all = await Promise.all([1, 2, 3, 4].map(() => ensureSmokeCompanies(fresh.db)));
      expect(new Set(all.map((c) => `${c.a}/${c.b}`)).size).toBe(1);
      const rows = await fresh.db
        .select({ role: companies.smokeRole })
        .from(companies)
        .where(inArray(companies.id, [all[0]!.a, all[0]!.b]));
      expect(rows.map((r) => r.role).sort()).toEqual(["a", "b"]);
      const [n] = await fresh.db.select({ n: count() }).from(companies);
      expect(n!.n).toBe(2);
    } finally {
      await fresh.drop();
    }
  });

  it("the Missing credential example installs with its secret revoked: its calls fail closed, value-free", async () => {
    const installed = await installExample(demo, "missing-credential");
    expect(installed.status, JSON.stringify(installed.json)).toBe(201);
    const smoke = await call<{
      passed: boolean;
      checks: { name: string; passed: boolean; evidence: unknown }[];
    }>(exampleSmokeRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId, exampleId: "missing-credential" },
      body: {},
    });
    expect(smoke.status, JSON.stringify(smoke.json)).toBe(200);
    expect(smoke.json.checks.map((c) => c.name)).toEqual([
      "tools are listed through the gateway",
      "a call fails closed as a missing secret, with a value-free audit",
    ]);
    expect(smoke.json.passed, JSON.stringify(smoke.json.checks)).toBe(true);
  });

  it("the Hostile server example installs with every tool quarantined and flagged; nothing reaches the agent", async () => {
    const installed = await installExample<{
      connectionId: string;
      tools: { name: string; status: string }[];
    }>(demo, "hostile");
    expect(installed.status, JSON.stringify(installed.json)).toBe(201);
    expect(installed.json.tools.length).toBeGreaterThan(5);
    expect(installed.json.tools.every((t) => t.status === "quarantined")).toBe(true);
    const [conn] = await database.db
      .select({ status: toolConnections.status, enabled: toolConnections.enabled })
      .from(toolConnections)
      .where(eq(toolConnections.id, installed.json.connectionId));
    expect(conn).toMatchObject({ status: "draft", enabled: false });
    const smoke = () =>
      call<{
        passed: boolean;
        checks: { name: string; passed: boolean; evidence: Record<string, unknown> }[];
      }>(exampleSmokeRoute.POST, "POST", "/", {
        token: demo.boardApiKey,
        params: { companyId: demo.companyId, exampleId: "hostile" },
        body: {},
      });
    const first = await smoke();
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json.checks.map((c) => c.name)).toEqual([
      "no tool is visible to an agent before review, and a direct call is refused",
      "injection and a false read-only claim in the metadata are flagged for the reviewer",
    ]);
    expect(first.json.passed, JSON.stringify(first.json.checks)).toBe(true);
    // The check can fail: approve the lying destructive tool and the flagged check no longer holds.
    await database.db
      .update(toolCatalogEntries)
      .set({ status: "active" })
      .where(
        and(
          eq(toolCatalogEntries.connectionId, installed.json.connectionId),
          eq(toolCatalogEntries.name, "delete_everything"),
        ),
      );
    const broken = await smoke();
    expect(broken.json.passed).toBe(false);
    expect(broken.json.checks.find((c) => !c.passed)?.name).toMatch(/flagged/);
  });

  it("a second smoke run while one is in progress is refused with smoke_running", async () => {
    const [first, second] = await Promise.all([runSmoke(), runSmoke()]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect((refused.json as unknown as { error: { code: string } }).error.code).toBe("smoke_running");
    // The lease is released: the next run goes ahead.
    expect((await runSmoke()).status).toBe(200);
  }, 240_000);
});
