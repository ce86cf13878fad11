import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentRunsRoute from "@/app/api/agents/[agentId]/runs/route";
import * as issuesRoute from "@/app/api/companies/[companyId]/issues/route";
import * as bindingRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/bindings/[bindingId]/route";
import * as bindingsRoute from "@/app/api/companies/[companyId]/tools/profiles/[profileId]/bindings/route";
import * as toolsRoute from "@/app/api/tool-gateway/tools/route";
import {
  activityLog,
  heartbeatRuns,
  projects,
  routines,
  toolGatewaySessions,
  toolProfileBindings,
} from "@/db/schema";
import type { createTestDatabase } from "@/db/test/database";
import type { OutboxState } from "@/fixtures/mcp";
import type { HttpFixture } from "@/fixtures/mcp/http";
import type { DemoCredentials } from "@/server/core/seed";
import { setExampleUrlResolver } from "@/server/examples/examples";
import { call } from "@/server/testing/api";
import { closeDemoWorld, demoWorld, installOutbox, issueOf } from "@/server/testing/world";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let demo: DemoCredentials;
let outbox: HttpFixture<OutboxState>;
let triage: { id: string; apiKey: string };
let release: { id: string; apiKey: string };
let releaseIssueId: string;
let triageIssueId: string;

type RunJson = { id: string; gateway: { token: string }; error?: { code: string } };
const startRun = (agentId: string, token: string, body: Record<string, unknown>) =>
  call<RunJson>(agentRunsRoute.POST, "POST", "/", { token, params: { agentId }, body });

async function counts() {
  const [r] = await database.db.execute(
    sql`select (select count(*) from heartbeat_runs)::int as runs, (select count(*) from tool_gateway_sessions)::int as sessions`,
  );
  return r as { runs: number; sessions: number };
}

beforeAll(async () => {
  ({ database, demo } = await demoWorld({ home: "pc-runs-scope-", gateway: true }));
  triage = demo.agents[0]!;
  release = demo.agents[1]!;
  const installed = await installOutbox(database.db, demo);
  outbox = installed.outbox;
  expect(installed.status, JSON.stringify(installed.json)).toBe(201);
  releaseIssueId = await issueOf(database.db, demo.companyId, release.id);
  triageIssueId = await issueOf(database.db, demo.companyId, triage.id);
  // The outbox profile grants its tools for work on Release Manager's issue only.
  const [binding] = await database.db
    .select()
    .from(toolProfileBindings)
    .where(
      and(eq(toolProfileBindings.companyId, demo.companyId), eq(toolProfileBindings.targetType, "company")),
    );
  const params = { companyId: demo.companyId, profileId: binding!.profileId };
  const del = await call(bindingRoute.DELETE, "DELETE", "/", {
    token: demo.boardApiKey,
    params: { ...params, bindingId: binding!.id },
  });
  expect(del.status).toBeLessThan(300);
  const add = await call(bindingsRoute.POST, "POST", "/", {
    token: demo.boardApiKey,
    params,
    body: { targetType: "issue", targetId: releaseIssueId },
  });
  expect(add.status, JSON.stringify(add.json)).toBe(201);
}, 60_000);

afterAll(async () => {
  setExampleUrlResolver(null);
  await outbox.close();
  await closeDemoWorld(database);
});

describe("agents start runs only for their own work", () => {
  it("an agent starting a run on another agent's issue gets 403 run_scope_forbidden and no session", async () => {
    const before = await counts();
    const res = await startRun(triage.id, triage.apiKey, { issueId: releaseIssueId });
    expect(res.status).toBe(403);
    expect(res.json.error?.code).toBe("run_scope_forbidden");
    expect(await counts()).toEqual(before);
    const [denied] = await database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.action, "run.start_denied"));
    expect(denied!.details).toMatchObject({ issueId: releaseIssueId, code: "run_scope_forbidden" });
  });

  it("an agent starting a run on its own issue gets 201 with that issue's tools", async () => {
    const res = await startRun(release.id, release.apiKey, { issueId: releaseIssueId });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const tools = await call<{ tools: { name: string }[] }>(
      toolsRoute.GET,
      "GET",
      "/api/tool-gateway/tools",
      {
        token: res.json.gateway.token,
      },
    );
    expect(tools.status).toBe(200);
    const names = tools.json.tools.map((t) => t.name);
    expect(names.filter((n) => n.startsWith("outbox__")).length).toBeGreaterThan(0);
    // The same agent on its other work sees none of them (the profile is the issue's).
    const own = await startRun(triage.id, triage.apiKey, { issueId: triageIssueId });
    expect(own.status).toBe(201);
    const other = await call<{ tools: { name: string }[] }>(
      toolsRoute.GET,
      "GET",
      "/api/tool-gateway/tools",
      {
        token: own.json.gateway.token,
      },
    );
    expect(other.json.tools.filter((t) => t.name.startsWith("outbox__"))).toEqual([]);
  });

  it("an unassigned issue, a bare project or another agent's routine are not the agent's work", async () => {
    const created = await call<{ id: string }>(issuesRoute.POST, "POST", "/", {
      token: demo.boardApiKey,
      params: { companyId: demo.companyId },
      body: { title: "Nobody's yet" },
    });
    expect(created.status).toBe(201);
    const unassigned = await startRun(triage.id, triage.apiKey, { issueId: created.json.id });
    expect(unassigned.json.error?.code).toBe("run_scope_forbidden");
    const [project] = await database.db.select({ id: projects.id }).from(projects);
    const bare = await startRun(triage.id, triage.apiKey, { projectId: project!.id });
    expect(bare.json.error?.code).toBe("run_scope_forbidden");
    const [routine] = await database.db.select().from(routines).where(eq(routines.agentId, triage.id));
    const foreignRoutine = await startRun(release.id, release.apiKey, { routineId: routine!.id });
    expect(foreignRoutine.json.error?.code).toBe("run_scope_forbidden");
    const ownRoutine = await startRun(triage.id, triage.apiKey, { routineId: routine!.id });
    expect(ownRoutine.status).toBe(201);
    // Its own issue with a different project: refused (the scope must match the work).
    const [otherProject] = await database.db
      .insert(projects)
      .values({ companyId: demo.companyId, name: "Elsewhere" })
      .returning();
    const mismatched = await startRun(triage.id, triage.apiKey, {
      issueId: triageIssueId,
      projectId: otherProject!.id,
    });
    expect(mismatched.json.error?.code).toBe("run_scope_forbidden");
  });

  it("a board actor may start a run for any work", async () => {
    const res = await startRun(triage.id, demo.boardApiKey, { issueId: releaseIssueId });
    expect(res.status).toBe(201);
    const [session] = await database.db
      .select()
      .from(toolGatewaySessions)
      .innerJoin(heartbeatRuns, eq(heartbeatRuns.id, toolGatewaySessions.runId))
      .where(eq(heartbeatRuns.id, res.json.id));
    expect(session).toBeTruthy();
  });
});
