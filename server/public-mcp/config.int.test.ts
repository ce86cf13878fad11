import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityLog, agents, companyMemberships, companyRepositories, users } from "@/db/schema";
import { hashPassword } from "../auth/password";
import { connectAssistant, type TestConnection } from "../testing/public-mcp";
import { closeDemoWorld, demoOwner, demoWorld, strangerCompany, type TestDatabase } from "../testing/world";

let database: TestDatabase;
let companyId: string;
let ownerId: string;
let agentId: string;
let owner: TestConnection;
let stranger: Awaited<ReturnType<typeof strangerCompany>>;

type Api = Record<string, unknown>;
const rid = () => randomUUID();
const errorCode = (r: Api) => (r.error as { code?: string } | undefined)?.code;
const rejectedCode = (r: Api) => (r.outcome === "rejected" ? (r.error as { code: string }).code : undefined);
const result = <T = Api>(r: Api) => {
  expect(r.outcome, JSON.stringify(r)).toBe("succeeded");
  return r.result as T;
};

async function addPerson(role: "admin" | "member" | "viewer") {
  const [user] = await database.db
    .insert(users)
    .values({ email: `${role}-${rid()}@acme.example`, passwordHash: await hashPassword("x") })
    .returning();
  await database.db.insert(companyMemberships).values({ companyId, userId: user!.id, role });
  return user!.id;
}

beforeAll(async () => {
  const world = await demoWorld();
  database = world.database;
  companyId = world.demo.companyId;
  ownerId = (await demoOwner(database.db, world.demo)).id;
  agentId = world.demo.agents[0]!.id;
  owner = await connectAssistant(database.db, { userId: ownerId, companyId });
  stranger = await strangerCompany(database.db, "Rival MCP", { agent: "Rival Bot" });
});
afterAll(() => closeDemoWorld(database));

describe("configuration operations", () => {
  it("update_agent changes model and budget, never name or adapter, with a via activity row", async () => {
    const requestId = rid();
    const updated = result<{ agent: Api }>(
      await owner.api("update_agent", {
        companyId,
        requestId,
        agentId,
        model: "claude-opus-4-1",
        monthlyBudgetCents: 50_000,
      }),
    );
    expect(updated.agent).toMatchObject({ model: "claude-opus-4-1", monthlyBudgetCents: 50_000 });
    for (const extra of [{ name: "Renamed" }, { adapterType: "shell" }, { command: "rm -rf /" }]) {
      const refused = await owner.api("update_agent", { companyId, requestId: rid(), agentId, ...extra });
      expect(errorCode(refused), JSON.stringify(extra)).toBe("arguments_invalid");
    }
    const [row] = await database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, "agent.configure"), eq(activityLog.entityId, agentId)));
    expect(row!.details).toMatchObject({ via: { grantId: owner.grantId, clientName: "Test Assistant" } });
    const read = await owner.api("read_agent", { companyId, agentId });
    expect(read).toMatchObject({ agent: { model: "claude-opus-4-1", monthlyBudgetCents: 50_000 } });
    expect(JSON.stringify(read)).not.toMatch(/apiKey|keyHash|credential/i);
  });

  it("writes instructions against a revision; a stale one is revision_conflict; reads are logged", async () => {
    const created = result<Api>(
      await owner.api("write_agent_instructions", {
        companyId,
        requestId: rid(),
        agentId,
        path: "AGENTS.md",
        body: "# Rules\n",
        baseRevision: null,
      }),
    );
    expect(created).toMatchObject({ path: "AGENTS.md", revision: 1, versioned: true });
    const read = await owner.api("read_agent_instructions", { companyId, agentId });
    expect(read).toMatchObject({ body: "# Rules\n", revision: 1, sha256: created.sha256 });
    const logged = await database.db
      .select()
      .from(activityLog)
      .where(
        and(eq(activityLog.action, "public_mcp.read"), eq(activityLog.entityId, "read_agent_instructions")),
      );
    expect(logged[0]!.details).toMatchObject({ agentId, path: "AGENTS.md", via: { grantId: owner.grantId } });
    const edit = (body: string, baseRevision: number) =>
      owner.api("write_agent_instructions", {
        companyId,
        requestId: rid(),
        agentId,
        path: "AGENTS.md",
        body,
        baseRevision,
      });
    const [a, b] = await Promise.all([edit("# A\n", 1), edit("# B\n", 1)]);
    expect([a.outcome, b.outcome].sort()).toEqual(["rejected", "succeeded"]);
    expect(rejectedCode(a.outcome === "rejected" ? a : b)).toBe("revision_conflict");
    const noBase = await owner.api("write_agent_instructions", {
      companyId,
      requestId: rid(),
      agentId,
      path: "AGENTS.md",
      body: "x",
    });
    expect(errorCode(noBase)).toBe("arguments_invalid");
  });

  it("reads the legacy template unversioned and refuses editing it with MCP_LEGACY_INSTRUCTIONS_UNVERSIONED", async () => {
    await database.db
      .update(agents)
      .set({ legacyPromptTemplate: "Legacy prompt" })
      .where(eq(agents.id, agentId));
    const read = await owner.api("read_agent_instructions", {
      companyId,
      agentId,
      path: "promptTemplate.legacy.md",
    });
    expect(read).toMatchObject({ body: "Legacy prompt", versioned: false, revision: null });
    for (const base of [{ baseRevision: null }, { baseSha256: read.sha256 }]) {
      const write = await owner.api("write_agent_instructions", {
        companyId,
        requestId: rid(),
        agentId,
        path: "promptTemplate.legacy.md",
        body: "Overwritten",
        ...base,
      });
      expect(rejectedCode(write)).toBe("MCP_LEGACY_INSTRUCTIONS_UNVERSIONED");
    }
    const [row] = await database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(row!.legacyPromptTemplate).toBe("Legacy prompt");
  });

  it("creates skills and files, projects and their repositories", async () => {
    const skill = result<{ id: string }>(
      await owner.api("create_skill", { companyId, requestId: rid(), slug: "triage", name: "Triage" }),
    );
    result(
      await owner.api("write_skill_file", {
        companyId,
        requestId: rid(),
        skillId: skill.id,
        path: "SKILL.md",
        body: "# Triage",
        baseRevision: null,
      }),
    );
    const file = await owner.api("read_skill_file", { companyId, skillId: skill.id });
    expect(file).toMatchObject({ body: "# Triage", revision: 1 });
    const stale = await owner.api("write_skill_file", {
      companyId,
      requestId: rid(),
      skillId: skill.id,
      path: "SKILL.md",
      body: "# Old",
      baseSha256: "0".repeat(64),
    });
    expect(rejectedCode(stale)).toBe("revision_conflict");
    result(
      await owner.api("update_skill", { companyId, requestId: rid(), skillId: skill.id, status: "archived" }),
    );
    const skills = await owner.api("list_skills", { companyId });
    expect(skills).toMatchObject({
      skills: [{ slug: "triage", status: "archived", files: [{ path: "SKILL.md" }] }],
    });
    const dup = await owner.api("create_skill", {
      companyId,
      requestId: rid(),
      slug: "triage",
      name: "Again",
    });
    expect(rejectedCode(dup)).toBe("already_exists");

    const project = result<{ project: { id: string } }>(
      await owner.api("create_project", { companyId, requestId: rid(), name: "Assistant project" }),
    );
    const projectId = project.project.id;
    result(
      await owner.api("update_project", { companyId, requestId: rid(), projectId, description: "From MCP" }),
    );
    // A repository is added in Paperclip (no MCP operation creates one).
    const [repo] = await database.db
      .insert(companyRepositories)
      .values({ companyId, name: "app", url: "https://github.com/acme/app" })
      .returning();
    const repoId = repo!.id;
    const listed = await owner.api("list_repositories", { companyId });
    expect(listed).toMatchObject({ repositories: [{ id: repoId, url: "https://github.com/acme/app" }] });
    result(
      await owner.api("set_project_repositories", {
        companyId,
        requestId: rid(),
        projectId,
        repositoryIds: [repoId],
      }),
    );
    const detail = await owner.api("read_project", { companyId, projectId });
    expect(detail).toMatchObject({ project: { description: "From MCP" }, repositories: [{ id: repoId }] });
  });

  it("hides another company's agent, skill and project (not_found) and refuses its companyId", async () => {
    const theirAgent = await owner.api("read_agent", { companyId, agentId: stranger.agentId! });
    expect(errorCode(theirAgent)).toBe("not_found");
    const write = await owner.api("update_agent", {
      companyId,
      requestId: rid(),
      agentId: stranger.agentId!,
      model: "m",
    });
    expect(rejectedCode(write)).toBe("not_found");
    const otherCompany = await owner.api("read_agent", {
      companyId: stranger.companyId,
      agentId: stranger.agentId!,
    });
    expect(errorCode(otherCompany)).toBe("company_not_granted");
  });

  it("an agent of another company the person also belongs to is still not found", async () => {
    await database.db
      .insert(companyMemberships)
      .values({ companyId: stranger.companyId, userId: ownerId, role: "admin" });
    const read = await owner.api("read_agent", { companyId, agentId: stranger.agentId! });
    expect(errorCode(read)).toBe("not_found");
    const write = await owner.api("write_agent_instructions", {
      companyId,
      requestId: rid(),
      agentId: stranger.agentId!,
      path: "AGENTS.md",
      body: "x",
      baseRevision: null,
    });
    expect(rejectedCode(write)).toBe("not_found");
  });
});

describe("configuration scope", () => {
  it("a write-only grant may read but not configure (insufficient_scope)", async () => {
    const writer = await connectAssistant(database.db, {
      userId: ownerId,
      companyId,
      scopes: ["paperclip:read", "paperclip:write"],
    });
    expect(errorCode(await writer.api("read_agent", { companyId, agentId }))).toBeUndefined();
    const refused = await writer.api("update_agent", { companyId, requestId: rid(), agentId, model: "m" });
    expect(errorCode(refused)).toBe("insufficient_scope");
    expect(refused.error).toMatchObject({ details: { required: "paperclip:configure" } });
  });

  it("a member's configure-scoped grant loses the scope to the role (insufficient_scope)", async () => {
    // scopesForRole (server/oauth/store.ts) keeps paperclip:configure only for roles with
    // `tools:admin`: a member's grant never holds it, so the refusal comes before the verb.
    const memberId = await addPerson("member");
    const member = await connectAssistant(database.db, { userId: memberId, companyId });
    expect((await member.session()).scopes).not.toContain("paperclip:configure");
    const refused = await member.api("update_agent", { companyId, requestId: rid(), agentId, model: "m" });
    expect(errorCode(refused)).toBe("insufficient_scope");
    expect(errorCode(await member.api("read_agent", { companyId, agentId }))).toBeUndefined();
  });

  it("a demoted admin's live grant is refused by the verb's own check (forbidden)", async () => {
    const adminId = await addPerson("admin");
    const admin = await connectAssistant(database.db, { userId: adminId, companyId });
    const session = await admin.session();
    expect(session.scopes).toContain("paperclip:configure");
    await database.db
      .update(companyMemberships)
      .set({ role: "member" })
      .where(and(eq(companyMemberships.companyId, companyId), eq(companyMemberships.userId, adminId)));
    // The session was built while the person was an admin (a request in flight); the verb
    // rechecks the person's current role and refuses.
    const { callTool } = await import("./tools");
    const refused = await callTool(session, "paperclip_call_api", {
      operation: "update_agent",
      arguments: { companyId, requestId: rid(), agentId, model: "m" },
    });
    expect(rejectedCode(refused.structuredContent as Api)).toBe("forbidden");
    expect(
      errorCode(await admin.api("update_agent", { companyId, requestId: rid(), agentId, model: "m" })),
    ).toBe("insufficient_scope");
  });
});
