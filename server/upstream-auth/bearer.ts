/**
 * The bearer a connector sends upstream for one call (docs/upstream-oauth.md). A connector asks
 * `upstreamBearer` and never sees how it was obtained. An access token that expires within
 * `REFRESH_MARGIN_MS` is refreshed first — by one caller at a time across every replica: the
 * refresh holds the grant row's lock (`SELECT … FOR UPDATE`), and whoever gets the lock after
 * it finds a fresh token and uses it, so a rotating refresh token is never spent twice.
 */
import { refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { boardApiKeys, heartbeatRuns, toolUpstreamGrants } from "@/db/schema";
import { publicOrigin } from "../config/proxy";
import { isServiceError, ServiceError } from "../errors";
import { logWarn } from "../log";
import { oauthFetch } from "./client";
import { clientAuthOf, fetchClientCredentials, type OAuthConnection } from "./flows";
import {
  clientInfoOf,
  discoveryOf,
  expiryOf,
  type GrantRow,
  loadClient,
  loadGrant,
  seal,
  tokensOf,
  upstreamGrantRef,
} from "./store";

/** Refresh this long before the server's expiry (clock skew, the call's own duration). */
export const REFRESH_MARGIN_MS = 60_000;

const expiring = (g: GrantRow, now: Date) =>
  g.accessExpiresAt !== null && g.accessExpiresAt.getTime() - now.getTime() < REFRESH_MARGIN_MS;

/** Where a person links their account (the console's account page). */
export const linkedAccountsUrl = () => `${publicOrigin()}/account#linked-accounts`;

function needsPerson(c: OAuthConnection, forUserId: string | null, why: string): ServiceError {
  if (c.authKind === "oauth_user")
    return new ServiceError(
      "user_grant_required",
      forUserId
        ? `this tool acts as the run's responsible person, who has not linked their account (${why}); they can link it at ${linkedAccountsUrl()}`
        : "this tool acts as the run's responsible person, and this run has none (it was not started by a person)",
      { connectionId: c.id, linkUrl: linkedAccountsUrl() },
    );
  return new ServiceError(
    "upstream_authorization_required",
    `the connection's upstream authorization ${why}; an admin must connect it again (Tools & Access → the connection → Reconnect)`,
    { connectionId: c.id },
  );
}

/**
 * The person a run acts for (`oauth_user`): who started it, when a person did — signed in, or
 * with a board key that person created (a key acts for its creator, as elsewhere).
 */
export async function responsiblePersonOf(
  db: Db | Tx,
  companyId: string,
  runId: string | null,
): Promise<string | null> {
  if (!runId) return null;
  const [run] = await db
    .select({ type: heartbeatRuns.startedByActorType, id: heartbeatRuns.startedByActorId })
    .from(heartbeatRuns)
    .where(and(eq(heartbeatRuns.companyId, companyId), eq(heartbeatRuns.id, runId)));
  if (run?.type === "user") return run.id;
  if (run?.type !== "board_key") return null;
  const [key] = await db
    .select({ userId: boardApiKeys.createdByUserId })
    .from(boardApiKeys)
    .where(and(eq(boardApiKeys.companyId, companyId), eq(boardApiKeys.id, run.id)));
  return key?.userId ?? null;
}

/**
 * The access token for a call on `c`, acting for `forUserId` (`oauth_user`) or the company.
 * Fails closed: no grant, a grant that needs a person, or a refresh the server refused.
 */
export async function upstreamBearer(
  db: Db,
  c: OAuthConnection,
  forUserId: string | null,
  now: Date = new Date(),
): Promise<UpstreamBearer> {
  if (c.authKind === "oauth_user" && !forUserId) throw needsPerson(c, null, "");
  const subject = c.authKind === "oauth_user" ? forUserId : null;
  let grant = await loadGrant(db, c.companyId, c.id, subject);
  if (!grant && c.authKind === "client_credentials") grant = await fetchClientCredentials(db, c, null, now);
  if (!grant) throw needsPerson(c, subject, "was never given");
  if (grant.status !== "connected") throw needsPerson(c, subject, "must be renewed");
  if (!expiring(grant, now)) return { token: tokensOf(grant).access_token, grantId: grant.id };
  return refreshUnderLock(db, c, grant.id, subject, now);
}

export interface UpstreamBearer {
  token: string;
  /** The grant it came from (a refusal upstream is noted on it: `noteUpstreamRefusal`). */
  grantId: string;
}

type Refreshed = { token: string; grantId: string } | { error: ServiceError };

async function refreshUnderLock(
  db: Db,
  c: OAuthConnection,
  grantId: string,
  subject: string | null,
  now: Date,
): Promise<UpstreamBearer> {
  const result = await db.transaction(async (tx): Promise<Refreshed> => {
    const [locked] = await tx
      .select()
      .from(toolUpstreamGrants)
      .where(eq(toolUpstreamGrants.id, grantId))
      .for("update");
    if (!locked) return { error: needsPerson(c, subject, "was removed") };
    if (locked.status !== "connected") return { error: needsPerson(c, subject, "must be renewed") };
    // Someone refreshed while this call waited for the lock: use theirs.
    if (!expiring(locked, now)) return { token: tokensOf(locked).access_token, grantId: locked.id };
    if (c.authKind === "client_credentials") {
      const fresh = await fetchClientCredentials(tx, c, null, now);
      return { token: tokensOf(fresh).access_token, grantId: fresh.id };
    }
    const tokens = tokensOf(locked);
    const markNeedsPerson = async (why: string) => {
      await tx
        .update(toolUpstreamGrants)
        .set({ status: "needs_reauthorization", lastError: why.slice(0, 300), updatedAt: now })
        .where(eq(toolUpstreamGrants.id, locked.id));
      return { error: needsPerson(c, subject, "must be renewed") };
    };
    if (!tokens.refresh_token)
      return markNeedsPerson("the access token expired and no refresh token was issued");
    const client = await loadClient(tx, c.companyId, c.id);
    const discovery = discoveryOf(client);
    if (!client || !discovery) return markNeedsPerson("the client registration is gone");
    const info = clientInfoOf(client);
    const resource = discovery.resourceMetadata?.resource;
    const fetch = await oauthFetch(tx);
    let fresh: OAuthTokens;
    try {
      fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation: info,
        refreshToken: tokens.refresh_token,
        ...(resource ? { resource } : {}),
        addClientAuthentication: clientAuthOf(info, discovery),
        fetchFn: fetch,
      });
    } catch (err) {
      // The server said no (invalid_grant: revoked, reused, expired): only a person can fix it.
      if (err instanceof OAuthError) return markNeedsPerson(`the refresh was refused (${err.errorCode})`);
      // Unreachable, too slow, unreadable: transient; the grant stays, this call fails.
      logWarn("upstream_oauth.refresh_failed", {
        connectionId: c.id,
        code: isServiceError(err) ? err.code : undefined,
      });
      return {
        error: isServiceError(err)
          ? err
          : new ServiceError("upstream_unreachable", "the authorization server could not refresh the token"),
      };
    } finally {
      await fetch.close();
    }
    // RFC 6749 §6: a server that rotates sends a new refresh token; one that does not keeps the old.
    const next: OAuthTokens = { ...fresh, refresh_token: fresh.refresh_token ?? tokens.refresh_token };
    await tx
      .update(toolUpstreamGrants)
      .set({
        tokensEncrypted: seal(next, upstreamGrantRef(locked.companyId, locked.id)),
        accessExpiresAt: expiryOf(next, now),
        scope: next.scope ?? locked.scope,
        refreshedAt: now,
        refreshCount: sql`${toolUpstreamGrants.refreshCount} + 1`,
        lastError: null,
        updatedAt: now,
      })
      .where(eq(toolUpstreamGrants.id, locked.id));
    return { token: next.access_token, grantId: locked.id };
  });
  if ("error" in result) throw result.error;
  return { token: result.token, grantId: result.grantId };
}

/** How many step-ups a grant asks of people before the Reconnect stops widening its scope. */
export const STEP_UP_LIMIT = 3;

/**
 * What the upstream's refusal of a bearer means (called after a call or listing failed with
 * `upstream_auth_failed` on an OAuth connection):
 * - 403 `insufficient_scope` (RFC 6750 §3.1, MCP "Scope challenge handling"): the grant needs
 *   more scope, which only a person can give. The grant moves to `needs_reauthorization` with
 *   the scope asked for, which the Reconnect asks for on top of its own (at most
 *   `STEP_UP_LIMIT` times, so a server that keeps asking cannot loop people through consent);
 *   the caller is told `upstream_authorization_required`.
 * - 401: the token was refused before its time (revoked, rotated away): it is marked expired,
 *   so the next call refreshes it first; a refused refresh then needs a person. The caller's
 *   error stands (nothing was run; a retry is decided afresh).
 */
export async function noteUpstreamRefusal(
  db: Db,
  grantId: string,
  refusal: { httpStatus: unknown; challenge?: { error?: string; scope?: string } },
  now: Date = new Date(),
): Promise<ServiceError | null> {
  if (refusal.httpStatus === 403 && refusal.challenge?.error === "insufficient_scope") {
    const [grant] = await db.select().from(toolUpstreamGrants).where(eq(toolUpstreamGrants.id, grantId));
    if (!grant) return null;
    const wanted = new Set([
      ...(grant.scope ?? "").split(" "),
      ...(grant.stepUpScope ?? "").split(" "),
      ...(refusal.challenge.scope ?? "").split(" "),
    ]);
    wanted.delete("");
    const scope = [...wanted].join(" ").slice(0, 2000);
    const exhausted = grant.stepUpCount >= STEP_UP_LIMIT;
    await db
      .update(toolUpstreamGrants)
      .set({
        status: "needs_reauthorization",
        stepUpScope: exhausted ? grant.stepUpScope : scope,
        stepUpCount: sql`${toolUpstreamGrants.stepUpCount} + 1`,
        lastError: (exhausted
          ? `the server still asks for more scope after ${STEP_UP_LIMIT} reconnects; check the scopes the connection asks for`
          : `the server asks for more scope: ${refusal.challenge.scope ?? "(unnamed)"}`
        ).slice(0, 300),
        updatedAt: now,
      })
      .where(eq(toolUpstreamGrants.id, grantId));
    return new ServiceError(
      "upstream_authorization_required",
      "the tool needs more access than the connection was given; an admin must Reconnect to grant it",
      { scope: refusal.challenge.scope ?? null },
    );
  }
  if (refusal.httpStatus === 401) {
    await db
      .update(toolUpstreamGrants)
      .set({ accessExpiresAt: now, updatedAt: now })
      .where(and(eq(toolUpstreamGrants.id, grantId), eq(toolUpstreamGrants.status, "connected")));
  }
  return null;
}
