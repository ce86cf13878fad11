/**
 * Consent verbs behind `/mcp-connect/:requestId` and `/mcp-device`: a signed-in person (a
 * browser session only — board keys, agent keys and OAuth tokens are refused) sees what a
 * client asks for, picks one organisation (only the pinned one when `company_id` was sent: an
 * unavailable pinned company never falls back), and connects or cancels. Nothing is authorized
 * until Connect; the decision consumes the request in one conditional statement.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Tx } from "@/db/client";
import {
  companies,
  companyMemberships,
  oauthAuthorizationRequests,
  oauthClients,
  oauthCodes,
  oauthDeviceAuthorizations,
  oauthGrants,
  users,
} from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { ConsentView as ConsentViewSchema } from "@/server/contracts/api/public-mcp";
import type { ConsentOrganization, ConsentView } from "@/server/contracts/public-mcp";
import type { MembershipRole } from "@/server/contracts/values";
import { logActivity } from "../activity/log-activity";
import { hashToken, mintToken } from "../auth/tokens";

export type { ConsentOrganization, ConsentView };

import type { ServiceContext } from "../context";
import { forbidden, invalidRequest, isServiceError, notFound, unauthenticated } from "../errors";
import { redirectToClient } from "./authorize";
import { LIFETIMES, requirePublicMcpEnabled } from "./config";
import { throttledDeviceLookup } from "./device-attempts";
import { isMutationScope, roleMayWrite, scopesForRole } from "./store";

function requireBrowserUser(ctx: ServiceContext): { userId: string } {
  if (ctx.actor.type !== "user" || !ctx.actor.sessionId)
    throw unauthenticated("sign in with your browser to connect an assistant");
  return { userId: ctx.actor.userId };
}

/**
 * The client's identifying origin: where a CIMD document lives, else where the code is sent
 * (its first redirect). Never the self-reported `client_uri`, which could claim anyone.
 */
function clientOrigin(c: { kind: string; clientId: string; redirectUris: string[] }): string | null {
  const candidate = c.kind === "cimd" ? c.clientId : c.redirectUris[0];
  try {
    return candidate ? new URL(candidate).origin : null;
  } catch {
    return null;
  }
}

async function organizations(
  ctx: ServiceContext,
  userId: string,
  pinned: string | null,
  wantsWrite: boolean,
): Promise<ConsentOrganization[]> {
  const rows = await ctx.db
    .select({ id: companies.id, name: companies.name, role: companyMemberships.role })
    .from(companyMemberships)
    .innerJoin(companies, eq(companies.id, companyMemberships.companyId))
    .where(and(eq(companyMemberships.userId, userId), isNull(companies.smokeRole)))
    .orderBy(companies.name);
  const toOrg = (r: { id: string; name: string; role: string }): ConsentOrganization => {
    const role = r.role as MembershipRole;
    const canWrite = roleMayWrite(role);
    return {
      id: r.id,
      name: r.name,
      role,
      available: true,
      canWrite,
      writeDisabledReason: canWrite
        ? null
        : wantsWrite
          ? `Your role in ${r.name} (${role}) can only read.`
          : "The assistant did not ask to write.",
    };
  };
  if (!pinned) return rows.map(toOrg);
  const match = rows.find((r) => r.id === pinned);
  if (match) return [toOrg(match)];
  return [
    {
      id: pinned,
      name: "Unavailable organization",
      role: null,
      available: false,
      canWrite: false,
      writeDisabledReason: null,
    },
  ];
}

async function pendingRequest(ctx: ServiceContext, requestId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(requestId)) throw notFound("authorization request");
  const [row] = await ctx.db
    .select({ request: oauthAuthorizationRequests, client: oauthClients })
    .from(oauthAuthorizationRequests)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthAuthorizationRequests.clientId))
    .where(
      and(
        eq(oauthAuthorizationRequests.id, requestId),
        isNull(oauthAuthorizationRequests.decidedAt),
        gt(oauthAuthorizationRequests.expiresAt, ctx.now()),
      ),
    )
    .limit(1);
  if (!row) throw notFound("authorization request");
  return row;
}

function view(
  kind: ConsentView["kind"],
  requestId: string,
  client: typeof oauthClients.$inferSelect,
  scopes: string[],
  pinned: string | null,
  orgs: ConsentOrganization[],
  expiresAt: Date,
): ConsentView {
  return {
    kind,
    requestId,
    client: {
      name: client.clientName,
      selfReported: true,
      origin: clientOrigin(client),
      clientId: client.clientId,
      logo: client.kind === "cimd" ? client.logoUri : null,
    },
    scopes,
    wantsWrite: scopes.some(isMutationScope),
    pinnedCompanyId: pinned,
    organizations: orgs,
    expiresAt: expiresAt.toISOString(),
  } satisfies Served<typeof ConsentViewSchema>;
}

export async function loadConsent(ctx: ServiceContext, requestId: string): Promise<ConsentView> {
  const { userId } = requireBrowserUser(ctx);
  await requirePublicMcpEnabled(ctx.db);
  const { request, client } = await pendingRequest(ctx, requestId);
  const wantsWrite = request.scopes.some(isMutationScope);
  const orgs = await organizations(ctx, userId, request.requestedCompanyId, wantsWrite);
  return view(
    "browser",
    request.id,
    client,
    request.scopes,
    request.requestedCompanyId,
    orgs,
    request.expiresAt,
  );
}

export interface Decision {
  approve: boolean;
  companyId?: string;
  /** The "Write all of your Paperclip data" checkbox. */
  write?: boolean;
}

/** Creates the grant for an approved decision (inside the caller's transaction). */
async function createGrant(
  tx: Tx,
  ctx: ServiceContext,
  input: {
    userId: string;
    companyId: string;
    client: typeof oauthClients.$inferSelect;
    resource: string;
    scopes: string[];
    pinned: string | null;
    write: boolean;
  },
) {
  if (input.pinned && input.companyId !== input.pinned)
    throw forbidden("this connection was started for another organization");
  const [m] = await tx
    .select({ role: companyMemberships.role, userName: users.name, email: users.email })
    .from(companyMemberships)
    .innerJoin(users, eq(users.id, companyMemberships.userId))
    .where(
      and(eq(companyMemberships.companyId, input.companyId), eq(companyMemberships.userId, input.userId)),
    )
    .limit(1)
    // A removal or role change of this person waits for this consent (it locks the membership
    // FOR UPDATE), then revokes the grant made here; a consent arriving after it sees the new
    // state. Without the lock a consent reading the old role could outlive the change.
    .for("share", { of: companyMemberships });
  if (!m) throw notFound("company");
  const role = m.role as MembershipRole;
  if (input.write && !roleMayWrite(role)) throw forbidden(`your role \`${role}\` cannot grant write access`);
  let scopes = scopesForRole(role, input.scopes);
  if (!input.write) scopes = scopes.filter((s) => !isMutationScope(s));
  const person = m.userName?.trim() || m.email;
  const clientName = input.client.clientName ?? "assistant";
  const [grant] = await tx
    .insert(oauthGrants)
    .values({
      companyId: input.companyId,
      userId: input.userId,
      clientId: input.client.id,
      resource: input.resource,
      scopes,
      name: `${person}'s ${clientName} connection`.slice(0, 200),
    })
    .returning();
  await tx
    .update(oauthClients)
    .set({ consentedAt: ctx.now() })
    .where(and(eq(oauthClients.id, input.client.id), isNull(oauthClients.consentedAt)));
  await logActivity(tx, ctx, {
    companyId: input.companyId,
    action: "oauth_grant.created",
    entityType: "oauth_grant",
    entityId: grant!.id,
    details: {
      userId: input.userId,
      clientId: input.client.clientId,
      clientName: input.client.clientName,
      scopes,
    },
  });
  return grant!;
}

/** Connect or Cancel on `/mcp-connect/:requestId`; returns where the browser goes next. */
export async function decideConsent(
  ctx: ServiceContext,
  requestId: string,
  decision: Decision,
): Promise<{ redirectTo: string }> {
  const { userId } = requireBrowserUser(ctx);
  await requirePublicMcpEnabled(ctx.db);
  const { client } = await pendingRequest(ctx, requestId);
  if (decision.approve && !decision.companyId) throw invalidRequest("choose an organization");
  const now = ctx.now();
  const refused = consentRefusal(ctx, { userId, client, decision, flow: "browser" });
  return ctx.db
    .transaction(async (tx) => {
      // One conditional statement decides: a second Connect (another tab, a replica) finds nothing.
      const [request] = await tx
        .update(oauthAuthorizationRequests)
        .set({ decidedAt: now })
        .where(
          and(
            eq(oauthAuthorizationRequests.id, requestId),
            isNull(oauthAuthorizationRequests.decidedAt),
            gt(oauthAuthorizationRequests.expiresAt, now),
          ),
        )
        .returning();
      if (!request) throw notFound("authorization request");
      if (!decision.approve) {
        await logActivity(tx, ctx, {
          companyId: null,
          action: "oauth_consent.denied",
          entityType: "oauth_client",
          entityId: client.id,
          details: { userId, clientId: client.clientId },
        });
        const r = redirectToClient(request.redirectUri, {
          error: "access_denied",
          error_description: "the person declined",
          state: request.state,
        });
        return { redirectTo: r.headers.get("location")! };
      }
      const grant = await createGrant(tx, ctx, {
        userId,
        companyId: decision.companyId!,
        client,
        resource: request.resource,
        scopes: request.scopes,
        pinned: request.requestedCompanyId,
        write: decision.write === true,
      });
      const code = mintToken("oauthCode");
      await tx.insert(oauthCodes).values({
        companyId: grant.companyId,
        grantId: grant.id,
        codeHash: code.hash,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        expiresAt: new Date(now.getTime() + LIFETIMES.codeMs),
      });
      const r = redirectToClient(request.redirectUri, { code: code.token, state: request.state });
      return { redirectTo: r.headers.get("location")! };
    })
    .catch(refused);
}

/** Normalises a typed user code: letters only, upper case (`bcdf-ghjk` → `BCDFGHJK`). */
export const normalizeUserCode = (code: string): string => code.toUpperCase().replace(/[^A-Z]/g, "");

async function pendingDevice(ctx: ServiceContext, userId: string, source: string, userCode: string) {
  return throttledDeviceLookup(ctx, userId, source, () => matchDevice(ctx, userCode));
}

async function matchDevice(ctx: ServiceContext, userCode: string) {
  const [row] = await ctx.db
    .select({ device: oauthDeviceAuthorizations, client: oauthClients })
    .from(oauthDeviceAuthorizations)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthDeviceAuthorizations.clientId))
    .where(
      and(
        eq(oauthDeviceAuthorizations.userCodeHash, hashToken(normalizeUserCode(userCode))),
        eq(oauthDeviceAuthorizations.status, "pending"),
        gt(oauthDeviceAuthorizations.expiresAt, ctx.now()),
      ),
    )
    .limit(1);
  if (!row) throw notFound("device code");
  return row;
}

export async function loadDeviceConsent(
  ctx: ServiceContext,
  userCode: string,
  source: string,
): Promise<ConsentView> {
  const { userId } = requireBrowserUser(ctx);
  await requirePublicMcpEnabled(ctx.db);
  const { device, client } = await pendingDevice(ctx, userId, source, userCode);
  const orgs = await organizations(
    ctx,
    userId,
    device.requestedCompanyId,
    device.scopes.some(isMutationScope),
  );
  return view("device", device.id, client, device.scopes, device.requestedCompanyId, orgs, device.expiresAt);
}

/** Approve or decline on `/mcp-device`. */
export async function decideDevice(
  ctx: ServiceContext,
  userCode: string,
  decision: Decision,
  source: string,
): Promise<{ status: "approved" | "denied" }> {
  const { userId } = requireBrowserUser(ctx);
  await requirePublicMcpEnabled(ctx.db);
  const { device, client } = await pendingDevice(ctx, userId, source, userCode);
  if (decision.approve && !decision.companyId) throw invalidRequest("choose an organization");
  const now = ctx.now();
  const refused = consentRefusal(ctx, { userId, client, decision, flow: "device" });
  return ctx.db
    .transaction(async (tx) => {
      const grant = decision.approve
        ? await createGrant(tx, ctx, {
            userId,
            companyId: decision.companyId!,
            client,
            resource: device.resource,
            scopes: device.scopes,
            pinned: device.requestedCompanyId,
            write: decision.write === true,
          })
        : null;
      const [row] = await tx
        .update(oauthDeviceAuthorizations)
        .set({ status: grant ? "approved" : "denied", grantId: grant?.id ?? null })
        .where(
          and(
            eq(oauthDeviceAuthorizations.id, device.id),
            eq(oauthDeviceAuthorizations.status, "pending"),
            gt(oauthDeviceAuthorizations.expiresAt, now),
          ),
        )
        .returning({ id: oauthDeviceAuthorizations.id });
      if (!row) throw notFound("device code");
      if (!grant)
        await logActivity(tx, ctx, {
          companyId: null,
          action: "oauth_consent.denied",
          entityType: "oauth_client",
          entityId: client.id,
          details: { userId, clientId: client.clientId, flow: "device" },
        });
      return { status: grant ? ("approved" as const) : ("denied" as const) };
    })
    .catch(refused);
}

/**
 * A refused decision (another organization than the pinned one, not a member, a role that
 * cannot grant write, a request already decided or expired) rolls its transaction back, and its
 * activity row with it: the refusal is written afterwards, outside it, then rethrown.
 */
function consentRefusal(
  ctx: ServiceContext,
  r: {
    userId: string;
    client: { id: string; clientId: string };
    decision: Decision;
    flow: "browser" | "device";
  },
) {
  return async (err: unknown): Promise<never> => {
    if (isServiceError(err))
      await logActivity(ctx.db, ctx, {
        companyId: null,
        action: "oauth_consent.refused",
        entityType: "oauth_client",
        entityId: r.client.id,
        details: {
          userId: r.userId,
          clientId: r.client.clientId,
          flow: r.flow,
          code: err.code,
          ...(r.decision.companyId ? { requestedCompanyId: r.decision.companyId } : {}),
        },
      }).catch(() => {});
    throw err;
  };
}
