import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agentConfigRoute from "@/app/api/agents/[agentId]/config/route";
import * as instructionFileRoute from "@/app/api/agents/[agentId]/instructions/[...path]/route";
import * as instructionsRoute from "@/app/api/agents/[agentId]/instructions/route";
import * as migrateRoute from "@/app/api/agents/[agentId]/legacy-instructions/migrate/route";
import * as projectRoute from "@/app/api/companies/[companyId]/projects/[projectId]/route";
import * as projectsRoute from "@/app/api/companies/[companyId]/projects/route";
import * as repositoriesRoute from "@/app/api/companies/[companyId]/repositories/route";
import * as skillFileRoute from "@/app/api/companies/[companyId]/skills/[skillId]/files/[...path]/route";
import * as skillRoute from "@/app/api/companies/[companyId]/skills/[skillId]/route";
import * as skillsRoute from "@/app/api/companies/[companyId]/skills/route";
import * as projectRepositoriesRoute from "@/app/api/projects/[projectId]/repositories/route";
import { activityLog, agentInstructionRevisions } from "@/db/schema";
import { call } from "../testing/api";
import { closeDemoWorld, demoWorld, strangerCompany, type TestDatabase } from "../testing/world";
import { sha256Hex } from "./revisioned";
import type { DemoCredentials } from "./seed";

let database: TestDatabase;
let demo: DemoCredentials;
let agentId: string;
let board: string;
let stranger: Awaited<ReturnType<typeof strangerCompany>>;
let memberKey: string;

// Catch-all segments arrive as an array (Next.js `[...path]`).
const fileParams = (ids: Record<string, string>, path: string) =>
  ({ ...ids, path: path.split("/") }) as unknown as Record<string, string>;

beforeAll(async () => {
  const world = await demoWorld();
  database = world.database;
  demo = world.demo;
  agentId = demo.agents[0]!.id;
  board = demo.boardApiKey;
  stranger = await strangerCompany(database.db, "Rival Config", { agent: "Rival Agent" });
  const boardKeysRoute = await import("@/app/api/companies/[companyId]/board-keys/route");
  const key = await call<{ key: string }>(boardKeysRoute.POST, "POST", "/", {
    token: board,
    params: { companyId: demo.companyId },
    body: { name: "member", role: "member" },
  });
  memberKey = key.json.key;
});
afterAll(() => closeDemoWorld(database));

describe("agent configuration", () => {
  it("sets model and budget, validates them, and never accepts adapter or name", async () => {
    const res = await call(agentConfigRoute.PATCH, "PATCH", "/", {
      token: board,
      params: { agentId },
      body: { model: "claude-sonnet-4-5", monthlyBudgetCents: 25_000 },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ model: "claude-sonnet-4-5", monthlyBudgetCents: 25_000 });
    for (const body of [
      { model: "two words" },
      { model: "x\ny" },
      { monthlyBudgetCents: -1 },
      { monthlyBudgetCents: 100_000_001 },
      { monthlyBudgetCents: 1.5 },
      { adapterType: "shell" },
      { name: "Renamed" },
    ]) {
      const bad = await call(agentConfigRoute.PATCH, "PATCH", "/", {
        token: board,
        params: { agentId },
        body,
      });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    const [row] = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, "agent.configure"), eq(activityLog.entityId, agentId)));
    expect(row!.details).toMatchObject({ model: "claude-sonnet-4-5", monthlyBudgetCents: 25_000 });
  });

  it("refuses a member (403) and hides an agent of another company (404)", async () => {
    const member = await call(agentConfigRoute.PATCH, "PATCH", "/", {
      token: memberKey,
      params: { agentId },
      body: { model: "m" },
    });
    expect(member.status).toBe(403);
    const outsider = await call(agentConfigRoute.GET, "GET", "/", {
      token: stranger.boardKey,
      params: { agentId },
    });
    expect(outsider.status).toBe(404);
    const other = await call(agentConfigRoute.PATCH, "PATCH", "/", {
      token: board,
      params: { agentId: stranger.agentId! },
      body: { model: "m" },
    });
    expect(other.status).toBe(404);
  });
});

describe("instruction files", () => {
  it("creates, edits with a base revision, and refuses a stale base with revision_conflict", async () => {
    const params = fileParams({ agentId }, "AGENTS.md");
    const created = await call(instructionFileRoute.PUT, "PUT", "/", {
      token: board,
      params,
      body: { body: "# Be kind\n", baseRevision: null },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ revision: 1, created: true, sha256: sha256Hex("# Be kind\n") });
    const again = await call(instructionFileRoute.PUT, "PUT", "/", {
      token: board,
      params,
      body: { body: "other", baseRevision: null },
    });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      error: { code: "revision_conflict", details: { current: { revision: 1 } } },
    });
    const edited = await call(instructionFileRoute.PUT, "PUT", "/", {
      token: board,
      params,
      body: { body: "# Be kind, always\n", baseSha256: sha256Hex("# Be kind\n") },
    });
    expect(edited.json).toMatchObject({ revision: 2, created: false });
    const stale = await call(instructionFileRoute.PUT, "PUT", "/", {
      token: board,
      params,
      body: { body: "stale", baseRevision: 1 },
    });
    expect(stale.status).toBe(409);
    const noBase = await call(instructionFileRoute.PUT, "PUT", "/", {
      token: board,
      params,
      body: { body: "x" },
    });
    expect(noBase.status).toBe(400);
    const read = await call(instructionFileRoute.GET, "GET", "/", { token: board, params });
    expect(read.json).toMatchObject({ body: "# Be kind, always\n", revision: 2, versioned: true });
    const revisions = await database.db.select().from(agentInstructionRevisions);
    expect(revisions.map((r) => r.revision).sort()).toEqual([1, 2]);
  });

  it("of two concurrent edits from the same revision, exactly one wins", async () => {
    const params = fileParams({ agentId }, "docs/race.md");
    await call(instructionFileRoute.PUT, "PUT", "/", {
      token: board,
      params,
      body: { body: "v1", baseRevision: null },
    });
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((body) =>
        call(instructionFileRoute.PUT, "PUT", "/", { token: board, params, body: { body, baseRevision: 1 } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const head = await call(instructionFileRoute.GET, "GET", "/", { token: board, params });
    expect(head.json).toMatchObject({ revision: 2 });
  });

  it("refuses unsafe paths as not found", async () => {
    for (const path of ["../etc/passwd", "a/../b", "with space.md", "x".repeat(201)]) {
      const res = await call(instructionFileRoute.GET, "GET", "/", {
        token: board,
        params: fileParams({ agentId }, path),
      });
      expect(res.status, path).toBe(404);
    }
  });

  it("shows the legacy template unversioned, refuses editing it, and migrates it", async () => {
    await call(agentConfigRoute.PATCH, "PATCH", "/", {
      token: board,
      params: { agentId },
      body: { legacyPromptTemplate: "You are {{agent.name}}." },
    });
    const list = await call<{ files: { path: string; versioned: boolean }[] }>(
      instructionsRoute.GET,
      "GET",
      "/",
      {
        token: board,
        params: { agentId },
      },
    );
    expect(list.json.files).toContainEqual(
      expect.objectContaining({ path: "promptTemplate.legacy.md", versioned: false, revision: null }),
    );
    const legacy = fileParams({ agentId }, "promptTemplate.legacy.md");
    const read = await call(instructionFileRoute.GET, "GET", "/", { token: board, params: legacy });
    expect(read.json).toMatchObject({ body: "You are {{agent.name}}.", versioned: false });
    const write = await call(instructionFileRoute.PUT, "PUT", "/", {
      token: board,
      params: legacy,
      body: { body: "x", baseRevision: null },
    });
    expect(write.status).toBe(409);
    expect(write.json).toMatchObject({ error: { code: "MCP_LEGACY_INSTRUCTIONS_UNVERSIONED" } });
    const migrated = await call(migrateRoute.POST, "POST", "/", {
      token: board,
      params: { agentId },
      body: { path: "LEGACY.md" },
    });
    expect(migrated.status).toBe(201);
    const after = await call(instructionFileRoute.GET, "GET", "/", {
      token: board,
      params: fileParams({ agentId }, "LEGACY.md"),
    });
    expect(after.json).toMatchObject({ body: "You are {{agent.name}}.", revision: 1 });
    const gone = await call(instructionFileRoute.GET, "GET", "/", { token: board, params: legacy });
    expect(gone.status).toBe(404);
  });
});

describe("skills", () => {
  it("creates a skill, writes its files with revisions, archives it; members only read", async () => {
    const created = await call<{ id: string }>(skillsRoute.POST, "POST", "/", {
      token: board,
      params: { companyId: demo.companyId },
      body: { slug: "code-review", name: "Code review" },
    });
    expect(created.status).toBe(201);
    const skillId = created.json.id;
    const dup = await call(skillsRoute.POST, "POST", "/", {
      token: board,
      params: { companyId: demo.companyId },
      body: { slug: "code-review", name: "Again" },
    });
    expect(dup.status).toBe(409);
    const params = fileParams({ companyId: demo.companyId, skillId }, "SKILL.md");
    const file = await call(skillFileRoute.PUT, "PUT", "/", {
      token: board,
      params,
      body: { body: "# Review", baseRevision: null },
    });
    expect(file.json).toMatchObject({ revision: 1 });
    const byMember = await call(skillFileRoute.PUT, "PUT", "/", {
      token: memberKey,
      params,
      body: { body: "# Mine", baseRevision: 1 },
    });
    expect(byMember.status).toBe(403);
    const memberRead = await call(skillFileRoute.GET, "GET", "/", { token: memberKey, params });
    expect(memberRead.json).toMatchObject({ body: "# Review" });
    const archived = await call(skillRoute.PATCH, "PATCH", "/", {
      token: board,
      params: { companyId: demo.companyId, skillId },
      body: { status: "archived" },
    });
    expect(archived.json).toMatchObject({ status: "archived", files: [{ path: "SKILL.md", revision: 1 }] });
    const list = await call<{ skills: unknown[] }>(skillsRoute.GET, "GET", "/", {
      token: board,
      params: { companyId: demo.companyId },
    });
    expect(list.json.skills).toHaveLength(1);
    const outsider = await call(skillFileRoute.GET, "GET", "/", {
      token: stranger.boardKey,
      params: fileParams({ companyId: stranger.companyId, skillId }, "SKILL.md"),
    });
    expect(outsider.status).toBe(404);
  });
});

describe("repositories and projects", () => {
  it("accepts https and git@ addresses, refuses credentials and other schemes", async () => {
    for (const url of ["https://github.com/acme/app", "git@github.com:acme/app.git"]) {
      const res = await call(repositoriesRoute.POST, "POST", "/", {
        token: board,
        params: { companyId: demo.companyId },
        body: { name: url.slice(-7), url },
      });
      expect(res.status, url).toBe(201);
    }
    for (const url of [
      "http://github.com/acme/app",
      "https://user:token@github.com/acme/app",
      "file:///etc/passwd",
      "ssh://git@host/x",
      "git@host:../x y",
    ]) {
      const res = await call(repositoriesRoute.POST, "POST", "/", {
        token: board,
        params: { companyId: demo.companyId },
        body: { name: "bad", url },
      });
      expect(res.status, url).toBe(400);
    }
  });

  it("updates a project and chooses repositories from the company's list only", async () => {
    const project = await call<{ id: string }>(projectsRoute.POST, "POST", "/", {
      token: board,
      params: { companyId: demo.companyId },
      body: { name: "Website" },
    });
    const projectId = project.json.id;
    const updated = await call(projectRoute.PATCH, "PATCH", "/", {
      token: board,
      params: { companyId: demo.companyId, projectId },
      body: { description: "The public site", status: "archived" },
    });
    expect(updated.json).toMatchObject({
      description: "The public site",
      status: "archived",
      repositories: [],
    });
    const repos = await call<{ repositories: { id: string }[] }>(repositoriesRoute.GET, "GET", "/", {
      token: board,
      params: { companyId: demo.companyId },
    });
    const ids = repos.json.repositories.map((r) => r.id);
    const set = await call(projectRepositoriesRoute.PUT, "PUT", "/", {
      token: board,
      params: { projectId },
      body: { repositoryIds: ids },
    });
    expect(set.status).toBe(200);
    expect((set.json as { repositories: unknown[] }).repositories).toHaveLength(2);
    const theirs = await call<{ id: string }>(repositoriesRoute.POST, "POST", "/", {
      token: stranger.boardKey,
      params: { companyId: stranger.companyId },
      body: { name: "theirs", url: "https://example.com/rival/secret" },
    });
    const cross = await call(projectRepositoriesRoute.PUT, "PUT", "/", {
      token: board,
      params: { projectId },
      body: { repositoryIds: [ids[0], theirs.json.id] },
    });
    expect(cross.status).toBe(404);
    const unchanged = await call<{ repositories: unknown[] }>(projectRoute.GET, "GET", "/", {
      token: board,
      params: { companyId: demo.companyId, projectId },
    });
    expect(unchanged.json.repositories).toHaveLength(2);
    const outsider = await call(projectRepositoriesRoute.PUT, "PUT", "/", {
      token: stranger.boardKey,
      params: { projectId },
      body: { repositoryIds: [] },
    });
    expect(outsider.status).toBe(404);
    const cleared = await call<{ repositories: unknown[] }>(projectRepositoriesRoute.PUT, "PUT", "/", {
      token: board,
      params: { projectId },
      body: { repositoryIds: [] },
    });
    expect(cleared.json.repositories).toEqual([]);
  });
});
