import { and, eq, isNull } from "drizzle-orm";
import { getToken } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { agentApiKeys, agents, boardApiKeys, users } from "@/db/schema";
import type { Actor, BoardKeyRole } from "../context";
import { unauthenticated } from "../errors";
import { hashToken, tokenKindOf } from "./tokens";

// last_used_at is written at most once a minute per key, so authentication stays a read.
const LAST_USED_GRANULARITY_MS = 60_000;

/** Parses `Authorization: Bearer <token>`; anything else present in the header is refused. */
export function bearerToken(request: { headers: { get(name: string): string | null } }): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9_\-.~+/]+=*)$/.exec(header.trim());
  if (!match) throw unauthenticated("the Authorization header must be `Bearer <token>`");
  return match[1]!;
}

/** Resolves a board or agent API key to an actor; unknown, revoked or disabled keys are refused. */
export async function actorFromApiKey(db: Db, token: string, now: Date): Promise<Actor> {
  const kind = tokenKindOf(token);
  const hash = hashToken(token);
  if (kind === "boardKey") {
    const [row] = await db
      .select({
        id: boardApiKeys.id,
        companyId: boardApiKeys.companyId,
        role: boardApiKeys.role,
        userId: boardApiKeys.createdByUserId,
        lastUsedAt: boardApiKeys.lastUsedAt,
      })
      .from(boardApiKeys)
      .where(and(eq(boardApiKeys.keyHash, hash), isNull(boardApiKeys.revokedAt)))
      .limit(1);
    if (!row) throw unauthenticated("the API key is unknown or revoked");
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await db.update(boardApiKeys).set({ lastUsedAt: now }).where(eq(boardApiKeys.id, row.id));
    }
    return {
      type: "board_key",
      keyId: row.id,
      companyId: row.companyId,
      role: row.role as BoardKeyRole,
      userId: row.userId,
    };
  }
  if (kind === "agentKey") {
    const [row] = await db
      .select({
        id: agentApiKeys.id,
        companyId: agentApiKeys.companyId,
        agentId: agentApiKeys.agentId,
        lastUsedAt: agentApiKeys.lastUsedAt,
        agentStatus: agents.status,
      })
      .from(agentApiKeys)
      .innerJoin(
        agents,
        and(eq(agents.companyId, agentApiKeys.companyId), eq(agents.id, agentApiKeys.agentId)),
      )
      .where(and(eq(agentApiKeys.keyHash, hash), isNull(agentApiKeys.revokedAt)))
      .limit(1);
    if (!row) throw unauthenticated("the API key is unknown or revoked");
    if (row.agentStatus === "archived") throw unauthenticated("the agent is archived");
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await db.update(agentApiKeys).set({ lastUsedAt: now }).where(eq(agentApiKeys.id, row.id));
    }
    return { type: "agent_key", keyId: row.id, companyId: row.companyId, agentId: row.agentId };
  }
  throw unauthenticated("the API key is not recognised");
}

/** Resolves the next-auth session cookie (a JWT) to a user actor, re-checking the user row. */
export async function actorFromSessionCookie(db: Db, request: Request): Promise<Actor | null> {
  const secret = process.env.AUTH_SECRET;
  if (!secret || !request.headers.get("cookie")) return null;
  let token: Awaited<ReturnType<typeof getToken>> = null;
  for (const secureCookie of [false, true]) {
    token = await getToken({ req: request, secret, secureCookie }).catch(() => null);
    if (token) break;
  }
  const userId = typeof token?.sub === "string" ? token.sub : null;
  if (!userId || !/^[0-9a-f-]{36}$/i.test(userId)) return null;
  // A JWT outlives a disabled or deleted account; the database has the last word.
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.disabledAt)))
    .limit(1);
  return user ? { type: "user", userId: user.id, email: user.email } : null;
}
