/**
 * The admin and person verbs of upstream OAuth (docs/upstream-oauth.md): choose how a remote
 * connection authorises, connect / reconnect / disconnect the company's grant, link and unlink
 * one's own account (`oauth_user`), and the callback the authorization server sends the
 * browser back to. The protocol is in server/upstream-auth; here: who may, what is recorded.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import { companyRow } from "@/db/join";
import {
  companyMemberships,
  toolApplications,
  toolConnections,
  toolUpstreamClients,
  toolUpstreamGrants,
} from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type {
  LinkedAccountsResponse,
  UpstreamAuthConfig,
  UpstreamAuthorization,
  UpstreamConnectStart,
} from "@/server/contracts/api/upstream-auth";
import { mutateAccess } from "../access/mutate";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import { loadConnection } from "../connectors/connection";
import { actorUserId, type ServiceContext } from "../context";
import { CONNECTION_AUTH_KINDS, UPSTREAM_TOKEN_AUTH_METHODS } from "../contracts/values";
import { forbidden, invalidRequest, isServiceError, ServiceError } from "../errors";
import { logWarn } from "../log";
import {
  beginAuthorization,
  claimState,
  completeAuthorization,
  disconnectGrant,
  fetchClientCredentials,
  type OAuthConnection,
} from "../upstream-auth/flows";
import {
  clientInfoOf,
  type GrantRow,
  loadClient,
  loadGrant,
  saveClient,
  subjectKeyOf,
} from "../upstream-auth/store";

/** RFC 6749 §3.3 scope-token characters. */
const ScopeToken = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/, "not a valid OAuth scope");

export const SetUpstreamAuthInput = z
  .object({
    kind: z.enum(CONNECTION_AUTH_KINDS),
    scopes: z.array(ScopeToken).max(50).optional(),
    /** A pre-registered client (the server's console issued it). */
    clientId: z.string().trim().min(1).max(500).optional(),
    /** Write only: stored encrypted, never answered. */
    clientSecret: z.string().min(1).max(4000).optional(),
    tokenEndpointAuthMethod: z.enum(UPSTREAM_TOKEN_AUTH_METHODS).optional(),
    /** private_key_jwt: the client's private key as a JWK (write only). */
    privateKeyJwk: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type SetUpstreamAuthInput = z.infer<typeof SetUpstreamAuthInput>;

export const ConnectInput = z.object({ returnTo: z.string().max(500).optional() }).strict();

type ConnectionRow = typeof toolConnections.$inferSelect;

function oauthConnectionOf(row: ConnectionRow): OAuthConnection {
  const url = row.transportConfig.url;
  if (!url) throw invalidRequest("the connection has no URL");
  return {
    id: row.id,
    companyId: row.companyId,
    url,
    authKind: row.authKind,
    authConfig: row.authConfig ?? {},
  };
}

/** A console path to come back to: same origin only (never an open redirect). */
function safeReturnTo(value: string | undefined | null): string | null {
  if (!value) return null;
  return value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") ? value : null;
}

function grantView(g: GrantRow | null) {
  if (!g) return null;
  return {
    status: g.status,
    connectedAs: g.connectedAs,
    scopes: g.scope ? g.scope.split(" ").filter(Boolean) : [],
    expiresAt: g.accessExpiresAt,
    refreshedAt: g.refreshedAt,
    connectedAt: g.updatedAt,
    lastError: g.lastError,
  };
}

/** Whether the stored client holds a secret or a private key (never which). */
function storesCredential(client: NonNullable<Awaited<ReturnType<typeof loadClient>>>): boolean {
  const info = clientInfoOf(client);
  return Boolean(info.client_secret || info.private_jwk);
}

async function presentAuthorization(ctx: ServiceContext, row: ConnectionRow) {
  const client = await loadClient(ctx.db, row.companyId, row.id);
  const own = row.authKind === "oauth_user" ? actorUserId(ctx.actor) : null;
  const grant =
    row.authKind === "static" || (row.authKind === "oauth_user" && !own)
      ? null
      : await loadGrant(ctx.db, row.companyId, row.id, own);
  const linked =
    row.authKind === "oauth_user"
      ? (
          await ctx.db
            .select({ id: toolUpstreamGrants.id })
            .from(toolUpstreamGrants)
            .where(
              and(
                eq(toolUpstreamGrants.companyId, row.companyId),
                eq(toolUpstreamGrants.connectionId, row.id),
              ),
            )
        ).length
      : 0;
  const view = grantView(grant);
  return {
    kind: row.authKind,
    status: view?.status ?? "not_connected",
    issuer: client?.issuer || null,
    registration: client?.registration ?? null,
    clientId: client?.clientId ?? null,
    hasClientCredential: client ? storesCredential(client) : false,
    config: row.authConfig ?? {},
    grant: view,
    linkedPeople: linked,
  } satisfies Served<typeof UpstreamAuthorization>;
}

async function remoteConnection(ctx: ServiceContext, companyId: string, connectionId: string) {
  const { connection, application } = await loadConnection(ctx.db, companyId, connectionId);
  if (application.type !== "mcp_http")
    throw new ServiceError(
      "upstream_oauth_not_configured",
      "only remote (HTTP) MCP connections authorise with OAuth",
    );
  return connection;
}

export async function getUpstreamAuthorization(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const { connection } = await loadConnection(ctx.db, companyId, connectionId);
  return { authorization: await presentAuthorization(ctx, connection) };
}

/**
 * Sets how the connection authorises. Changing the kind, the client or the scopes drops every
 * grant it had (they were given for another arrangement) — an access change, recorded.
 */
export async function setUpstreamAuthorization(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  input: SetUpstreamAuthInput,
) {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const connection = await remoteConnection(ctx, companyId, connectionId);
  const existingClient = await loadClient(ctx.db, companyId, connectionId);
  if (
    input.kind === "static" &&
    (input.clientId || input.clientSecret || input.privateKeyJwk || input.scopes)
  )
    throw invalidRequest("a static connection takes no OAuth settings");
  if (input.tokenEndpointAuthMethod === "private_key_jwt" && input.clientId && !input.privateKeyJwk)
    throw invalidRequest("private_key_jwt needs the client's private key (`privateKeyJwk`)");
  if (input.privateKeyJwk && typeof input.privateKeyJwk.d !== "string")
    throw invalidRequest("`privateKeyJwk` must be a private key (it has no `d`)");
  if (input.clientSecret && !input.clientId) throw invalidRequest("a client secret needs its `clientId`");
  if (
    input.kind === "client_credentials" &&
    !input.clientId &&
    existingClient?.registration !== "pre_registered"
  )
    throw invalidRequest("client credentials need a pre-registered `clientId` and its secret or private key");
  // The same pre-registered client id without a new secret or key keeps the stored credential
  // (the console never shows it back, so a form saved again must not erase it).
  const keepsClient =
    !!input.clientId &&
    !input.clientSecret &&
    !input.privateKeyJwk &&
    existingClient?.registration === "pre_registered" &&
    existingClient.clientId === input.clientId;
  if (
    input.kind === "client_credentials" &&
    input.clientId &&
    !input.clientSecret &&
    !input.privateKeyJwk &&
    !keepsClient
  )
    throw invalidRequest("client credentials need `clientSecret` or `privateKeyJwk`");
  const replacesClient = input.kind === "static" || (!!input.clientId && !keepsClient);

  const config: UpstreamAuthConfig = {
    ...(input.scopes?.length ? { scopes: input.scopes } : {}),
    ...(input.clientId ? { clientId: input.clientId } : {}),
    ...(input.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: input.tokenEndpointAuthMethod } : {}),
  };
  const row = await mutateAccess(
    ctx,
    companyId,
    async (tx) => {
      const [updated] = await tx
        .update(toolConnections)
        .set({ authKind: input.kind, authConfig: config, updatedAt: ctx.now() })
        .where(companyRow(toolConnections, companyId, connectionId))
        .returning();
      // Grants were given for the old arrangement; a new client starts over.
      await tx
        .delete(toolUpstreamGrants)
        .where(
          and(eq(toolUpstreamGrants.companyId, companyId), eq(toolUpstreamGrants.connectionId, connectionId)),
        );
      if (replacesClient) {
        await tx
          .delete(toolUpstreamClients)
          .where(
            and(
              eq(toolUpstreamClients.companyId, companyId),
              eq(toolUpstreamClients.connectionId, connectionId),
            ),
          );
      }
      if (input.clientId && replacesClient) {
        await saveClient(tx, companyId, connectionId, {
          issuer: "",
          registration: "pre_registered",
          client: {
            client_id: input.clientId,
            ...(input.clientSecret ? { client_secret: input.clientSecret } : {}),
            ...(input.privateKeyJwk ? { private_jwk: input.privateKeyJwk } : {}),
            token_endpoint_auth_method:
              input.tokenEndpointAuthMethod ??
              (input.privateKeyJwk ? "private_key_jwt" : input.clientSecret ? "client_secret_basic" : "none"),
          },
        });
      }
      return updated!;
    },
    () => ({
      action: "tool_connection.authorization_set",
      entityType: "tool_connection",
      entityId: connectionId,
      details: {
        from: connection.authKind,
        to: input.kind,
        scopes: input.scopes ?? [],
        clientId: input.clientId ?? null,
        clientCredential: input.clientSecret ? "secret" : input.privateKeyJwk ? "private_key" : null,
      },
    }),
  );
  return { authorization: await presentAuthorization(ctx, row) };
}

/**
 * Connect (or Reconnect): `oauth_company` → the URL an admin's browser follows;
 * `client_credentials` → tokens at once; `oauth_user` → the caller links their own account.
 */
export async function connectUpstream(
  ctx: ServiceContext,
  companyId: string,
  connectionId: string,
  input: z.infer<typeof ConnectInput>,
) {
  // Membership first: an outsider learns nothing of the connection (and is recorded).
  await requireCompany(ctx, companyId, "company:read");
  const connection = await loadConnection(ctx.db, companyId, connectionId).then((r) => r.connection);
  const byUserId = actorUserId(ctx.actor);
  // Linking one's own account needs membership only; the company's grant needs an admin.
  if (connection.authKind !== "oauth_user") await requireCompany(ctx, companyId, "tools:manage_connections");
  await remoteConnection(ctx, companyId, connectionId);
  const c = oauthConnectionOf(connection);
  if (connection.authKind === "static")
    throw new ServiceError(
      "upstream_oauth_not_configured",
      "the connection does not authorise with OAuth; choose an authorization kind first",
    );
  if (connection.authKind === "client_credentials") {
    const grant = await fetchClientCredentials(ctx.db, c, byUserId, ctx.now());
    await logActivity(ctx.db, ctx, {
      companyId,
      action: "tool_connection.authorization_connected",
      entityType: "tool_connection",
      entityId: connectionId,
      details: { kind: c.authKind, scopes: grant.scope ?? null },
    });
    return {
      authorizationUrl: null,
      authorization: await presentAuthorization(ctx, connection),
    } satisfies Served<typeof UpstreamConnectStart>;
  }
  if (!byUserId)
    throw forbidden(
      "connecting with OAuth needs a person at a browser (sign in, or a board key of a person)",
    );
  const { authorizationUrl } = await beginAuthorization(
    ctx.db,
    c,
    { byUserId, forUserId: c.authKind === "oauth_user" ? byUserId : null },
    { returnTo: safeReturnTo(input.returnTo), now: ctx.now() },
  ).catch(async (err: unknown) => {
    // Discovery refused (issuer mismatch, no S256, a forbidden address …): recorded like a
    // refused callback.
    if (isServiceError(err))
      await logActivity(ctx.db, ctx, {
        companyId,
        action: "tool_connection.authorization_failed",
        entityType: "tool_connection",
        entityId: connectionId,
        details: { code: err.code, step: "connect" },
      }).catch(() => {});
    throw err;
  });
  await logActivity(ctx.db, ctx, {
    companyId,
    action: "tool_connection.authorization_started",
    entityType: "tool_connection",
    entityId: connectionId,
    details: { kind: c.authKind, scopes: c.authConfig.scopes ?? [] },
  });
  return {
    authorizationUrl,
    authorization: await presentAuthorization(ctx, connection),
  } satisfies Served<typeof UpstreamConnectStart>;
}

/** Disconnect the company's grant (admins), or unlink one's own (`oauth_user`). */
export async function disconnectUpstream(ctx: ServiceContext, companyId: string, connectionId: string) {
  await requireCompany(ctx, companyId, "company:read");
  const { connection } = await loadConnection(ctx.db, companyId, connectionId);
  const own = connection.authKind === "oauth_user";
  if (!own) await requireCompany(ctx, companyId, "tools:manage_connections");
  const userId = own ? actorUserId(ctx.actor) : null;
  if (own && !userId) throw forbidden("only a person can unlink their own account");
  const result = await disconnectGrant(ctx.db, connection, userId);
  if (result.existed) {
    await logActivity(ctx.db, ctx, {
      companyId,
      action: own ? "tool_connection.account_unlinked" : "tool_connection.authorization_disconnected",
      entityType: "tool_connection",
      entityId: connectionId,
      details: { revokedUpstream: result.revoked },
    });
  }
  return { authorization: await presentAuthorization(ctx, connection) };
}

/**
 * The callback: the signed-in person who started the authorization finishes it. Answers where
 * to send the browser (the console page it came from) and the result.
 */
export async function completeUpstreamCallback(
  ctx: ServiceContext,
  query: { state?: string; code?: string; iss?: string; error?: string },
): Promise<{
  returnTo: string;
  authorization: Served<typeof UpstreamAuthorization> | null;
  error: ServiceError | null;
}> {
  const userId = actorUserId(ctx.actor);
  if (!userId) throw forbidden("sign in to finish connecting");
  if (!query.state) throw new ServiceError("upstream_oauth_state_invalid", "the answer carries no state");
  // A known authorization refused here (another person's, expired) is recorded in its company;
  // an unknown `state` names no company, so only the server log has it.
  const claimed = await claimState(ctx.db, query.state, userId, ctx.now(), async (row, why) => {
    await logActivity(ctx.db, ctx, {
      companyId: row.companyId,
      action: "tool_connection.authorization_failed",
      entityType: "tool_connection",
      entityId: row.connectionId,
      details: { code: "upstream_oauth_state_invalid", why },
    }).catch(() => {});
  }).catch((err: unknown) => {
    logWarn("upstream_oauth.callback_refused", { code: "upstream_oauth_state_invalid" });
    throw err;
  });
  const { connection } = await loadConnection(ctx.db, claimed.companyId, claimed.connectionId);
  const returnTo =
    claimed.returnTo ??
    (claimed.subjectKey === "company"
      ? `/c/${claimed.companyId}/settings/tools/connections?connection=${claimed.connectionId}`
      : "/account#linked-accounts");
  const own = claimed.subjectKey !== "company";
  await requireCompany(ctx, claimed.companyId, own ? "company:read" : "tools:manage_connections");
  let error: ServiceError | null = null;
  try {
    if (query.error)
      throw new ServiceError(
        "upstream_oauth_refused",
        `the authorization server answered \`${query.error.slice(0, 100)}\``,
        {
          error: query.error.slice(0, 100),
        },
      );
    if (!query.code) throw new ServiceError("upstream_oauth_refused", "the answer carries no code");
    const grant = await completeAuthorization(
      ctx.db,
      oauthConnectionOf(connection),
      claimed,
      { code: query.code, iss: query.iss ?? null },
      ctx.now(),
    );
    await logActivity(ctx.db, ctx, {
      companyId: claimed.companyId,
      action: own ? "tool_connection.account_linked" : "tool_connection.authorization_connected",
      entityType: "tool_connection",
      entityId: claimed.connectionId,
      details: { kind: connection.authKind, scopes: grant.scope ?? null, connectedAs: grant.connectedAs },
    });
  } catch (err) {
    if (!isServiceError(err)) throw err;
    error = err;
    await logActivity(ctx.db, ctx, {
      companyId: claimed.companyId,
      action: "tool_connection.authorization_failed",
      entityType: "tool_connection",
      entityId: claimed.connectionId,
      details: { code: err.code },
    });
  }
  return { returnTo, authorization: await presentAuthorization(ctx, connection), error };
}

/** The caller's `oauth_user` connections across their companies, with their own grants. */
export async function listLinkedAccounts(ctx: ServiceContext) {
  const userId = actorUserId(ctx.actor);
  if (!userId) throw forbidden("linked accounts belong to a person");
  const companies = (
    await ctx.db
      .select({ companyId: companyMemberships.companyId })
      .from(companyMemberships)
      .where(eq(companyMemberships.userId, userId))
  ).map((r) => r.companyId);
  if (companies.length === 0) return { accounts: [] } satisfies Served<typeof LinkedAccountsResponse>;
  const rows = await ctx.db
    .select({ connection: toolConnections, application: toolApplications, grant: toolUpstreamGrants })
    .from(toolConnections)
    .innerJoin(
      toolApplications,
      and(
        eq(toolApplications.companyId, toolConnections.companyId),
        eq(toolApplications.id, toolConnections.applicationId),
      ),
    )
    .leftJoin(
      toolUpstreamGrants,
      and(
        eq(toolUpstreamGrants.companyId, toolConnections.companyId),
        eq(toolUpstreamGrants.connectionId, toolConnections.id),
        eq(toolUpstreamGrants.subjectKey, subjectKeyOf(userId)),
      ),
    )
    .where(
      and(
        inArray(toolConnections.companyId, companies),
        eq(toolConnections.authKind, "oauth_user"),
        isNull(toolConnections.archivedAt),
      ),
    );
  return {
    accounts: rows.map((r) => ({
      companyId: r.connection.companyId,
      connectionId: r.connection.id,
      connectionName: r.connection.name,
      applicationName: r.application.name,
      grant: grantView(r.grant),
    })),
  } satisfies Served<typeof LinkedAccountsResponse>;
}
