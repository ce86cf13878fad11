import { eq } from "drizzle-orm";
import { inCompany } from "@/db/join";
import { companyMemberships } from "@/db/schema";
import type { MembershipRole } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import type { ServiceContext } from "../context";
import { forbidden, notFound, type ServiceError } from "../errors";
import { type Capability, roleHas } from "./capabilities";

/** What an agent acting in its run (`agent` actor, the self tools) may do in its company. */
const AGENT_RUN_CAPABILITIES: readonly Capability[] = ["company:read", "work:write"];

export interface CompanyAccess {
  companyId: string;
  role: MembershipRole;
}

/**
 * The first line of every company-scoped verb. A caller outside the company gets 404
 * `not_found` (the company's existence is not revealed); a member without the capability
 * gets 403 `forbidden`. Agent keys hold no board capability; an agent in its run (the self
 * tools) reads and writes its company's work.
 */
export async function requireCompany(
  ctx: ServiceContext,
  companyId: string,
  capability: Capability,
  /** What a non-member is told was not found: the entity they asked for, never "company". */
  hiddenAs = "company",
): Promise<CompanyAccess> {
  const { actor } = ctx;
  let role: MembershipRole | null = null;
  switch (actor.type) {
    case "system":
      return { companyId, role: "owner" };
    case "board_key":
      if (actor.companyId !== companyId) return deny(ctx, companyId, capability, notFound(hiddenAs));
      role = actor.role;
      break;
    case "agent_key":
      if (actor.companyId !== companyId) return deny(ctx, companyId, capability, notFound(hiddenAs));
      return deny(ctx, companyId, capability, forbidden("agent keys cannot use board routes"));
    case "agent":
      // A self tool's run: its own company's work only, never administration.
      if (actor.companyId !== companyId) return deny(ctx, companyId, capability, notFound(hiddenAs));
      if (!AGENT_RUN_CAPABILITIES.includes(capability))
        return deny(ctx, companyId, capability, forbidden(`agents lack the \`${capability}\` capability`));
      return { companyId, role: "member" };
    case "oauth_grant":
      // Assistant connections act only through the public MCP endpoint's own tools, which
      // check the grant themselves; no board verb accepts them (fail closed).
      if (actor.companyId !== companyId) return deny(ctx, companyId, capability, notFound(hiddenAs));
      return deny(ctx, companyId, capability, forbidden("assistant connections cannot use board verbs"));
    case "user": {
      const [m] = await ctx.db
        .select({ role: companyMemberships.role })
        .from(companyMemberships)
        .where(inCompany(companyMemberships, companyId, eq(companyMemberships.userId, actor.userId)))
        .limit(1);
      if (!m) return deny(ctx, companyId, capability, notFound(hiddenAs));
      role = m.role;
      break;
    }
  }
  if (!roleHas(role, capability))
    return deny(
      ctx,
      companyId,
      capability,
      forbidden(`your role \`${role}\` lacks the \`${capability}\` capability`),
    );
  return { companyId, role };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Refuses, after recording the refusal in the activity log of the company that was asked
 * for (`access.denied`: who, which capability, which answer). A member lacking a role and an
 * outsider probing the company both leave a trace its admins can see; an id that names no
 * company has no log to write to (the insert's foreign key fails, and is ignored). Written
 * outside any transaction, so the refusal's own rollback cannot take the record with it.
 */
async function deny(
  ctx: ServiceContext,
  companyId: string,
  capability: Capability,
  err: ServiceError,
): Promise<never> {
  if (UUID.test(companyId)) {
    await logActivity(ctx.db, ctx, {
      companyId,
      action: "access.denied",
      entityType: "company",
      entityId: companyId,
      details: { capability, code: err.code, status: err.status },
    }).catch(() => {});
  }
  throw err;
}

/** For agent-facing verbs: the agent key must belong to `agentId` (else 404, revealing nothing). */
export function requireAgentSelf(ctx: ServiceContext, companyId: string, agentId: string): void {
  const { actor } = ctx;
  if (actor.type !== "agent_key" || actor.companyId !== companyId || actor.agentId !== agentId) {
    throw notFound("agent");
  }
}
