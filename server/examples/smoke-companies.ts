import { randomBytes } from "node:crypto";
import { eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companies } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";

export type SmokeRole = "a" | "b";
export const SMOKE_ROLES: readonly SmokeRole[] = ["a", "b"];

export interface SmokeCompanies {
  a: string;
  b: string;
}

/** The system context the smoke checks act in inside the smoke companies (they have no members). */
export const smokeSystemContext = (ctx: ServiceContext): ServiceContext => ({
  ...ctx,
  actor: { type: "system", reason: "smoke checks" },
});

/**
 * The instance's two permanent hidden smoke companies, created on first use. They have no
 * members, so no person, board key or company list reaches them (`listCompanies` also filters
 * on `smoke_role`); only the smoke runner acts in them, as the system. Race-safe across
 * replicas: the unique index on `smoke_role` lets one `INSERT … ON CONFLICT DO NOTHING` win,
 * every replica then reads the winner's row.
 */
export async function ensureSmokeCompanies(db: Db, ctx?: ServiceContext): Promise<SmokeCompanies> {
  const found = await readSmokeCompanies(db);
  for (const role of SMOKE_ROLES) {
    if (found[role]) continue;
    const [created] = await db
      .insert(companies)
      .values({
        name: `Smoke checks ${role.toUpperCase()}`,
        // A random suffix: a person's company can never hold the slug the insert needs.
        slug: `smoke-${role}-${randomBytes(4).toString("hex")}`,
        issuePrefix: `SMK${role.toUpperCase()}`,
        smokeRole: role,
      })
      .onConflictDoNothing()
      .returning({ id: companies.id });
    if (created && ctx) {
      await logActivity(db, smokeSystemContext(ctx), {
        companyId: created.id,
        action: "company.create",
        entityType: "company",
        entityId: created.id,
        details: { smokeRole: role },
      });
    }
  }
  const out = await readSmokeCompanies(db);
  if (!out.a || !out.b) throw new Error("the smoke companies could not be created");
  return { a: out.a, b: out.b };
}

async function readSmokeCompanies(db: Db): Promise<Partial<SmokeCompanies>> {
  const rows = await db
    .select({ id: companies.id, role: companies.smokeRole })
    .from(companies)
    .where(isNotNull(companies.smokeRole));
  return Object.fromEntries(rows.map((r) => [r.role, r.id]));
}

/** Whether a company is one of the hidden smoke companies. */
export async function isSmokeCompany(db: Db, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ role: companies.smokeRole })
    .from(companies)
    .where(eq(companies.id, companyId));
  return Boolean(row?.role);
}
