/**
 * Storage of the authorization server: clients, grants and their token family. Tokens are
 * minted with `server/auth/tokens.ts` (32 random bytes, base64url, a readable prefix) and only
 * their SHA-256 is stored. Grants are rechecked on every use against the person's *current*
 * membership and role, so a removed member or a demoted role takes effect at once.
 */
import { and, asc, eq, inArray, isNull, lt, lte, or } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import {
  companies,
  companyMemberships,
  mcpEventSubscriptions,
  oauthClients,
  oauthGrants,
  oauthTokens,
  users,
} from "@/db/schema";
import type { MembershipRole } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import { roleHas } from "../auth/capabilities";
import { hashToken, mintToken } from "../auth/tokens";
import type { ServiceContext } from "../context";
import { stopSubscriptionIn } from "../events/stop";
import { LIFETIMES, MUTATION_SCOPES, OFFLINE_ACCESS } from "./config";

export type OAuthClient = typeof oauthClients.$inferSelect;
export type OAuthGrant = typeof oauthGrants.$inferSelect;

export async function findClient(db: Db | Tx, clientId: string): Promise<OAuthClient | null> {
  if (!clientId || clientId.length > 2048) return null;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
  return row ?? null;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
export const isLoopbackRedirect = (url: URL): boolean =>
  url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());

/**
 * Exact redirect URI match; a native client's loopback redirect may differ only in its port
 * (RFC 8252 §7.3, OAuth 2.1 §8.4.2).
 */
export function redirectAllowed(
  client: Pick<OAuthClient, "redirectUris" | "applicationType">,
  uri: string,
): boolean {
  if (client.redirectUris.includes(uri)) return true;
  if (client.applicationType !== "native") return false;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  if (!isLoopbackRedirect(asked)) return false;
  return client.redirectUris.some((r) => {
    const reg = new URL(r);
    return (
      isLoopbackRedirect(reg) &&
      reg.hostname === asked.hostname &&
      reg.pathname === asked.pathname &&
      reg.search === asked.search
    );
  });
}

/** Which requested scopes a role may hold: read needs `company:read`, write `work:write`, configure `tools:admin`. */
export function scopesForRole(role: MembershipRole, scopes: readonly string[]): string[] {
  return scopes.filter((s) => {
    if (s === "paperclip:read") return roleHas(role, "company:read");
    if (s === "paperclip:write") return roleHas(role, "work:write");
    if (s === "paperclip:configure") return roleHas(role, "tools:admin");
    return s === OFFLINE_ACCESS;
  });
}

export const roleMayWrite = (role: MembershipRole): boolean => roleHas(role, "work:write");
export const isMutationScope = (s: string): boolean => (MUTATION_SCOPES as readonly string[]).includes(s);

export interface LiveGrant {
  grant: OAuthGrant;
  role: MembershipRole;
  /** The grant's scopes that the person's current role still permits. */
  effectiveScopes: string[];
  userEmail: string;
  userName: string | null;
  companyName: string;
  clientName: string | null;
  clientId: string;
}

/** A grant with its company's and client's names (select it joined to both). */
export const grantColumns = {
  grant: oauthGrants,
  companyName: companies.name,
  clientName: oauthClients.clientName,
  clientId: oauthClients.clientId,
};

/**
 * The grant as it may act now: unrevoked, its person enabled and still a member of its
 * company (which still exists) through a membership at least as old as the grant, scopes
 * narrowed by the role the person holds today. Instance admin never elevates a grant: only
 * the membership counts. Null when it may not act.
 *
 * INVARIANT: a grant never outlives the membership it was given under. Removal revokes the
 * grant (`revokeMemberGrants`), and independently of that this check refuses a grant whose
 * membership row is younger than the grant: removal deletes the row and re-adding creates a
 * new one, so a membership re-created at any time after issuance can never revive the grant,
 * whichever path removed it (a verb, raw SQL, a consent racing the removal).
 */
export async function liveGrant(db: Db | Tx, grantId: string): Promise<LiveGrant | null> {
  const [row] = await db
    .select({
      ...grantColumns,
      role: companyMemberships.role,
      disabledAt: users.disabledAt,
      userEmail: users.email,
      userName: users.name,
    })
    .from(oauthGrants)
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .innerJoin(companies, eq(companies.id, oauthGrants.companyId))
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(
      companyMemberships,
      and(
        eq(companyMemberships.companyId, oauthGrants.companyId),
        eq(companyMemberships.userId, oauthGrants.userId),
        lte(companyMemberships.createdAt, oauthGrants.createdAt),
      ),
    )
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)))
    .limit(1);
  if (!row || row.disabledAt) return null;
  const role = row.role as MembershipRole;
  const effectiveScopes = scopesForRole(role, row.grant.scopes);
  if (!effectiveScopes.includes("paperclip:read")) return null;
  return { ...row, role, effectiveScopes };
}

export interface IssuedTokens {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** Whether this grant's client gets refresh tokens: `offline_access` asked, or `refresh_token` registered. */
export const wantsRefresh = (scopes: readonly string[], client: Pick<OAuthClient, "grantTypes">): boolean =>
  scopes.includes(OFFLINE_ACCESS) || client.grantTypes.includes("refresh_token");

/** Mints an access token (and a refresh token when `refresh`) for a grant; returns the token response. */
export async function issueTokens(
  tx: Db | Tx,
  grant: Pick<OAuthGrant, "id" | "companyId">,
  scopes: readonly string[],
  refresh: boolean,
  now: Date,
): Promise<IssuedTokens> {
  const row = (kind: "access" | "refresh", tokenHash: string, lifetimeMs: number) => ({
    companyId: grant.companyId,
    grantId: grant.id,
    kind,
    tokenHash,
    scopes: [...scopes],
    expiresAt: new Date(now.getTime() + lifetimeMs),
  });
  const access = mintToken("oauthAccess");
  const rows: (typeof oauthTokens.$inferInsert)[] = [row("access", access.hash, LIFETIMES.accessTokenMs)];
  const refreshToken = refresh ? mintToken("oauthRefresh") : null;
  if (refreshToken) rows.push(row("refresh", refreshToken.hash, LIFETIMES.refreshTokenMs));
  await tx.insert(oauthTokens).values(rows);
  const wire = scopes.filter((s) => s !== OFFLINE_ACCESS || refreshToken);
  return {
    access_token: access.token,
    token_type: "Bearer",
    expires_in: Math.floor(LIFETIMES.accessTokenMs / 1000),
    scope: wire.join(" "),
    ...(refreshToken ? { refresh_token: refreshToken.token } : {}),
  };
}

export async function findToken(db: Db | Tx, token: string, kind: "access" | "refresh") {
  const [row] = await db
    .select()
    .from(oauthTokens)
    .where(and(eq(oauthTokens.tokenHash, hashToken(token)), eq(oauthTokens.kind, kind)))
    .limit(1);
  return row ?? null;
}

/**
 * Why a grant was revoked (`oauth_grants.revoked_reason`): by its person, by its client, on a
 * replayed code or refresh token, or because its person's access ended (removed from the
 * company, account disabled, demoted to a role that no longer covers the grant's scopes).
 */
export type GrantRevocationReason =
  | "user"
  | "refresh_replay"
  | "code_replay"
  | "client_revocation"
  | MemberAccessLoss;
export type MemberAccessLoss = "member_removed" | "member_disabled" | "role_reduced";

/**
 * Revokes a grant for good: `revoked_at` and the reason set by one conditional UPDATE (only the
 * first caller revokes, and only it writes the activity row), its whole token family deleted,
 * its event subscriptions stopped with their queued deliveries dropped — all in one transaction
 * (the caller's, when given one). Returns whether this call revoked it.
 */
export async function revokeGrant(
  db: Db | Tx,
  ctx: ServiceContext,
  grantId: string,
  reason: GrantRevocationReason,
): Promise<boolean> {
  const now = ctx.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(oauthGrants)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)))
      .returning({
        id: oauthGrants.id,
        companyId: oauthGrants.companyId,
        userId: oauthGrants.userId,
        clientId: oauthGrants.clientId,
      });
    if (!row) return false;
    await tx.delete(oauthTokens).where(eq(oauthTokens.grantId, grantId));
    const subscriptions = await tx
      .select({
        id: mcpEventSubscriptions.id,
        companyId: mcpEventSubscriptions.companyId,
        grantId: mcpEventSubscriptions.grantId,
        eventName: mcpEventSubscriptions.eventName,
        taskId: mcpEventSubscriptions.taskId,
      })
      .from(mcpEventSubscriptions)
      .where(
        and(
          eq(mcpEventSubscriptions.companyId, row.companyId),
          eq(mcpEventSubscriptions.grantId, row.id),
          inArray(mcpEventSubscriptions.state, ["pending", "active"]),
        ),
      );
    for (const sub of subscriptions) await stopSubscriptionIn(tx, ctx, sub, "grant_revoked");
    await logActivity(tx, ctx, {
      companyId: row.companyId,
      action:
        reason === "refresh_replay" || reason === "code_replay"
          ? "oauth_grant.replay_revoked"
          : "oauth_grant.revoked",
      entityType: "oauth_grant",
      entityId: row.id,
      details: { userId: row.userId, clientId: row.clientId, reason },
    });
    return true;
  });
}

/**
 * Whether `role` still covers every scope of a grant. A grant holds only what its person's role
 * allowed at consent (`scopesForRole`), so this is false exactly when the role fell below it.
 */
export const roleCoversGrant = (role: MembershipRole, scopes: readonly string[]): boolean =>
  scopesForRole(role, scopes).length === scopes.length;

/**
 * Revokes for good, in the caller's transaction, every live grant of `userId` — in `companyId`,
 * or in every company when it is null (a disabled account) — with its tokens and event
 * subscriptions, each audited as `oauth_grant.revoked` with `reason`. With `role` (a role
 * change) only the grants that role no longer covers go; the others keep working. Grants are
 * locked in id order, so concurrent revocations cannot deadlock. Returns how many it revoked.
 */
export async function revokeMemberGrants(
  tx: Tx,
  ctx: ServiceContext,
  input: { userId: string; companyId: string | null; reason: MemberAccessLoss; role?: MembershipRole },
): Promise<number> {
  const grants = await tx
    .select({ id: oauthGrants.id, scopes: oauthGrants.scopes })
    .from(oauthGrants)
    .where(
      and(
        eq(oauthGrants.userId, input.userId),
        input.companyId ? eq(oauthGrants.companyId, input.companyId) : undefined,
        isNull(oauthGrants.revokedAt),
      ),
    )
    .orderBy(asc(oauthGrants.id))
    .for("update");
  let revoked = 0;
  for (const g of grants) {
    if (input.role && roleCoversGrant(input.role, g.scopes)) continue;
    if (await revokeGrant(tx, ctx, g.id, input.reason)) revoked++;
  }
  return revoked;
}

/** `last_used_at` at most once a minute per grant, so the bearer check stays (mostly) a read. */
export async function touchGrant(db: Db | Tx, grantId: string, now: Date): Promise<void> {
  await db
    .update(oauthGrants)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(oauthGrants.id, grantId),
        or(isNull(oauthGrants.lastUsedAt), lt(oauthGrants.lastUsedAt, new Date(now.getTime() - 60_000))),
      ),
    );
}
