/**
 * Configuration operations (docs/public-mcp.md, "Configuration"; spec 004, "Expanded direct
 * assistant tools"): reads of agents, instructions, skills, repositories and projects
 * (`paperclip:read`), and edits of them (`paperclip:configure`). Each calls the same verb as
 * the REST route with the person's context, so the verb's own capability check applies on top
 * of the scope. Credentials, execution commands, policies and agent creation are not here.
 */
import { z } from "zod";
import { MAX_FILE_BODY } from "../../contracts/config-values";
import { AgentSettingsInput, getAgentConfig, updateAgentConfig } from "../../core/agent-config";
import { readInstructionFile, writeInstructionFile } from "../../core/instructions";
import {
  CreateProjectInput,
  createProject,
  getProject,
  UpdateProjectInput,
  updateProject,
} from "../../core/projects";
import {
  listRepositories,
  SetProjectRepositoriesInput,
  setProjectRepositories,
} from "../../core/repositories";
import { FilePath, Sha256 } from "../../core/revisioned";
import {
  CreateSkillInput,
  createSkill,
  listSkills,
  readSkillFile,
  UpdateSkillInput,
  updateSkill,
  writeSkillFile,
} from "../../core/skills";
import { fromDatabaseError } from "../../errors";
import {
  companyIdArg,
  companyLink,
  defineOperation,
  type McpSession,
  type Operation,
  requestIdArg,
} from "../registry";

/** A database refusal (duplicate slug or URL, a check) answered as its stable code, not a 5xx. */
async function verb<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw fromDatabaseError(err) ?? err;
  }
}

const agentIdArg = z.uuid().describe("The agent ID (from paperclip_list_agents or read_agent)");
const skillIdArg = z.uuid().describe("The skill ID (from list_skills)");
const projectIdArg = z.uuid().describe("The project ID");
const pathArg = FilePath.describe("A relative file path such as `AGENTS.md` or `references/style.md`");

/** The base of a content edit: the revision or SHA-256 from the last read (null revision: new file). */
const baseArgs = {
  body: z.string().max(MAX_FILE_BODY).describe("The whole new Markdown body"),
  baseRevision: z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .describe("The revision this edit is based on (from the read); null only to create a new file"),
  baseSha256: Sha256.optional().describe("Instead of baseRevision: the sha256 from the read"),
};
const baseOf = (a: { body: string; baseRevision?: number | null; baseSha256?: string }) => ({
  body: a.body,
  baseRevision: a.baseRevision,
  baseSha256: a.baseSha256,
});
const needsBase = (a: { baseRevision?: number | null; baseSha256?: string }) =>
  a.baseRevision !== undefined || a.baseSha256 !== undefined;
const BASE_MESSAGE = {
  message: "pass baseRevision (null to create a new file) or baseSha256 from a read",
  path: ["baseRevision"],
};

/** The agent projection assistants see: settings and instruction file heads, with a link. */
const agentView = (session: McpSession, config: Awaited<ReturnType<typeof getAgentConfig>>) => ({
  agent: {
    id: config.id,
    name: config.name,
    title: config.title,
    description: config.description,
    adapterType: config.adapterType,
    status: config.status,
    model: config.model,
    monthlyBudgetCents: config.monthlyBudgetCents,
    updatedAt: config.updatedAt.toISOString(),
  },
  instructions: config.instructions.map((f) => ({
    path: f.path,
    versioned: f.versioned,
    revision: f.revision,
    sha256: f.sha256,
  })),
  link: companyLink(session, `/agents/${config.id}`),
});

const fileView = (f: { path: string; versioned: boolean; revision: number | null; sha256: string }) => ({
  path: f.path,
  versioned: f.versioned,
  revision: f.revision,
  sha256: f.sha256,
});

const projectView = (session: McpSession, p: Awaited<ReturnType<typeof getProject>>) => ({
  project: {
    id: p.id,
    name: p.name,
    description: p.description,
    status: p.status,
    updatedAt: p.updatedAt.toISOString(),
  },
  repositories: p.repositories,
  link: companyLink(session, "/issues"),
});

const skillView = (s: Awaited<ReturnType<typeof listSkills>>[number]) => ({
  id: s.id,
  slug: s.slug,
  name: s.name,
  description: s.description,
  status: s.status,
  files: s.files.map(fileView),
});

const settingsLink = (session: McpSession, page: string) => companyLink(session, `/settings/${page}`);

export const CONFIG_OPERATIONS: Operation[] = [
  // ── reads (paperclip:read) ────────────────────────────────────────────────────────────
  defineOperation({
    name: "read_agent",
    scope: "paperclip:read",
    title: "Read an agent's configuration",
    description:
      "An agent's model, monthly budget (integer cents) and its instruction files with their revisions. Read a file's body with read_agent_instructions.",
    input: z.strictObject({ companyId: companyIdArg, agentId: agentIdArg }),
    mutation: false,
    run: async (session, a) => agentView(session, await getAgentConfig(session.ctx, a.companyId, a.agentId)),
  }),
  defineOperation({
    name: "read_agent_instructions",
    scope: "paperclip:read",
    title: "Read one instruction file of an agent",
    description:
      "The body, revision and sha256 of one instruction file (default `AGENTS.md`). Pass the revision as baseRevision to write_agent_instructions. `promptTemplate.legacy.md` reads with versioned: false and cannot be edited here.",
    input: z.strictObject({
      companyId: companyIdArg,
      agentId: agentIdArg,
      path: pathArg.default("AGENTS.md"),
    }),
    mutation: false,
    sensitiveRead: true,
    run: async (session, a) => {
      const file = await readInstructionFile(session.ctx, a.companyId, a.agentId, a.path);
      return { ...fileView(file), body: file.body, agentId: a.agentId };
    },
  }),
  defineOperation({
    name: "list_skills",
    scope: "paperclip:read",
    title: "List organization skills",
    description:
      "The organization's skills with their files and revisions (at most 200). Read a file with read_skill_file.",
    input: z.strictObject({ companyId: companyIdArg }),
    mutation: false,
    run: async (session, a) => {
      const skills = await listSkills(session.ctx, a.companyId);
      return { skills: skills.map(skillView), total: skills.length, link: settingsLink(session, "skills") };
    },
  }),
  defineOperation({
    name: "read_skill_file",
    scope: "paperclip:read",
    title: "Read one file of a skill",
    description: "The body, revision and sha256 of one skill file (default `SKILL.md`).",
    input: z.strictObject({
      companyId: companyIdArg,
      skillId: skillIdArg,
      path: pathArg.default("SKILL.md"),
    }),
    mutation: false,
    sensitiveRead: true,
    run: async (session, a) => {
      const file = await readSkillFile(session.ctx, a.companyId, a.skillId, a.path);
      return { ...fileView(file), body: file.body, skillId: a.skillId };
    },
  }),
  defineOperation({
    name: "list_repositories",
    scope: "paperclip:read",
    title: "List the organization's repositories",
    description:
      "The repositories projects may choose from (name, URL, default branch; at most 200). Choose them with set_project_repositories.",
    input: z.strictObject({ companyId: companyIdArg }),
    mutation: false,
    run: async (session, a) => {
      const rows = await listRepositories(session.ctx, a.companyId);
      return {
        repositories: rows.map((r) => ({
          id: r.id,
          name: r.name,
          url: r.url,
          defaultBranch: r.defaultBranch,
          description: r.description,
        })),
        total: rows.length,
        link: settingsLink(session, "repositories"),
      };
    },
  }),
  defineOperation({
    name: "read_project",
    scope: "paperclip:read",
    title: "Read a project",
    description: "A project's name, description, status and its chosen repositories.",
    input: z.strictObject({ companyId: companyIdArg, projectId: projectIdArg }),
    mutation: false,
    run: async (session, a) => projectView(session, await getProject(session.ctx, a.companyId, a.projectId)),
  }),

  // ── configuration (paperclip:configure) ──────────────────────────────────────────────
  defineOperation({
    name: "update_agent",
    scope: "paperclip:configure",
    title: "Update an agent's settings",
    description:
      "Changes an existing agent's model, monthlyBudgetCents (integer cents, null for none), title or description. Name, adapter, commands and credentials cannot be changed here.",
    input: AgentSettingsInput.extend({
      companyId: companyIdArg,
      requestId: requestIdArg,
      agentId: agentIdArg,
    }),
    mutation: true,
    run: async (session, { companyId, requestId: _r, agentId, ...settings }) =>
      agentView(session, await verb(updateAgentConfig(session.ctx, companyId, agentId, settings))),
  }),
  defineOperation({
    name: "write_agent_instructions",
    scope: "paperclip:configure",
    title: "Write an agent's instruction file",
    description:
      "Replaces a managed instruction file's body. Pass the revision (or sha256) from read_agent_instructions; a stale one is refused with revision_conflict. baseRevision null creates a new file. The legacy prompt template is refused with MCP_LEGACY_INSTRUCTIONS_UNVERSIONED.",
    input: z
      .strictObject({
        companyId: companyIdArg,
        requestId: requestIdArg,
        agentId: agentIdArg,
        path: pathArg,
        ...baseArgs,
      })
      .refine(needsBase, BASE_MESSAGE),
    mutation: true,
    run: async (session, a) =>
      fileView(await verb(writeInstructionFile(session.ctx, a.companyId, a.agentId, a.path, baseOf(a)))),
  }),
  defineOperation({
    name: "create_project",
    scope: "paperclip:configure",
    title: "Create a project",
    description: "Creates a project with a name (unique in the organization) and an optional description.",
    input: z.strictObject({ ...CreateProjectInput.shape, companyId: companyIdArg, requestId: requestIdArg }),
    mutation: true,
    run: async (session, { companyId, requestId: _r, ...input }) => {
      const project = await verb(createProject(session.ctx, companyId, input));
      return projectView(session, await getProject(session.ctx, companyId, project.id));
    },
  }),
  defineOperation({
    name: "update_project",
    scope: "paperclip:configure",
    title: "Update a project",
    description: "Changes a project's name, description or status (active or archived).",
    input: UpdateProjectInput.extend({
      companyId: companyIdArg,
      requestId: requestIdArg,
      projectId: projectIdArg,
    }),
    mutation: true,
    run: async (session, { companyId, requestId: _r, projectId, ...input }) =>
      projectView(session, await verb(updateProject(session.ctx, companyId, projectId, input))),
  }),
  defineOperation({
    name: "set_project_repositories",
    scope: "paperclip:configure",
    title: "Choose a project's repositories",
    description:
      "Sets the project's repositories to exactly repositoryIds, each from list_repositories (an empty list clears them).",
    input: SetProjectRepositoriesInput.extend({
      companyId: companyIdArg,
      requestId: requestIdArg,
      projectId: projectIdArg,
    }),
    mutation: true,
    run: async (session, a) =>
      projectView(
        session,
        await verb(
          setProjectRepositories(session.ctx, a.companyId, a.projectId, { repositoryIds: a.repositoryIds }),
        ),
      ),
  }),
  defineOperation({
    name: "create_skill",
    scope: "paperclip:configure",
    title: "Create an organization skill",
    description:
      "Creates a skill with a slug (lowercase, unique in the organization), a name and a description. Add its SKILL.md with write_skill_file (baseRevision null).",
    input: CreateSkillInput.extend({ companyId: companyIdArg, requestId: requestIdArg }),
    mutation: true,
    run: async (session, { companyId, requestId: _r, ...input }) =>
      skillView(await verb(createSkill(session.ctx, companyId, input))),
  }),
  defineOperation({
    name: "update_skill",
    scope: "paperclip:configure",
    title: "Update an organization skill",
    description: "Changes a skill's name, description or status (active or archived).",
    input: UpdateSkillInput.extend({ companyId: companyIdArg, requestId: requestIdArg, skillId: skillIdArg }),
    mutation: true,
    run: async (session, { companyId, requestId: _r, skillId, ...input }) =>
      skillView(await verb(updateSkill(session.ctx, companyId, skillId, input))),
  }),
  defineOperation({
    name: "write_skill_file",
    scope: "paperclip:configure",
    title: "Write a skill file",
    description:
      "Replaces (or with baseRevision null creates) one file of a skill. Pass the revision or sha256 from read_skill_file; a stale one is refused with revision_conflict.",
    input: z
      .strictObject({
        companyId: companyIdArg,
        requestId: requestIdArg,
        skillId: skillIdArg,
        path: pathArg,
        ...baseArgs,
      })
      .refine(needsBase, BASE_MESSAGE),
    mutation: true,
    run: async (session, a) =>
      fileView(await verb(writeSkillFile(session.ctx, a.companyId, a.skillId, a.path, baseOf(a)))),
  }),
];
