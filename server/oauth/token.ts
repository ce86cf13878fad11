/**
 * `POST /mcp/oauth/token` (OAuth 2.1 §3.2, RFC 8628 §3.4). Every redemption is one conditional
 * UPDATE … WHERE consumed_at IS NULL RETURNING, so of two concurrent redemptions (two
 * replicas, two tabs, an attacker and the client) exactly one wins:
 *   - authorization_code: 1 minute, single use, bound to client, redirect URI, PKCE verifier and
 *     resource; a second redemption revokes what the first issued (OAuth 2.1 §4.1.3);
 *   - refresh_token: resource and scope are validated *before* rotating (a refused retry never
 *     burns the token); a refresh never widens scope; replaying a consumed refresh token
 *     revokes the whole grant (OAuth 2.1 §4.3.1, refresh token rotation);
 *   - the device grant: `authorization_pending`, `slow_down` (the interval grows by 5 s and is
 *     stored), `access_denied`, `expired_token`, then one redemption.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { oauthCodes, oauthDeviceAuthorizations, oauthTokens } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import { hashToken } from "../auth/tokens";
import type { ServiceContext } from "../context";
import { checkResourceAndScopes } from "./authorize";
import { requirePublicMcpEnabled } from "./config";
import {
  AccessDeniedError,
  AuthorizationPendingError,
  ExpiredTokenError,
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  SlowDownError,
  UnauthorizedClientError,
  UnsupportedGrantTypeError,
} from "./errors";
import { DEVICE_GRANT } from "./register";
import { oauthJson, readForm } from "./respond";
import {
  findClient,
  findToken,
  issueTokens,
  liveGrant,
  type OAuthClient,
  revokeGrant,
  wantsRefresh,
} from "./store";

function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier, "ascii").digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** A `resource` sent to the token endpoint must be the grant's (a missing one means the grant's). */
function checkResource(form: URLSearchParams, grantResource: string): void {
  const sent = form.get("resource");
  if (sent == null) return;
  const { resource } = checkResourceAndScopes(sent, "paperclip:read", "paperclip:read");
  if (resource !== grantResource)
    throw new InvalidTargetError("the resource is not the one this grant is for");
}

export async function token(ctx: ServiceContext, request: Request): Promise<Response> {
  await requirePublicMcpEnabled(ctx.db);
  const form = await readForm(request);
  const client = await findClient(ctx.db, form.get("client_id") ?? "");
  if (!client) throw new InvalidClientError("unknown client_id");
  const grantType = form.get("grant_type");
  if (grantType && !client.grantTypes.includes(grantType) && grantType !== "refresh_token")
    throw new UnauthorizedClientError(`the client did not register the \`${grantType}\` grant type`);
  switch (grantType) {
    case "authorization_code":
      return oauthJson(await redeemCode(ctx, client, form));
    case "refresh_token":
      return oauthJson(await refresh(ctx, client, form));
    case DEVICE_GRANT:
      return oauthJson(await redeemDevice(ctx, client, form));
    default:
      throw new UnsupportedGrantTypeError("supported: authorization_code, refresh_token, device_code");
  }
}

async function redeemCode(ctx: ServiceContext, client: OAuthClient, form: URLSearchParams) {
  const code = form.get("code");
  const verifier = form.get("code_verifier");
  const redirectUri = form.get("redirect_uri");
  if (!code || !verifier) throw new InvalidRequestError("code and code_verifier are required");
  const now = ctx.now();
  const [row] = await ctx.db
    .select()
    .from(oauthCodes)
    .where(eq(oauthCodes.codeHash, hashToken(code)))
    .limit(1);
  if (!row) throw new InvalidGrantError("the authorization code is unknown");
  const live = await liveGrant(ctx.db, row.grantId);
  if (row.consumedAt) {
    // A second redemption: whoever holds the code now may not be the client (OAuth 2.1 §4.1.3).
    await revokeGrant(ctx.db, ctx, row.grantId, "code_replay");
    throw new InvalidGrantError("the authorization code was already used");
  }
  if (!live || live.grant.clientId !== client.id)
    throw new InvalidGrantError("the authorization code is not valid for this client");
  if (row.expiresAt <= now) throw new InvalidGrantError("the authorization code expired");
  if (redirectUri !== row.redirectUri)
    throw new InvalidGrantError("redirect_uri does not match the authorization request");
  if (!pkceMatches(verifier, row.codeChallenge))
    throw new InvalidGrantError("the PKCE code_verifier does not match");
  checkResource(form, live.grant.resource);
  return ctx.db
    .transaction(async (tx) => {
      const [won] = await tx
        .update(oauthCodes)
        .set({ consumedAt: now })
        .where(and(eq(oauthCodes.id, row.id), isNull(oauthCodes.consumedAt), gt(oauthCodes.expiresAt, now)))
        .returning({ id: oauthCodes.id });
      if (!won) throw new InvalidGrantError("the authorization code was already used");
      return issueTokens(tx, live.grant, live.effectiveScopes, wantsRefresh(live.grant.scopes, client), now);
    })
    .catch(async (err: unknown) => {
      if (err instanceof InvalidGrantError) await revokeGrant(ctx.db, ctx, row.grantId, "code_replay");
      throw err;
    });
}

async function refresh(ctx: ServiceContext, client: OAuthClient, form: URLSearchParams) {
  const presented = form.get("refresh_token");
  if (!presented) throw new InvalidRequestError("refresh_token is required");
  const now = ctx.now();
  const row = await findToken(ctx.db, presented, "refresh");
  if (!row) throw new InvalidGrantError("the refresh token is unknown or revoked");
  const live = await liveGrant(ctx.db, row.grantId);
  if (!live) throw new InvalidGrantError("the connection was revoked or its person no longer has access");
  if (live.grant.clientId !== client.id)
    throw new InvalidGrantError("the refresh token belongs to another client");
  if (row.consumedAt) return replayed(ctx, row.grantId);
  if (row.expiresAt <= now) throw new InvalidGrantError("the refresh token expired");
  // Validate before rotating: a refused request must leave the token usable.
  checkResource(form, live.grant.resource);
  const asked = form.get("scope");
  let scopes = live.effectiveScopes.filter((s) => row.scopes.includes(s));
  if (asked != null) {
    const wanted = [...new Set(asked.split(" ").filter(Boolean))];
    const wider = wanted.find((s) => !row.scopes.includes(s));
    if (wider) throw new InvalidScopeError(`a refresh cannot add the scope \`${wider.slice(0, 100)}\``);
    scopes = scopes.filter((s) => wanted.includes(s));
    if (!scopes.includes("paperclip:read"))
      throw new InvalidScopeError("the scope `paperclip:read` is required");
  }
  const issued = await ctx.db.transaction(async (tx) => {
    const [won] = await tx
      .update(oauthTokens)
      .set({ consumedAt: now })
      .where(and(eq(oauthTokens.id, row.id), isNull(oauthTokens.consumedAt), gt(oauthTokens.expiresAt, now)))
      .returning({ id: oauthTokens.id });
    if (!won) return null;
    return issueTokens(tx, live.grant, scopes, true, now);
  });
  return issued ?? replayed(ctx, row.grantId);
}

async function replayed(ctx: ServiceContext, grantId: string): Promise<never> {
  await revokeGrant(ctx.db, ctx, grantId, "refresh_replay");
  throw new InvalidGrantError("the refresh token was already used; the connection is revoked");
}

async function redeemDevice(ctx: ServiceContext, client: OAuthClient, form: URLSearchParams) {
  const deviceCode = form.get("device_code");
  if (!deviceCode) throw new InvalidRequestError("device_code is required");
  const now = ctx.now();
  const at = now.toISOString();
  // One statement polls: it records this poll and, when it came sooner than the interval,
  // widens the interval by 5 s (RFC 8628 §3.5) — the previous poll time comes from the locked row.
  const [poll] = await ctx.db.execute<{
    id: string;
    status: string;
    client_id: string;
    grant_id: string | null;
    expires_at: Date;
    slow: boolean;
  }>(sql`
    update oauth_device_authorizations d
    set last_polled_at = ${at}::timestamptz,
        interval_seconds = case
          when prev.last_polled_at is not null
           and prev.last_polled_at > ${at}::timestamptz - make_interval(secs => prev.interval_seconds)
          then prev.interval_seconds + 5 else prev.interval_seconds end
    from (select id, last_polled_at, interval_seconds from oauth_device_authorizations
          where device_code_hash = ${hashToken(deviceCode)} for update) prev
    where d.id = prev.id
    returning d.id, d.status, d.client_id, d.grant_id, d.expires_at,
      (prev.last_polled_at is not null
        and prev.last_polled_at > ${at}::timestamptz - make_interval(secs => prev.interval_seconds)) as slow`);
  if (!poll || poll.client_id !== client.id) throw new InvalidGrantError("the device code is unknown");
  if (new Date(poll.expires_at) <= now) throw new ExpiredTokenError("the device code expired; start again");
  if (poll.status === "denied") throw new AccessDeniedError("the person declined");
  if (poll.status === "redeemed") throw new InvalidGrantError("the device code was already used");
  if (poll.status === "pending") {
    if (poll.slow) throw new SlowDownError("polling too fast; wait the interval (now 5 s longer)");
    throw new AuthorizationPendingError("waiting for the person to approve");
  }
  // One transaction: the code is redeemed only together with the tokens it issues (a failure in
  // between leaves it approved, not burned).
  return ctx.db.transaction(async (tx) => {
    const [won] = await tx
      .update(oauthDeviceAuthorizations)
      .set({ status: "redeemed" })
      .where(and(eq(oauthDeviceAuthorizations.id, poll.id), eq(oauthDeviceAuthorizations.status, "approved")))
      .returning({ grantId: oauthDeviceAuthorizations.grantId });
    if (!won?.grantId) throw new InvalidGrantError("the device code was already used");
    const live = await liveGrant(tx, won.grantId);
    if (!live) throw new InvalidGrantError("the connection was revoked or its person no longer has access");
    await logActivity(tx, ctx, {
      companyId: live.grant.companyId,
      action: "oauth_grant.device_redeemed",
      entityType: "oauth_grant",
      entityId: live.grant.id,
      details: { userId: live.grant.userId, clientId: client.clientId },
    });
    return issueTokens(tx, live.grant, live.effectiveScopes, wantsRefresh(live.grant.scopes, client), now);
  });
}
