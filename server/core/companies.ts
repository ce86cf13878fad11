import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { companies, companyMemberships } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { CompanyView } from "@/server/contracts/api/core";
import type { CompanyCreated, CompanySummary } from "@/server/contracts/api/records";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { forbidden } from "../errors";

export const CreateCompanyInput = z.object({
  name: z.string().trim().min(1).max(120),
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{1,47}$/, "lowercase letters, digits and dashes, 2-48 characters")
    .optional(),
  issuePrefix: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9]{1,9}$/, "2-10 uppercase letters or digits")
    .optional(),
});
export type CreateCompanyInput = z.infer<typeof CreateCompanyInput>;

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "company";

const prefixOf = (name: string) =>
  (
    name
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "")
      .slice(0, 4) || "CO"
  ).padEnd(2, "X");

export const companyColumns = {
  id: companies.id,
  name: companies.name,
  slug: companies.slug,
  issuePrefix: companies.issuePrefix,
  createdAt: companies.createdAt,
};

/** Creates a company; the signed-in user becomes its owner. API keys cannot create companies. */
export async function createCompany(ctx: ServiceContext, input: CreateCompanyInput) {
  const { actor } = ctx;
  if (actor.type !== "user" && actor.type !== "system")
    throw forbidden("only a signed-in user can create a company");
  return ctx.db.transaction(async (tx) => {
    const base = input.slug ?? slugify(input.name);
    // A taken derived slug gets a short numeric suffix; an explicit slug that is taken is a 409.
    let slug = base;
    if (!input.slug) {
      for (let i = 2; i < 50; i++) {
        const [taken] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.slug, slug));
        if (!taken) break;
        slug = `${base}-${i}`;
      }
    }
    const [company] = await tx
      .insert(companies)
      .values({ name: input.name, slug, issuePrefix: input.issuePrefix ?? prefixOf(input.name) })
      .returning(companyColumns);
    if (actor.type === "user") {
      await tx
        .insert(companyMemberships)
        .values({ companyId: company!.id, userId: actor.userId, role: "owner" });
    }
    await logActivity(tx, ctx, {
      companyId: company!.id,
      action: "company.create",
      entityType: "company",
      entityId: company!.id,
      details: { name: input.name, slug },
    });
    return company! satisfies Served<typeof CompanyCreated>;
  });
}

/** Companies the caller belongs to, with the caller's role. */
export async function listCompanies(ctx: ServiceContext) {
  const { actor } = ctx;
  if (actor.type === "user") {
    const rows = await ctx.db
      .select({ ...companyColumns, role: companyMemberships.role })
      .from(companyMemberships)
      .innerJoin(companies, eq(companies.id, companyMemberships.companyId))
      // The hidden smoke companies have no members; the filter keeps them out regardless.
      .where(and(eq(companyMemberships.userId, actor.userId), isNull(companies.smokeRole)))
      .orderBy(companies.name);
    return rows satisfies Served<typeof CompanySummary>[];
  }
  if (actor.type === "board_key") {
    const rows = await ctx.db
      .select({ ...companyColumns, role: sql<typeof actor.role>`${actor.role}` })
      .from(companies)
      .where(and(eq(companies.id, actor.companyId), isNull(companies.smokeRole)));
    return rows satisfies Served<typeof CompanySummary>[];
  }
  throw forbidden("agent keys cannot use board routes");
}

export async function getCompany(ctx: ServiceContext, companyId: string) {
  const access = await requireCompany(ctx, companyId, "company:read");
  const [company] = await ctx.db
    .select({ ...companyColumns, ownerMaySelfApprove: companies.ownerMaySelfApprove })
    .from(companies)
    .where(eq(companies.id, companyId));
  return { ...company!, role: access.role } satisfies Served<typeof CompanyView>;
}

export const UpdateCompanyPolicyInput = z.object({
  /** May an owner accept a formal approval they proposed themselves? (Default: no.) */
  ownerMaySelfApprove: z.boolean(),
});

/**
 * Changes the company's approval policy. Owners only (`members:manage`): it decides whether
 * the two-person rule binds owners. Logged with the old and new value.
 */
export async function updateCompanyPolicy(
  ctx: ServiceContext,
  companyId: string,
  input: z.infer<typeof UpdateCompanyPolicyInput>,
) {
  await requireCompany(ctx, companyId, "members:manage");
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ ownerMaySelfApprove: companies.ownerMaySelfApprove })
      .from(companies)
      .where(eq(companies.id, companyId))
      .for("update");
    await tx
      .update(companies)
      .set({ ownerMaySelfApprove: input.ownerMaySelfApprove, updatedAt: ctx.now() })
      .where(eq(companies.id, companyId));
    await logActivity(tx, ctx, {
      companyId,
      action: "company.policy_update",
      entityType: "company",
      entityId: companyId,
      details: {
        ownerMaySelfApprove: { from: before?.ownerMaySelfApprove ?? null, to: input.ownerMaySelfApprove },
      },
    });
    return { companyId, ownerMaySelfApprove: input.ownerMaySelfApprove };
  });
}
