import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { RunStatus } from "@/components/types";
import { getDb } from "@/db/client";
import { actorFromSessionHeaders } from "@/server/auth/authenticate";
import { type Capability, roleHas } from "@/server/auth/capabilities";
import type { Actor, ServiceContext } from "@/server/context";
import type { MembershipRole } from "@/server/contracts/values";
import { listCompanies } from "@/server/core/companies";
import { isServiceError } from "@/server/errors";

/**
 * The signed-in user of this request, or null: the cookie must name a live session row of an
 * enabled account (the same one-read check the API routes make), not merely carry a valid JWT.
 */
export async function currentUser(): Promise<Extract<Actor, { type: "user" }> | null> {
  const actor = await actorFromSessionHeaders(getDb(), await headers());
  return actor?.type === "user" ? actor : null;
}

/** The signed-in user's service context for a page; redirects to sign-in when there is none. */
export async function requireUserContext(): Promise<ServiceContext & { actor: { type: "user" } }> {
  const actor = await currentUser();
  if (!actor) {
    const path = (await headers()).get("x-pathname") ?? "/";
    redirect(`/signin?next=${encodeURIComponent(path)}`);
  }
  return {
    db: getDb(),
    actor,
    requestId: `page_${Date.now().toString(36)}`,
    now: () => new Date(),
  };
}

/**
 * The signed-in user's context for a company page; 404 when the user is not a member. `can` says
 * whether the member's role grants a capability.
 */
export async function requireCompanyPage(companyId: string) {
  const ctx = await requireUserContext();
  const companies = await listCompanies(ctx);
  const company = companies.find((c) => c.id === companyId);
  if (!company) notFound();
  const role = company.role as MembershipRole;
  const can = (capability: Capability) => roleHas(role, capability);
  return { ctx, company, companies, can };
}

/** Runs a verb for a page; a `not_found` ServiceError becomes the 404 page. */
export async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    if (isServiceError(err) && err.code === "not_found") notFound();
    throw err;
  }
}

/** A company's row for a page: the 404 page when it is missing or belongs to another company. */
export async function inCompany<T extends { companyId: string }>(
  companyId: string,
  promise: Promise<T>,
): Promise<T> {
  const row = await orNotFound(promise);
  if (row.companyId !== companyId) notFound();
  return row;
}

export const iso = (d: Date | string | null | undefined): string | null =>
  d == null ? null : typeof d === "string" ? d : d.toISOString();

type Time = Date | string | null | undefined;

/** A run as the run lists show it: status, issue and ISO times. */
export function runRow(r: {
  id: string;
  status: string;
  issueIdentifier: string | null;
  createdAt: Time;
  startedAt: Time;
  finishedAt: Time;
}) {
  return {
    id: r.id,
    status: r.status as RunStatus,
    issueIdentifier: r.issueIdentifier,
    createdAt: iso(r.createdAt)!,
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
  };
}
