/**
 * Organization skills (docs/agents.md, "Skills"): a named, company-wide set of revisioned
 * files (`SKILL.md` and its references) agents can be given. Members read them
 * (`company:read`); admins create and edit them (`agents:manage`).
 */
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { inCompany } from "@/db/join";
import { companySkillFileRevisions, companySkillFiles, companySkills } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { FileBody, FileWritten, SkillWithFiles } from "@/server/contracts/api/config";
import { findCompanyRow, insertRow } from "../access/rows";
import { withActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { SKILL_STATUSES } from "../contracts/config-values";
import { notFound } from "../errors";
import {
  listHeads,
  type RevisionedTables,
  type RevisionedWrite,
  readCurrent,
  writeRevision,
} from "./revisioned";

const SKILL_TABLES: RevisionedTables = {
  files: companySkillFiles,
  owner: { column: companySkillFiles.skillId, key: "skillId" },
  revisions: companySkillFileRevisions,
};

export const SkillSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lowercase letters, digits and `-`, at most 63");

export const CreateSkillInput = z.strictObject({
  slug: SkillSlug,
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(2000).optional(),
});
export type CreateSkillInput = z.infer<typeof CreateSkillInput>;

export const UpdateSkillInput = z.strictObject({
  name: z.string().trim().min(1).max(120).optional(),
  description: z.string().trim().max(2000).nullable().optional(),
  status: z.enum(SKILL_STATUSES).optional(),
});
export type UpdateSkillInput = z.infer<typeof UpdateSkillInput>;

const withFiles = async (ctx: ServiceContext, skill: typeof companySkills.$inferSelect) => ({
  ...skill,
  files: (await listHeads(ctx.db, SKILL_TABLES, skill.companyId, skill.id)).map((f) => ({
    ...f,
    versioned: true,
  })),
});

/** The company's skills (active first, then by slug), each with its file list. */
export async function listSkills(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await ctx.db
    .select()
    .from(companySkills)
    .where(eq(companySkills.companyId, companyId))
    .orderBy(asc(companySkills.status), asc(companySkills.slug))
    .limit(200);
  return (await Promise.all(rows.map((s) => withFiles(ctx, s)))) satisfies Served<typeof SkillWithFiles>[];
}

/** Creates a skill (no files yet); a duplicate slug is `409 already_exists`. */
export async function createSkill(ctx: ServiceContext, companyId: string, input: CreateSkillInput) {
  await requireCompany(ctx, companyId, "agents:manage");
  const skill = await withActivity(
    ctx,
    companyId,
    (tx) => insertRow(tx, companySkills, { companyId, ...input }),
    (row) => ({ action: "skill.create", entityType: "skill", entityId: row.id, details: { slug: row.slug } }),
  );
  return { ...skill, files: [] } satisfies Served<typeof SkillWithFiles>;
}

/** Renames, re-describes or archives a skill. */
export async function updateSkill(
  ctx: ServiceContext,
  companyId: string,
  skillId: string,
  input: UpdateSkillInput,
) {
  await requireCompany(ctx, companyId, "agents:manage");
  const skill = await withActivity(
    ctx,
    companyId,
    async (tx) => {
      const [row] = await tx
        .update(companySkills)
        .set({ ...input, updatedAt: ctx.now() })
        .where(inCompany(companySkills, companyId, eq(companySkills.id, skillId)))
        .returning();
      if (!row) throw notFound("skill");
      return row;
    },
    (row) => ({
      action: "skill.update",
      entityType: "skill",
      entityId: row.id,
      details: { changed: Object.keys(input), status: row.status },
    }),
  );
  return withFiles(ctx, skill) satisfies Promise<Served<typeof SkillWithFiles>>;
}

/** One file of a skill with its body and current revision. */
export async function readSkillFile(ctx: ServiceContext, companyId: string, skillId: string, path: string) {
  await requireCompany(ctx, companyId, "company:read");
  await findCompanyRow(ctx.db, companySkills, companyId, skillId, "skill");
  const file = await readCurrent(ctx.db, SKILL_TABLES, companyId, skillId, path, "skill file");
  return { ...file, versioned: true } satisfies Served<typeof FileBody>;
}

/** Writes a skill file (`baseRevision: null` creates it; an edit names its base revision or hash). */
export async function writeSkillFile(
  ctx: ServiceContext,
  companyId: string,
  skillId: string,
  path: string,
  write: RevisionedWrite,
) {
  await requireCompany(ctx, companyId, "agents:manage");
  const written = await withActivity(
    ctx,
    companyId,
    async (tx) => {
      await findCompanyRow(tx, companySkills, companyId, skillId, "skill");
      return writeRevision(tx, ctx, SKILL_TABLES, companyId, skillId, path, write);
    },
    (head) => ({
      action: head.created ? "skill_file.create" : "skill_file.update",
      entityType: "skill",
      entityId: skillId,
      details: { path, revision: head.revision, sha256: head.sha256 },
    }),
  );
  return { ...written, versioned: true } satisfies Served<typeof FileWritten>;
}
