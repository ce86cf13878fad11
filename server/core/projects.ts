import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { companyRepositories, projectRepositories, projects, routines } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { ProjectDetail } from "@/server/contracts/api/config";
import type { Project, Routine } from "@/server/contracts/api/core";
import { companyRows, findCompanyRow, insertRow } from "../access/rows";
import { type ActivityOf, withActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { PROJECT_STATUSES } from "../contracts/values";
import { notFound } from "../errors";

export const CreateProjectInput = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(4000).optional(),
});
export type CreateProjectInput = z.infer<typeof CreateProjectInput>;

/** The activity row of a new project or routine. */
const created =
  (entity: "project" | "routine", name: string): ActivityOf<{ id: string }> =>
  (row) => ({ action: `${entity}.create`, entityType: entity, entityId: row.id, details: { name } });

export async function createProject(ctx: ServiceContext, companyId: string, input: CreateProjectInput) {
  await requireCompany(ctx, companyId, "work:write");
  return withActivity(
    ctx,
    companyId,
    (tx) => insertRow(tx, projects, { companyId, ...input }),
    created("project", input.name),
  );
}

export async function listProjects(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await companyRows(ctx.db, projects, companyId, projects.name);
  return rows satisfies Served<typeof Project>[];
}

export const UpdateProjectInput = z.strictObject({
  name: z.string().trim().min(1).max(120).optional(),
  description: z.string().trim().max(4000).nullable().optional(),
  status: z.enum(PROJECT_STATUSES).optional(),
});
export type UpdateProjectInput = z.infer<typeof UpdateProjectInput>;

/** A project with its chosen repositories (bounded); 404 when the company has no such project. */
export async function projectDetail(db: Tx, companyId: string, projectId: string) {
  const project = await findCompanyRow(db, projects, companyId, projectId, "project");
  const repositories = await db
    .select({
      id: companyRepositories.id,
      name: companyRepositories.name,
      url: companyRepositories.url,
      defaultBranch: companyRepositories.defaultBranch,
    })
    .from(projectRepositories)
    .innerJoin(
      companyRepositories,
      companyRow(companyRepositories, projectRepositories.companyId, projectRepositories.repositoryId),
    )
    .where(inCompany(projectRepositories, companyId, eq(projectRepositories.projectId, projectId)))
    .orderBy(asc(companyRepositories.name))
    .limit(50);
  return { ...project, repositories } satisfies Served<typeof ProjectDetail>;
}

/** One project with its chosen repositories, for any member of its company. */
export async function getProject(ctx: ServiceContext, companyId: string, projectId: string) {
  await requireCompany(ctx, companyId, "company:read", "project");
  return projectDetail(ctx.db, companyId, projectId);
}

/** Renames, re-describes or archives a project (same capability as creating one). */
export async function updateProject(
  ctx: ServiceContext,
  companyId: string,
  projectId: string,
  input: UpdateProjectInput,
) {
  await requireCompany(ctx, companyId, "work:write", "project");
  await withActivity(
    ctx,
    companyId,
    async (tx) => {
      const [row] = await tx
        .update(projects)
        .set({ ...input, updatedAt: ctx.now() })
        .where(inCompany(projects, companyId, eq(projects.id, projectId)))
        .returning({ id: projects.id, name: projects.name });
      if (!row) throw notFound("project");
      return row;
    },
    (row) => ({
      action: "project.update",
      entityType: "project",
      entityId: row.id,
      details: { changed: Object.keys(input), name: row.name },
    }),
  );
  return projectDetail(ctx.db, companyId, projectId);
}

// Five cron fields of digits, `*`, `/`, `,` and `-` (bounded; the scheduler validates ranges).
const CRON = /^(\S{1,20}\s+){4}\S{1,20}$/;

export const CreateRoutineInput = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(4000).optional(),
  projectId: z.uuid().optional(),
  agentId: z.uuid().optional(),
  schedule: z
    .string()
    .trim()
    .regex(CRON, "a five-field cron expression")
    .refine((s) => /^[\d*/,\-\s]+$/.test(s), "cron fields may hold digits, `*`, `/`, `,` and `-`")
    .optional(),
});
export type CreateRoutineInput = z.infer<typeof CreateRoutineInput>;

/** Creates a routine; a project or agent id from another company fails the composite FK (404). */
export async function createRoutine(ctx: ServiceContext, companyId: string, input: CreateRoutineInput) {
  await requireCompany(ctx, companyId, "work:write");
  return withActivity(
    ctx,
    companyId,
    (tx) => insertRow(tx, routines, { companyId, ...input }),
    created("routine", input.name),
  );
}

export async function listRoutines(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await companyRows(ctx.db, routines, companyId, routines.name);
  return rows satisfies Served<typeof Routine>[];
}
