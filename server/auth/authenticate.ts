import { and, eq, isNull } from "drizzle-orm";
import { getToken } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { companyRow } from "@/db/join";
import { agentApiKeys, agents, boardApiKeys } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import type { Actor, BoardKeyRole } from "../context";
import { ServiceError, unauthenticated } from "../errors";
import { selectBoardKeysWithCreator } from "./board-key-creator";
import { boardKeyEffectiveRole } from "./capabilities";
import { findLiveSession } from "./sessions";
import { hashToken, tokenKindOf } from "./tokens";

// last_used_at is written at most once a minute per key, so authentication stays a read.
const LAST_USED_GRANULARITY_MS = 60_000;

/** 401 `key_revoked`: the key was revoked, or its creator lost access (see docs/accounts.md). */
export { boardKeyEffectiveRole };

export const keyRevoked = (message: string) => new ServiceError("key_revoked", message);

/**
 * Refuses a board key that exists but may no longer act, after recording the attempt in its
 * company's activity log (`access.denied`, code `key_revoked`): someone still holds and uses a
 * key its company withdrew, and the company's admins should see it. Written outside any
 * transaction; a failed write never turns the refusal into something else.
 */
async function refuseKnownKey(
  db: Db,
  key: { id: string; companyId: string; role: string; userId: string | null },
  reason: "revoked" | "creator_inactive",
  message: string,
): Promise<never> {
  const actor = {
    type: "board_key" as const,
    keyId: key.id,
    companyId: key.companyId,
    role: key.role as BoardKeyRole,
    userId: key.userId,
  };
  await logActivity(
    db,
    { db, actor, requestId: "auth", now: () => new Date() },
    {
      companyId: key.companyId,
      action: "access.denied",
      entityType: "board_key",
      entityId: key.id,
      details: { code: "key_revoked", reason },
    },
  ).catch(() => {});
  throw keyRevoked(message);
}

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
    // One statement: the key, its creator's account and the creator's *current* membership in
    // the key's company. A key acts with the lesser of its own role and the creator's role; a
    // disabled or removed creator (or one whose account was deleted) disables it at once.
    const [row] = await selectBoardKeysWithCreator(db, {
      id: boardApiKeys.id,
      companyId: boardApiKeys.companyId,
      role: boardApiKeys.role,
      userId: boardApiKeys.createdByUserId,
      lastUsedAt: boardApiKeys.lastUsedAt,
      revokedAt: boardApiKeys.revokedAt,
    })
      .where(eq(boardApiKeys.keyHash, hash))
      .limit(1);
    if (!row) throw unauthenticated("the API key is unknown or revoked");
    if (row.revokedAt) return refuseKnownKey(db, row, "revoked", "the API key was revoked");
    const role = boardKeyEffectiveRole(row);
    if (!role)
      return refuseKnownKey(
        db,
        row,
        "creator_inactive",
        "the API key's creator no longer has access to the company",
      );
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await db.update(boardApiKeys).set({ lastUsedAt: now }).where(eq(boardApiKeys.id, row.id));
    }
    return {
      type: "board_key",
      keyId: row.id,
      companyId: row.companyId,
      role,
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
      .innerJoin(agents, companyRow(agents, agentApiKeys.companyId, agentApiKeys.agentId))
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

type HeaderSource = { get(name: string): string | null };

/**
 * The session id inside the next-auth JWT cookie of a request, or null. The JWT is next-auth's
 * own (encrypted, signed with AUTH_SECRET); it is only a carrier: the row it names decides.
 */
export async function sessionIdFromHeaders(
  headers: HeaderSource,
): Promise<{ sid: string; sub: string } | null> {
  const secret = process.env.AUTH_SECRET;
  if (!secret || !headers.get("cookie")) return null;
  let token: Awaited<ReturnType<typeof getToken>> = null;
  for (const secureCookie of [false, true]) {
    token = await getToken({ req: { headers } as never, secret, secureCookie }).catch(() => null);
    if (token) break;
  }
  const sub = typeof token?.sub === "string" ? token.sub : null;
  const sid = typeof token?.sid === "string" ? token.sid : null;
  if (!sub || !sid || !/^[0-9a-f-]{36}$/i.test(sub)) return null;
  return { sid, sub };
}

/**
 * Resolves the next-auth session cookie to a user actor. The cookie must name a live session
 * row of an enabled user (one indexed read): a cookie captured before sign-out, or of a
 * disabled account, is refused although its JWT is still valid.
 */
export async function actorFromSessionHeaders(
  db: Db,
  headers: HeaderSource,
  now = new Date(),
): Promise<Actor | null> {
  const carried = await sessionIdFromHeaders(headers);
  if (!carried) return null;
  const session = await findLiveSession(db, carried.sid, now);
  if (!session || session.userId !== carried.sub) return null;
  return { type: "user", userId: session.userId, email: session.email, sessionId: session.sessionId };
}

/** `actorFromSessionHeaders` for a Request (the API route wrapper). */
export async function actorFromSessionCookie(
  db: Db,
  request: Request,
  now = new Date(),
): Promise<Actor | null> {
  return actorFromSessionHeaders(db, request.headers, now);
}
