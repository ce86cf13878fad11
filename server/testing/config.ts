/**
 * Configuration data for tests (docs/agents.md): an instruction file, a skill with its
 * `SKILL.md`, a repository chosen by the company's first project — made through the verbs as
 * the system actor, so every list the configuration routes answer has a row.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { projects } from "@/db/schema";
import { systemContext } from "../context";
import { writeInstructionFile } from "../core/instructions";
import { createRepository, setProjectRepositories } from "../core/repositories";
import { createSkill, writeSkillFile } from "../core/skills";

export async function seedConfiguration(db: Db, companyId: string, agentId: string) {
  const ctx = systemContext(db, "test-config");
  await writeInstructionFile(ctx, companyId, agentId, "AGENTS.md", { body: "# Rules\n", baseRevision: null });
  const skill = await createSkill(ctx, companyId, { slug: "review", name: "Review" });
  await writeSkillFile(ctx, companyId, skill.id, "SKILL.md", { body: "# Review\n", baseRevision: null });
  const repository = await createRepository(ctx, companyId, {
    name: "app",
    url: "https://github.com/acme/app",
    defaultBranch: "main",
  });
  const [project] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.companyId, companyId))
    .orderBy(asc(projects.name))
    .limit(1);
  await setProjectRepositories(ctx, companyId, project!.id, { repositoryIds: [repository.id] });
  return { skillId: skill.id, repositoryId: repository.id, projectId: project!.id };
}
