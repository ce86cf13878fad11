import { desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { inCompany } from "@/db/join";
import { agentApiKeys, agents } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { AgentsResponse } from "@/server/contracts/api/core";
import type { AgentDetail, AgentKey, AgentKeyCreated } from "@/server/contracts/api/records";
import { logActivity, withActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { mintToken } from "../auth/tokens";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";

export const CreateAgentInput = z.object({
  name: z.string().trim().min(1).max(100),
  title: z.string().trim().max(120).optional(),
  description: z.string().trim().max(2000).optional(),
  adapterType: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/)
    .default("generic"),
});
export type CreateAgentInput = z.infer<typeof CreateAgentInput>;

export const CreateAgentKeyInput = z.object({ name: z.string().trim().min(1).max(100).default("default") });
export type CreateAgentKeyInput = z.infer<typeof CreateAgentKeyInput>;

export const agentColumns = {
  id: agents.id,
  companyId: agents.companyId,
  name: agents.name,
  title: agents.title,
  description: agents.description,
  adapterType: agents.adapterType,
  status: agents.status,
  createdAt: agents.createdAt,
  updatedAt: agents.updatedAt,
};

export async function createAgent(ctx: ServiceContext, companyId: string, input: CreateAgentInput) {
  await requireCompany(ctx, companyId, "agents:manage");
  const { name, title, description, adapterType } = input;
  return withActivity(
    ctx,
    companyId,
    async (tx) =>
      (
        await tx
          .insert(agents)
          .values({ companyId, name, title, description, adapterType })
          .returning(agentColumns)
      )[0]!,
    (agent) => ({ action: "agent.create", entityType: "agent", entityId: agent.id, details: { name } }),
  );
}

export async function listAgents(ctx: ServiceContext, companyId: string) {
  await requireCompany(ctx, companyId, "company:read");
  // Qualified by hand: drizzle renders the columns unqualified in a correlated subquery, so
  // `company_id = company_id` compared the run with itself and the answer was always null.
  const lastRun = sql<Date | null>`(select max(r.created_at) from heartbeat_runs r
    where r.company_id = "agents"."company_id" and r.agent_id = "agents"."id")`;
  const rows = await ctx.db
    .select({ ...agentColumns, lastRunAt: lastRun.mapWith((v) => (v ? new Date(v) : null)) })
    .from(agents)
    .where(eq(agents.companyId, companyId))
    .orderBy(agents.name);
  return rows satisfies Served<typeof AgentsResponse>["agents"];
}

/** An agent by id, for a board member of its company or the agent's own key; else 404. */
export async function getAgent(ctx: ServiceContext, agentId: string) {
  const [agent] = await ctx.db.select(agentColumns).from(agents).where(eq(agents.id, agentId));
  if (!agent) throw notFound("agent");
  if (ctx.actor.type === "agent_key") {
    if (ctx.actor.agentId !== agent.id) throw notFound("agent");
  } else {
    await requireCompany(ctx, agent.companyId, "company:read", "agent");
  }
  return agent satisfies Served<typeof AgentDetail>;
}

/** Mints an agent API key. The plaintext is in this response only. */
export async function createAgentKey(ctx: ServiceContext, agentId: string, input: CreateAgentKeyInput) {
  const [agent] = await ctx.db
    .select({ id: agents.id, companyId: agents.companyId })
    .from(agents)
    .where(eq(agents.id, agentId));
  if (!agent) throw notFound("agent");
  await requireCompany(ctx, agent.companyId, "agents:manage", "agent");
  const minted = mintToken("agentKey");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(agentApiKeys)
      .values({
        companyId: agent.companyId,
        agentId,
        name: input.name,
        prefix: minted.displayPrefix,
        keyHash: minted.hash,
      })
      .returning({
        id: agentApiKeys.id,
        agentId: agentApiKeys.agentId,
        name: agentApiKeys.name,
        prefix: agentApiKeys.prefix,
        createdAt: agentApiKeys.createdAt,
      });
    await logActivity(tx, ctx, {
      companyId: agent.companyId,
      action: "agent_key.create",
      entityType: "agent_api_key",
      entityId: row!.id,
      details: { agentId, name: input.name, prefix: minted.displayPrefix },
    });
    return { ...row!, key: minted.token } satisfies Served<typeof AgentKeyCreated>;
  });
}

export async function listAgentKeys(ctx: ServiceContext, agentId: string) {
  const agent = await getAgent(ctx, agentId);
  await requireCompany(ctx, agent.companyId, "agents:manage", "agent");
  const rows = await ctx.db
    .select({
      id: agentApiKeys.id,
      name: agentApiKeys.name,
      prefix: agentApiKeys.prefix,
      createdAt: agentApiKeys.createdAt,
      lastUsedAt: agentApiKeys.lastUsedAt,
      revokedAt: agentApiKeys.revokedAt,
    })
    .from(agentApiKeys)
    .where(inCompany(agentApiKeys, agent.companyId, eq(agentApiKeys.agentId, agentId)))
    .orderBy(desc(agentApiKeys.createdAt));
  return rows satisfies Served<typeof AgentKey>[];
}

export async function revokeAgentKey(ctx: ServiceContext, agentId: string, keyId: string) {
  const agent = await getAgent(ctx, agentId);
  await requireCompany(ctx, agent.companyId, "agents:manage", "agent");
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(agentApiKeys)
      .set({ revokedAt: ctx.now() })
      .where(
        inCompany(
          agentApiKeys,
          agent.companyId,
          eq(agentApiKeys.agentId, agentId),
          eq(agentApiKeys.id, keyId),
          isNull(agentApiKeys.revokedAt),
        ),
      )
      .returning({ id: agentApiKeys.id, revokedAt: agentApiKeys.revokedAt });
    if (!row) throw notFound("agent key");
    await logActivity(tx, ctx, {
      companyId: agent.companyId,
      action: "agent_key.revoke",
      entityType: "agent_api_key",
      entityId: keyId,
    });
    return row;
  });
}
