import { z } from "zod";
import { projects, routines } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Project, Routine } from "@/server/contracts/api/core";
import { companyRows, insertRow } from "../access/rows";
import { type ActivityOf, withActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";

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
