// Responses of agent configuration, instructions, skills and repositories (docs/agents.md).
import { z } from "zod";
import { SKILL_STATUSES } from "../config-values";
import { PROJECT_STATUSES } from "../values";
import { NullableDate, nullableStrings, strings, Timestamps } from "./common";
import { Agent, Project } from "./core";

/** One instruction or skill file without its body. The legacy entry has no revision. */
export const FileHead = z.object({
  path: z.string(),
  versioned: z.boolean(),
  revision: z.number().nullable(),
  sha256: z.string(),
  updatedAt: NullableDate,
});

/** One file with its body (a read the activity log records when an assistant makes it). */
export const FileBody = FileHead.extend({ body: z.string() });

/** `GET /api/agents/:agentId/config`: model, budget and the instruction files. Never credentials. */
export const AgentConfig = Agent.extend({
  model: z.string().nullable(),
  monthlyBudgetCents: z.number().nullable(),
  instructions: z.array(FileHead),
});

/** `PUT …/instructions/:path`, `PUT …/skills/:skillId/files/:path`: the new head. */
export const FileWritten = FileHead.extend({ created: z.boolean() });

export const InstructionFilesResponse = z.object({ files: z.array(FileHead) });

export const Skill = z.object({
  ...strings("id", "companyId", "slug", "name"),
  description: z.string().nullable(),
  status: z.enum(SKILL_STATUSES),
  ...Timestamps,
});
export const SkillWithFiles = Skill.extend({ files: z.array(FileHead) });
export const SkillsResponse = z.object({ skills: z.array(SkillWithFiles) });

export const Repository = z.object({
  ...strings("id", "companyId", "name", "url", "defaultBranch"),
  ...nullableStrings("description"),
  ...Timestamps,
});
export const RepositoriesResponse = z.object({ repositories: z.array(Repository) });

/** A project with the repositories chosen for it. */
export const ProjectDetail = Project.extend({
  companyId: z.string(),
  status: z.enum(PROJECT_STATUSES),
  repositories: z.array(Repository.pick({ id: true, name: true, url: true, defaultBranch: true })),
});
