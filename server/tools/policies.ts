import { asc, desc } from "drizzle-orm";
import { z } from "zod";
import { companyRow } from "@/db/join";
import { agents, projects, toolPolicies } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { Policy, PolicyTestResult } from "@/server/contracts/api/policies";
import { PolicyConditions, PolicySelectors, parsePolicyEffect } from "@/server/contracts/policy-schema";
import { POLICY_KINDS } from "@/server/contracts/values";
import { decide } from "../access/decide";
import { mutateAccess } from "../access/mutate";
import { readTokens } from "../access/rate-limit";
import { companyRows, findCompanyRow, lockCompanyRow } from "../access/rows";
import { getAccessSnapshot } from "../access/snapshot";
import type { AccessRequest } from "../access/types";
import { proposeFormalApproval } from "../approvals/formal";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { resolveRunProject } from "../core/runs";
import { invalidRequest, notFound } from "../errors";

const PolicyFields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(2000).nullable().optional(),
  kind: z.enum(POLICY_KINDS),
  priority: z.number().int().min(-100_000).max(100_000).default(100),
  enabled: z.boolean().default(true),
  selectors: PolicySelectors.default({}),
  conditions: PolicyConditions.default({}),
  effect: z.record(z.string(), z.unknown()).default({}),
};

export const CreatePolicyInput = z.object(PolicyFields);
export type CreatePolicyInput = z.infer<typeof CreatePolicyInput>;

export const UpdatePolicyInput = z
  .object({
    name: PolicyFields.name.optional(),
    description: PolicyFields.description,
    kind: PolicyFields.kind.optional(),
    priority: z.number().int().min(-100_000).max(100_000).optional(),
    enabled: z.boolean().optional(),
    selectors: PolicySelectors.optional(),
    conditions: PolicyConditions.optional(),
    effect: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "nothing to change");
export type UpdatePolicyInput = z.infer<typeof UpdatePolicyInput>;

export const TestPolicyInput = z.object({
  agentId: z.uuid(),
  tool: z.string().trim().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
  issueId: z.uuid().optional(),
  projectId: z.uuid().optional(),
  routineId: z.uuid().optional(),
});
export type TestPolicyInput = z.infer<typeof TestPolicyInput>;

/** The kind's effect must parse; the stored form is the parsed one (defaults filled in). */
function checkedEffect(kind: (typeof POLICY_KINDS)[number], effect: unknown) {
  const parsed = parsePolicyEffect(kind, effect);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw invalidRequest(
      `invalid \`effect\` for a \`${kind}\` policy${first?.path.length ? ` at \`${first.path.join(".")}\`` : ""}: ${first?.message}`,
    );
  }
  return parsed.data as Record<string, unknown>;
}

const present = (p: typeof toolPolicies.$inferSelect) =>
  ({
    id: p.id,
    name: p.name,
    description: p.description,
    kind: p.kind,
    priority: p.priority,
    enabled: p.enabled,
    selectors: p.selectors,
    conditions: p.conditions,
    effect: p.effect,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  }) satisfies Served<typeof Policy>;

export async function listPolicies(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const rows = await companyRows(
    ctx.db,
    toolPolicies,
    companyId,
    desc(toolPolicies.priority),
    asc(toolPolicies.name),
  );
  return rows.map(present);
}

/**
 * An enabled allow policy that can reach write or destructive tools widens what agents may do
 * on their own: it needs a formal approval (another admin accepts it) before it takes effect.
 */
export function needsFormalApproval(p: {
  kind: string;
  enabled: boolean;
  selectors?: { risks?: readonly string[] } | null;
}): boolean {
  if (p.kind !== "allow" || !p.enabled) return false;
  const risks = p.selectors?.risks;
  return !risks || risks.some((r) => r !== "read");
}

export async function createPolicy(ctx: ServiceContext, companyId: string, input: CreatePolicyInput) {
  await requireCompany(ctx, companyId, "tools:admin");
  const effect = checkedEffect(input.kind, input.effect);
  const gated = needsFormalApproval(input);
  let pendingApprovalId: string | null = null;
  const row = await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const [created] = await tx
        .insert(toolPolicies)
        .values({ companyId, ...input, enabled: gated ? false : input.enabled, effect })
        .returning();
      if (gated) {
        const approval = await proposeFormalApproval(tx, ctx, companyId, {
          kind: "policy_enable",
          title: `Enable allow policy “${created!.name}”`,
          summary:
            "This allow policy can grant write or destructive tools; it stays disabled until another admin accepts it.",
          payload: { policyId: created!.id, selectors: created!.selectors },
        });
        pendingApprovalId = approval.id;
      }
      return created!;
    },
    (r) => ({
      action: "tool_policy.create",
      entityType: "tool_policy",
      entityId: r.id,
      details: {
        name: r.name,
        kind: r.kind,
        priority: r.priority,
        selectors: r.selectors,
        conditions: r.conditions,
        effect: r.effect,
      },
    }),
  );
  return { ...present(row), pendingApprovalId };
}

export async function updatePolicy(
  ctx: ServiceContext,
  companyId: string,
  policyId: string,
  input: UpdatePolicyInput,
) {
  await requireCompany(ctx, companyId, "tools:admin");
  const row = await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const current = await lockCompanyRow(tx, toolPolicies, companyId, policyId, "policy");
      const kind = input.kind ?? current.kind;
      if (!(POLICY_KINDS as readonly string[]).includes(kind)) {
        throw invalidRequest(`policy kind \`${kind}\` is not supported; set a supported \`kind\``);
      }
      const effect = checkedEffect(
        kind as (typeof POLICY_KINDS)[number],
        input.effect ?? (input.kind ? {} : current.effect),
      );
      const next = {
        kind,
        enabled: input.enabled ?? current.enabled,
        selectors: input.selectors ?? current.selectors,
      };
      // Widening an allow to write/destructive tools (or enabling one) waits for a formal approval.
      const gated = needsFormalApproval(next) && !needsFormalApproval(current);
      if (gated) {
        await proposeFormalApproval(tx, ctx, companyId, {
          kind: "policy_enable",
          title: `Enable allow policy “${input.name ?? current.name}”`,
          summary:
            "This allow policy can grant write or destructive tools; it stays disabled until another admin accepts it.",
          payload: { policyId: current.id, selectors: next.selectors },
        });
      }
      const [updated] = await tx
        .update(toolPolicies)
        .set({ ...input, kind, effect, ...(gated ? { enabled: false } : {}), updatedAt: ctx.now() })
        .where(companyRow(toolPolicies, companyId, policyId))
        .returning();
      return updated!;
    },
    (r) => ({
      action: "tool_policy.update",
      entityType: "tool_policy",
      entityId: r.id,
      details: { changes: input },
    }),
  );
  return present(row);
}

export async function deletePolicy(ctx: ServiceContext, companyId: string, policyId: string) {
  await requireCompany(ctx, companyId, "tools:admin");
  await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const [r] = await tx
        .delete(toolPolicies)
        .where(companyRow(toolPolicies, companyId, policyId))
        .returning({ id: toolPolicies.id, name: toolPolicies.name });
      if (!r) throw notFound("policy");
      return r;
    },
    (r) => ({
      action: "tool_policy.delete",
      entityType: "tool_policy",
      entityId: r.id,
      details: { name: r.name },
    }),
  );
  return { deleted: true };
}

/** Resolves the context ids of a simulated call; each must belong to the company (else 404). */
export async function resolveAccessContext(
  ctx: ServiceContext,
  companyId: string,
  input: { agentId: string; issueId?: string; projectId?: string; routineId?: string },
) {
  await findCompanyRow(ctx.db, agents, companyId, input.agentId, "agent");
  const projectId = await resolveRunProject(ctx, companyId, input);
  if (input.projectId) await findCompanyRow(ctx.db, projects, companyId, input.projectId, "project");
  return {
    companyId,
    agentId: input.agentId,
    issueId: input.issueId ?? null,
    projectId,
    routineId: input.routineId ?? null,
    runId: null,
    sessionValid: true,
  };
}

/**
 * Evaluates a hypothetical call with the real engine and the real snapshot, including current
 * rate-limit buckets, without executing or recording anything.
 */
export async function testPolicyDecision(ctx: ServiceContext, companyId: string, input: TestPolicyInput) {
  await requireCompany(ctx, companyId, "tools:manage_profiles");
  const context = await resolveAccessContext(ctx, companyId, input);
  const snapshot = await getAccessSnapshot(ctx.db, companyId);
  const request: AccessRequest = {
    purpose: "call",
    context,
    target: { toolName: input.tool },
    arguments: input.arguments,
    now: ctx.now().toISOString(),
  };
  let decision = decide(snapshot, request);
  if (decision.rateLimits.length > 0) {
    const tokens = await readTokens(ctx.db, companyId, decision.rateLimits);
    decision = decide(snapshot, {
      ...request,
      rateLimits: Object.fromEntries(decision.rateLimits.map((s, i) => [s.policyId, { tokens: tokens[i]! }])),
    });
  }
  const byId = new Map(snapshot.policies.map((p) => [p.id, p]));
  return {
    decision,
    matchedPolicies: [...new Set(decision.matchedPolicyIds)].map((id) => ({
      id,
      name: byId.get(id)?.name ?? id,
      kind: byId.get(id)?.kind ?? "unknown",
    })),
  } satisfies Served<typeof PolicyTestResult>;
}
