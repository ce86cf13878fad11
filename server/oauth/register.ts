/**
 * RFC 7591 dynamic client registration (`POST /mcp/oauth/register`): public clients only
 * (`token_endpoint_auth_method: none`), at most 10 exact redirect URIs, each HTTPS or HTTP
 * loopback. Quotas live in the database (server/oauth/quota.ts) so every replica counts the
 * same: 60 new clients a minute per instance, 6 per source; 10,000 never-consented clients
 * per instance, 30 per source. Expired requests and never-consented clients older than an hour
 * are collected here; clients with grants are kept.
 */
import { and, count, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { oauthAuthorizationRequests, oauthClients, oauthDeviceAuthorizations } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import { mintToken } from "../auth/tokens";
import type { ServiceContext } from "../context";
import { readBoundedText } from "../net/read-bounded";
import { LIFETIMES, QUOTAS, RESOURCE_SCOPES, requirePublicMcpEnabled, SUPPORTED_SCOPES } from "./config";
import { InvalidClientMetadataError, InvalidRedirectUriError, TooManyRequestsError } from "./errors";
import { admitPerMinute, lockQuota, refuseUnlessAdmitted, sourceHash } from "./quota";
import { oauthJson } from "./respond";
import { isLoopbackRedirect } from "./store";

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const GRANT_TYPES = ["authorization_code", "refresh_token", DEVICE_GRANT] as const;

const metadataSchema = z
  .object({
    redirect_uris: z.array(z.string().max(2000)).max(QUOTAS.maxRedirectUris).default([]),
    token_endpoint_auth_method: z.string().optional(),
    grant_types: z.array(z.string().max(200)).max(10).optional(),
    response_types: z.array(z.string().max(50)).max(5).optional(),
    client_name: z.string().max(200).optional(),
    client_uri: z.string().max(2000).optional(),
    logo_uri: z.string().max(64_000).optional(),
    scope: z.string().max(1000).optional(),
    application_type: z.enum(["native", "web"]).optional(),
  })
  .passthrough();

export function validateRedirectUri(uri: string): URL {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new InvalidRedirectUriError(`\`${uri.slice(0, 100)}\` is not an absolute URL`);
  }
  // RFC 6749 §3.1.2: no fragment component — an empty one (`…/cb#`) included, which URL drops.
  if (url.hash || uri.includes("#"))
    throw new InvalidRedirectUriError("a redirect URI must not have a fragment");
  if (url.username || url.password)
    throw new InvalidRedirectUriError("a redirect URI must not carry credentials");
  if (url.protocol !== "https:" && !isLoopbackRedirect(url))
    throw new InvalidRedirectUriError("redirect URIs must use https, or http on a loopback address");
  return url;
}

export interface ParsedMetadata {
  redirectUris: string[];
  grantTypes: string[];
  clientName: string | null;
  clientUri: string | null;
  /** A `logo_uri` the consent page may show: see `inlineLogo`. */
  logoUri: string | null;
  scope: string;
  applicationType: "native" | "web";
}

/** The largest `data:` logo kept (bytes of the URL): a 64×64 icon fits easily. */
export const MAX_LOGO_CHARS = 8192;
const DATA_LOGO = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * A client's `logo_uri` (RFC 7591 §2) only when it is an inline raster image within
 * MAX_LOGO_CHARS: the server never fetches an icon URL (no request to an address a client
 * chose), and SVG is refused (it can carry script). Anything else is ignored, not an error.
 */
export function inlineLogo(uri: string | undefined): string | null {
  return uri && uri.length <= MAX_LOGO_CHARS && DATA_LOGO.test(uri) ? uri : null;
}

/**
 * Control characters and bidirectional formatting characters (U+061C, U+200E/F, U+202A–E,
 * U+2066–9) plus line/paragraph separators. A `client_name` holding U+202E reversed the consent
 * heading around it ("… to Paperclip" included): a client could make its request read as
 * something else, so such a name is refused rather than shown.
 */
const UNSAFE_NAME_CHARS = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/u;

/** Validates client metadata (RFC 7591 §2), shared by registration and CIMD documents. */
export function parseClientMetadata(raw: unknown): ParsedMetadata {
  const parsed = metadataSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new InvalidClientMetadataError(
      `invalid client metadata${first?.path.length ? ` at \`${first.path.join(".")}\`` : ""}: ${first?.message ?? "malformed"}`,
    );
  }
  const m = parsed.data;
  if (m.client_name && UNSAFE_NAME_CHARS.test(m.client_name))
    throw new InvalidClientMetadataError(
      "`client_name` must not contain control or bidirectional formatting characters",
    );
  if (m.token_endpoint_auth_method && m.token_endpoint_auth_method !== "none")
    throw new InvalidClientMetadataError(
      "only public clients are supported (`token_endpoint_auth_method: none`)",
    );
  if (m.response_types?.some((t) => t !== "code"))
    throw new InvalidClientMetadataError("only the `code` response type is supported");
  // Unsupported grant types are ignored, not fatal; what is left must be usable.
  const grantTypes = (m.grant_types ?? ["authorization_code"]).filter(
    (g): g is (typeof GRANT_TYPES)[number] => (GRANT_TYPES as readonly string[]).includes(g),
  );
  if (grantTypes.length === 0) throw new InvalidClientMetadataError("no supported grant type");
  const urls = m.redirect_uris.map(validateRedirectUri);
  if (grantTypes.includes("authorization_code") && urls.length === 0)
    throw new InvalidRedirectUriError("at least one redirect URI is required");
  const requested = m.scope ? m.scope.split(" ").filter(Boolean) : [...RESOURCE_SCOPES];
  const unknown = requested.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new InvalidClientMetadataError(`unknown scope \`${unknown[0]}\``);
  // Without `application_type`, a client whose redirects are all loopback is native (RFC 8252).
  const applicationType =
    m.application_type ?? (urls.length > 0 && urls.every(isLoopbackRedirect) ? "native" : "web");
  return {
    redirectUris: urls.map((u) => u.href),
    grantTypes,
    clientName: m.client_name?.trim() || null,
    clientUri: m.client_uri ?? null,
    logoUri: inlineLogo(m.logo_uri),
    scope: requested.join(" "),
    applicationType,
  };
}

/** Collects expired authorization requests and never-consented clients older than an hour. */
async function collectGarbage(db: Db, now: Date): Promise<void> {
  await db.delete(oauthAuthorizationRequests).where(lt(oauthAuthorizationRequests.expiresAt, now));
  await db.delete(oauthDeviceAuthorizations).where(lt(oauthDeviceAuthorizations.expiresAt, now));
  await db
    .delete(oauthClients)
    .where(
      and(
        isNull(oauthClients.consentedAt),
        lt(oauthClients.createdAt, new Date(now.getTime() - LIFETIMES.unconsentedClientMs)),
        sql`not exists (select 1 from oauth_grants g where g.client_id = ${oauthClients.id})`,
      ),
    );
}

export async function register(ctx: ServiceContext, request: Request, source: string): Promise<Response> {
  await requirePublicMcpEnabled(ctx.db);
  // Bounded while reading (a chunked body has no content-length to check first).
  const text = await readBoundedText(request, 32 * 1024);
  if (text === null) throw new InvalidClientMetadataError("the metadata is too large");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new InvalidClientMetadataError("the body is not JSON");
  }
  const meta = parseClientMetadata(raw);
  const now = ctx.now();
  await collectGarbage(ctx.db, now);
  const hash = sourceHash(source);
  const clientId = mintToken("oauthClient").token;
  const created = await ctx.db.transaction(async (tx) => {
    refuseUnlessAdmitted("register", await admitPerMinute(tx, "register", hash, now));
    await lockQuota(tx, "unconsented_clients");
    const [totals] = await tx
      .select({
        all: count(),
        mine: sql<number>`count(*) filter (where ${oauthClients.sourceHash} = ${hash})`.mapWith(Number),
      })
      .from(oauthClients)
      .where(isNull(oauthClients.consentedAt));
    if (
      (totals?.all ?? 0) >= QUOTAS.unconsentedClients ||
      (totals?.mine ?? 0) >= QUOTAS.unconsentedClientsPerSource
    )
      throw new TooManyRequestsError(
        "too many clients were registered and never used; try again later",
        3600,
      );
    const [row] = await tx
      .insert(oauthClients)
      // A registered client has no origin that answers for its icon: only CIMD keeps one.
      .values({ clientId, kind: "dcr", ...meta, logoUri: null, sourceHash: hash })
      .returning();
    return row!;
  });
  await logActivity(ctx.db, ctx, {
    companyId: null,
    action: "oauth_client.registered",
    entityType: "oauth_client",
    entityId: created.id,
    details: { clientId, clientName: created.clientName, applicationType: created.applicationType },
  });
  return oauthJson(
    {
      client_id: created.clientId,
      client_id_issued_at: Math.floor(created.createdAt.getTime() / 1000),
      redirect_uris: created.redirectUris,
      token_endpoint_auth_method: "none",
      grant_types: created.grantTypes,
      response_types: ["code"],
      ...(created.clientName ? { client_name: created.clientName } : {}),
      ...(created.clientUri ? { client_uri: created.clientUri } : {}),
      scope: created.scope,
      application_type: created.applicationType,
    },
    201,
  );
}
