import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { toolProfileBindings, toolProfileEntries, toolProfiles } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Profile } from "@/server/contracts/api/profiles";
import { isValidGlob, MAX_GLOB_LENGTH } from "@/server/contracts/glob";
import { BINDING_TARGETS, RISKS } from "@/server/contracts/values";
import { mutateAccess } from "../access/mutate";
import type { ProfileSelector } from "../access/types";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { invalidRequest, notFound } from "../errors";
import { loadNames, type Names } from "./lookups";

export const CreateProfileInput = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(2000).optional(),
});
export type CreateProfileInput = z.infer<typeof CreateProfileInput>;

export const UpdateProfileInput = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(2000).nullable().optional(),
    status: z.enum(["active", "archived"]).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "nothing to change");
export type UpdateProfileInput = z.infer<typeof UpdateProfileInput>;

export const ProfileSelectorInput = z.discriminatedUnion("type", [
  z.object({ type: z.literal("application"), applicationId: z.uuid() }).strict(),
  z.object({ type: z.literal("connection"), connectionId: z.uuid() }).strict(),
  z.object({ type: z.literal("catalog_entry"), catalogEntryId: z.uuid() }).strict(),
  z
    .object({
      type: z.literal("tool_glob"),
      glob: z
        .string()
        .trim()
        .refine(isValidGlob, `a glob of 1-${MAX_GLOB_LENGTH} characters, e.g. \`github.*\``),
    })
    .strict(),
  z.object({ type: z.literal("risk"), risk: z.enum(RISKS) }).strict(),
]);

export const AddProfileEntryInput = z.object({
  mode: z.enum(["include", "exclude"]).default("include"),
  selector: ProfileSelectorInput,
});
export type AddProfileEntryInput = z.infer<typeof AddProfileEntryInput>;

export const AddProfileBindingInput = z
  .object({ targetType: z.enum(BINDING_TARGETS), targetId: z.uuid().optional() })
  .refine((b) => (b.targetType === "company") === (b.targetId === undefined), {
    message: "a company binding takes no `targetId`; every other binding needs one",
  });
export type AddProfileBindingInput = z.infer<typeof AddProfileBindingInput>;

type EntryRow = typeof toolProfileEntries.$inferSelect;
type BindingRow = typeof toolProfileBindings.$inferSelect;

/** Total: the row's CHECK constraints guarantee the one column its selector type names. */
function entrySelector(e: EntryRow): ProfileSelector {
  switch (e.selectorType) {
    case "application":
      return { type: "application", applicationId: e.applicationId! };
    case "connection":
      return { type: "connection", connectionId: e.connectionId! };
    case "catalog_entry":
      return { type: "catalog_entry", catalogEntryId: e.catalogEntryId! };
    case "tool_glob":
      return { type: "tool_glob", glob: e.toolGlob! };
    case "risk":
      return { type: "risk", risk: e.risk! };
  }
}

function selectorLabel(s: ProfileSelector | null, n: Names): string {
  if (!s) return "unknown selector";
  switch (s.type) {
    case "application":
      return `application ${n.applications.find((a) => a.id === s.applicationId)?.name ?? s.applicationId}`;
    case "connection":
      return `connection ${n.connections.find((c) => c.id === s.connectionId)?.name ?? s.connectionId}`;
    case "catalog_entry":
      return `tool ${n.entries.find((e) => e.id === s.catalogEntryId)?.name ?? s.catalogEntryId}`;
    case "tool_glob":
      return `tools matching ${s.glob}`;
    case "risk":
      return `${s.risk} tools`;
  }
}

function bindingTarget(b: BindingRow): string | null {
  return b.projectId ?? b.agentId ?? b.routineId ?? b.issueId ?? null;
}

function bindingLabel(b: BindingRow, n: Names): string {
  const id = bindingTarget(b);
  switch (b.targetType) {
    case "company":
      return "Company";
    case "project":
      return `Project · ${n.projects.find((p) => p.id === id)?.name ?? id}`;
    case "agent":
      return `Agent · ${n.agents.find((a) => a.id === id)?.name ?? id}`;
    case "routine":
      return `Routine · ${n.routines.find((r) => r.id === id)?.name ?? id}`;
    case "issue": {
      const issue = n.issues.find((i) => i.id === id);
      return `Issue · ${issue ? `${issue.identifier} ${issue.title}` : id}`;
    }
    default:
      return b.targetType;
  }
}

function present(p: typeof toolProfiles.$inferSelect, entries: EntryRow[], bindings: BindingRow[], n: Names) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    status: p.status,
    entries: entries
      .filter((e) => e.profileId === p.id)
      .map((e) => {
        const selector = entrySelector(e);
        return { id: e.id, mode: e.mode, selector, label: selectorLabel(selector, n) };
      }),
    bindings: bindings
      .filter((b) => b.profileId === p.id)
      .map((b) => ({
        id: b.id,
        targetType: b.targetType,
        targetId: bindingTarget(b),
        targetLabel: bindingLabel(b, n),
      })),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  } satisfies Served<typeof Profile>;
}
export type ProfileView = ReturnType<typeof present>;

async function loadProfiles(ctx: ServiceContext, companyId: string, profileId?: string) {
  const where = profileId
    ? companyRow(toolProfiles, companyId, profileId)
    : eq(toolProfiles.companyId, companyId);
  // The entries and bindings of the company's profiles (or of the one profile).
  const ofProfile = (t: typeof toolProfileEntries | typeof toolProfileBindings) =>
    profileId ? inCompany(t, companyId, eq(t.profileId, profileId)) : eq(t.companyId, companyId);
  const [profiles, entries, bindings, names] = await Promise.all([
    ctx.db.select().from(toolProfiles).where(where).orderBy(asc(toolProfiles.name)),
    ctx.db
      .select()
      .from(toolProfileEntries)
      .where(ofProfile(toolProfileEntries))
      .orderBy(asc(toolProfileEntries.createdAt)),
    ctx.db
      .select()
      .from(toolProfileBindings)
      .where(ofProfile(toolProfileBindings))
      .orderBy(asc(toolProfileBindings.createdAt)),
    loadNames(ctx.db, companyId),
  ]);
  return profiles.map((p) => present(p, entries, bindings, names));
}

export async function listProfiles(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  return loadProfiles(ctx, companyId);
}

export async function getProfile(ctx: ServiceContext, companyId: string, profileId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const [profile] = await loadProfiles(ctx, companyId, profileId);
  if (!profile) throw notFound("profile");
  return profile;
}

/**
 * One audited write to a company's profile (`tool_profile.<verb>` in the activity log): the
 * access version moves in the same transaction; no row written is a 404.
 */
async function writeProfile<R extends { id: string }>(
  ctx: ServiceContext,
  companyId: string,
  verb: "create" | "update" | "delete",
  work: (tx: Tx) => Promise<R | undefined>,
  details: (row: R) => Record<string, unknown>,
) {
  await requireCompany(ctx, companyId, "tools:manage_profiles");
  return mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const row = await work(tx);
      if (!row) throw notFound("profile");
      return row;
    },
    (r) => ({
      action: `tool_profile.${verb}`,
      entityType: "tool_profile",
      entityId: r.id,
      details: details(r),
    }),
  );
}

export async function createProfile(ctx: ServiceContext, companyId: string, input: CreateProfileInput) {
  const row = await writeProfile(
    ctx,
    companyId,
    "create",
    async (tx) =>
      (
        await tx
          .insert(toolProfiles)
          .values({ companyId, ...input })
          .returning()
      )[0],
    (r) => ({ name: r.name }),
  );
  return getProfile(ctx, companyId, row.id);
}

export async function updateProfile(
  ctx: ServiceContext,
  companyId: string,
  profileId: string,
  input: UpdateProfileInput,
) {
  await writeProfile(
    ctx,
    companyId,
    "update",
    async (tx) =>
      (
        await tx
          .update(toolProfiles)
          .set({ ...input, updatedAt: ctx.now() })
          .where(companyRow(toolProfiles, companyId, profileId))
          .returning({ id: toolProfiles.id })
      )[0],
    () => ({ ...input }),
  );
  return getProfile(ctx, companyId, profileId);
}

export async function deleteProfile(ctx: ServiceContext, companyId: string, profileId: string) {
  await writeProfile(
    ctx,
    companyId,
    "delete",
    async (tx) =>
      (
        await tx
          .delete(toolProfiles)
          .where(companyRow(toolProfiles, companyId, profileId))
          .returning({ id: toolProfiles.id, name: toolProfiles.name })
      )[0],
    (r) => ({ name: r.name }),
  );
  return { deleted: true };
}

async function assertProfile(tx: Tx, companyId: string, profileId: string) {
  const [p] = await tx
    .select({ id: toolProfiles.id })
    .from(toolProfiles)
    .where(companyRow(toolProfiles, companyId, profileId));
  if (!p) throw notFound("profile");
}

/**
 * Adds one entry or binding to a profile of the company (404 when the profile is not there),
 * logged as `tool_profile.<kind>_add`; returns the new row's id.
 */
async function addProfileChild(
  ctx: ServiceContext,
  companyId: string,
  profileId: string,
  kind: "entry" | "binding",
  insert: (tx: Tx) => Promise<{ id: string }>,
  details: Record<string, unknown>,
) {
  const row = await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      await assertProfile(tx, companyId, profileId);
      return insert(tx);
    },
    (r) => ({
      action: `tool_profile.${kind}_add`,
      entityType: "tool_profile",
      entityId: profileId,
      details: { [`${kind}Id`]: r.id, ...details },
    }),
  );
  return row.id;
}

export async function addProfileEntry(
  ctx: ServiceContext,
  companyId: string,
  profileId: string,
  input: AddProfileEntryInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_profiles");
  const s = input.selector;
  const id = await addProfileChild(
    ctx,
    companyId,
    profileId,
    "entry",
    async (tx) => {
      // Ids of another company fail the composite foreign keys and answer 404.
      const [r] = await tx
        .insert(toolProfileEntries)
        .values({
          companyId,
          profileId,
          mode: input.mode,
          selectorType: s.type,
          applicationId: s.type === "application" ? s.applicationId : null,
          connectionId: s.type === "connection" ? s.connectionId : null,
          catalogEntryId: s.type === "catalog_entry" ? s.catalogEntryId : null,
          toolGlob: s.type === "tool_glob" ? s.glob : null,
          risk: s.type === "risk" ? s.risk : null,
        })
        .returning();
      return r!;
    },
    { mode: input.mode, selector: input.selector },
  );
  const profile = await getProfile(ctx, companyId, profileId);
  return profile.entries.find((e) => e.id === id)!;
}

/** Deletes one entry or binding of a profile (404 when it is not that profile's, in that company). */
async function removeProfileChild(
  ctx: ServiceContext,
  companyId: string,
  profileId: string,
  kind: "entry" | "binding",
  childId: string,
) {
  await requireCompany(ctx, companyId, "tools:manage_profiles");
  const table = kind === "entry" ? toolProfileEntries : toolProfileBindings;
  await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const [r] = await tx
        .delete(table)
        .where(inCompany(table, companyId, eq(table.profileId, profileId), eq(table.id, childId)))
        .returning({ id: table.id });
      if (!r) throw notFound(`profile ${kind}`);
      return r;
    },
    () => ({
      action: `tool_profile.${kind}_remove`,
      entityType: "tool_profile",
      entityId: profileId,
      details: { [`${kind}Id`]: childId },
    }),
  );
  return { deleted: true };
}

export const removeProfileEntry = (
  ctx: ServiceContext,
  companyId: string,
  profileId: string,
  entryId: string,
) => removeProfileChild(ctx, companyId, profileId, "entry", entryId);

export async function addProfileBinding(
  ctx: ServiceContext,
  companyId: string,
  profileId: string,
  input: AddProfileBindingInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_profiles");
  const id = input.targetId ?? null;
  if (input.targetType !== "company" && !id) throw invalidRequest("`targetId` is required for this binding");
  const bindingId = await addProfileChild(
    ctx,
    companyId,
    profileId,
    "binding",
    async (tx) => {
      const [r] = await tx
        .insert(toolProfileBindings)
        .values({
          companyId,
          profileId,
          targetType: input.targetType,
          projectId: input.targetType === "project" ? id : null,
          agentId: input.targetType === "agent" ? id : null,
          routineId: input.targetType === "routine" ? id : null,
          issueId: input.targetType === "issue" ? id : null,
        })
        .returning();
      return r!;
    },
    { targetType: input.targetType, targetId: id },
  );
  const profile = await getProfile(ctx, companyId, profileId);
  return profile.bindings.find((b) => b.id === bindingId)!;
}

export const removeProfileBinding = (
  ctx: ServiceContext,
  companyId: string,
  profileId: string,
  bindingId: string,
) => removeProfileChild(ctx, companyId, profileId, "binding", bindingId);
