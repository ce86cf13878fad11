/**
 * A person's assistant connections: the live grants they made (never anyone else's — an
 * admin sees only their own here), and revoking one. Available while the public MCP
 * connection is switched off, so access can always be withdrawn.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import { companies, oauthClients, oauthGrants } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { AssistantConnection as AssistantConnectionSchema } from "@/server/contracts/api/public-mcp";
import type { AssistantConnection } from "@/server/contracts/public-mcp";
import type { ServiceContext } from "../context";
import { notFound, unauthenticated } from "../errors";
import { grantColumns, revokeGrant } from "./store";

function personOf(ctx: ServiceContext): string {
  if (ctx.actor.type !== "user")
    throw unauthenticated("sign in with your browser to manage assistant connections");
  return ctx.actor.userId;
}

export async function listMyConnections(
  ctx: ServiceContext,
  companyId?: string,
): Promise<AssistantConnection[]> {
  const userId = personOf(ctx);
  const rows = await ctx.db
    .select(grantColumns)
    .from(oauthGrants)
    .innerJoin(companies, eq(companies.id, oauthGrants.companyId))
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(
      and(
        eq(oauthGrants.userId, userId),
        isNull(oauthGrants.revokedAt),
        companyId ? eq(oauthGrants.companyId, companyId) : undefined,
      ),
    )
    .orderBy(desc(oauthGrants.createdAt));
  return rows.map((r) => ({
    id: r.grant.id,
    name: r.grant.name,
    companyId: r.grant.companyId,
    companyName: r.companyName,
    clientName: r.clientName,
    clientId: r.clientId,
    write: r.grant.scopes.includes("paperclip:write"),
    scopes: r.grant.scopes,
    createdAt: r.grant.createdAt.toISOString(),
    lastUsedAt: r.grant.lastUsedAt?.toISOString() ?? null,
  })) satisfies Served<typeof AssistantConnectionSchema>[];
}

/** Revokes one of my connections (another person's is 404: it reveals nothing). */
export async function revokeMyConnection(ctx: ServiceContext, grantId: string): Promise<{ revoked: true }> {
  const userId = personOf(ctx);
  const [row] = await ctx.db
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.id, grantId), eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .limit(1);
  if (!row) throw notFound("connection");
  await revokeGrant(ctx.db, ctx, row.id, "user");
  return { revoked: true };
}
