/**
 * Company repositories (docs/agents.md, "Repositories"): the list of code repositories a
 * company works in, from which each project chooses its own. A repository is an address
 * only — `https://…` or `git@host:path` — never a credential: a URL with user info is
 * refused, and nothing here fetches or clones anything.
 */
import { and, asc, eq, inArray, notInArray } from "drizzle-orm";
import { z } from "zod";
import { inCompany } from "@/db/join";
import { companyRepositories, projectRepositories, projects } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { ProjectDetail, Repository } from "@/server/contracts/api/config";
import { insertRow, lockCompanyRow } from "../access/rows";
import { withActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { projectDetail } from "./projects";

/** `https://host/path` without user info, or `git@host:path` (the scp-like SSH form). */
export const RepositoryUrl = z
  .string()
  .trim()
  .max(500)
  .refine(
    (u) =>
      /^git@[A-Za-z0-9.-]+:[A-Za-z0-9._/-]+$/.test(u) ||
      (/^https:\/\/[^@/\s]+\/\S+$/.test(u) && URL.canParse(u)),
    "an `https://` URL without credentials, or `git@host:path`",
  );

export const CreateRepositoryInput = z.strictObject({
  name: z.string().trim().min(1).max(120),
  url: RepositoryUrl,
  defaultBranch: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._/-]{1,100}$/, "a branch name")
    .default("main"),
  description: z.string().trim().max(2000).optional(),
});
export type CreateRepositoryInput = z.infer<typeof CreateRepositoryInput>;

export const SetProjectRepositoriesInput = z.strictObject({
  repositoryIds: z.array(z.uuid()).max(50),
});
export type SetProjectRepositoriesInput = z.infer<typeof SetProjectRepositoriesInput>;

/** The company's repositories, by name. */
export async function listRepositories(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await ctx.db
    .select()
    .from(companyRepositories)
    .where(eq(companyRepositories.companyId, companyId))
    .orderBy(asc(companyRepositories.name))
    .limit(200);
  return rows satisfies Served<typeof Repository>[];
}

/** Adds a repository to the company's list (admins); a duplicate URL is `409 already_exists`. */
export async function createRepository(ctx: ServiceContext, companyId: string, input: CreateRepositoryInput) {
  await requireCompany(ctx, companyId, "agents:manage");
  const row = await withActivity(
    ctx,
    companyId,
    (tx) => insertRow(tx, companyRepositories, { companyId, ...input }),
    (r) => ({
      action: "repository.create",
      entityType: "repository",
      entityId: r.id,
      details: { url: r.url },
    }),
  );
  return row satisfies Served<typeof Repository>;
}

/**
 * Replaces a project's chosen repositories with `repositoryIds`, each from the company's own
 * list (any other id, or one of another company, is `404 not_found` and nothing changes).
 * `companyId: null` takes the project's company (the `/api/projects/:projectId` route).
 */
export async function setProjectRepositories(
  ctx: ServiceContext,
  companyId: string | null,
  projectId: string,
  input: SetProjectRepositoriesInput,
) {
  const company = companyId ?? (await projectCompany(ctx, projectId));
  await requireCompany(ctx, company, "work:write", "project");
  const ids = [...new Set(input.repositoryIds)];
  await withActivity(
    ctx,
    company,
    async (tx) => {
      await lockCompanyRow(tx, projects, company, projectId, "project");
      if (ids.length) {
        const known = await tx
          .select({ id: companyRepositories.id })
          .from(companyRepositories)
          .where(inCompany(companyRepositories, company, inArray(companyRepositories.id, ids)));
        if (known.length !== ids.length) throw notFound("repository");
      }
      const ofProject = inCompany(projectRepositories, company, eq(projectRepositories.projectId, projectId));
      await tx
        .delete(projectRepositories)
        .where(ids.length ? and(ofProject, notInArray(projectRepositories.repositoryId, ids)) : ofProject);
      if (ids.length)
        await tx
          .insert(projectRepositories)
          .values(ids.map((repositoryId) => ({ companyId: company, projectId, repositoryId })))
          .onConflictDoNothing();
      return ids;
    },
    (chosen) => ({
      action: "project.repositories.set",
      entityType: "project",
      entityId: projectId,
      details: { repositoryIds: chosen },
    }),
  );
  return projectDetail(ctx.db, company, projectId) satisfies Promise<Served<typeof ProjectDetail>>;
}

/** The company of a project, for routes addressed by project id only; 404 when unknown. */
async function projectCompany(ctx: ServiceContext, projectId: string): Promise<string> {
  const [row] = await ctx.db
    .select({ companyId: projects.companyId })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!row) throw notFound("project");
  return row.companyId;
}
