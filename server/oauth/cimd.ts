/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11-25
 * authorization §"Client ID Metadata Documents"): a `client_id` that is an HTTPS URL names a
 * JSON document the client hosts. It is fetched through the network guard (server/net: DNS
 * pinned, private addresses refused, no redirects, 32 KiB, 5 s) only after an admission
 * receipt commits (60 a minute per instance, 6 per source, shared by the browser and device
 * flows; a failed fetch still consumed its receipt). The validated document is cached in
 * `oauth_clients` (kind `cimd`) for an hour, so every replica reuses it without a new admission.
 */
import { and, count, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oauthClients } from "@/db/schema";
import type { ServiceContext } from "../context";
import { isServiceError } from "../errors";
import { logWarn } from "../log";
import { createGuardedFetch, type GuardedFetchOptions } from "../net/guarded-fetch";
import { InvalidClientError, InvalidClientMetadataError } from "./errors";
import { admitPerMinute, refuseUnlessAdmitted, sourceHash } from "./quota";
import { parseClientMetadata } from "./register";
import { findClient, type OAuthClient } from "./store";

const CACHE_MS = 60 * 60_000;
/** At most this many cached, never-consented CIMD documents (the oldest are dropped first). */
const MAX_CACHED = 1000;

/** Tests only (a loopback HTTPS fixture): the guard options the fetch uses. */
let guardOverride: Partial<GuardedFetchOptions> | null = null;
export function setCimdGuardOptions(options: Partial<GuardedFetchOptions> | null): void {
  guardOverride = options;
}

/** Whether `clientId` is a CIMD URL: https, a path, no fragment, credentials or dot segments. */
export function isCimdClientId(clientId: string): boolean {
  if (!clientId.startsWith("https://")) return false;
  try {
    const u = new URL(clientId);
    return (
      u.protocol === "https:" &&
      !clientId.includes("#") &&
      !u.username &&
      !u.password &&
      u.pathname.length > 1 &&
      !/\/\.\.?(\/|$)/.test(clientId.slice(u.origin.length))
    );
  } catch {
    return false;
  }
}

/**
 * What a caller is told when the document cannot be fetched, whatever the reason. The guard's
 * own message (which address a name resolves to, that it is loopback or private, ENOTFOUND,
 * the status a host answered) would make this endpoint a DNS and reachability oracle for
 * anyone; the reason goes to the server log only.
 */
export const CIMD_FETCH_FAILED = "the client metadata document could not be fetched";

async function fetchDocument(clientId: string): Promise<unknown> {
  const guarded = createGuardedFetch({
    timeoutMs: 5000,
    maxResponseBytes: 32 * 1024,
    maxRedirects: 0,
    ...guardOverride,
  });
  let text: string;
  try {
    const res = await guarded(clientId, { redirect: "error", headers: { accept: "application/json" } });
    if (res.status !== 200) throw new Error(`the document answered ${res.status}`);
    text = await res.text();
  } catch (err) {
    logWarn("oauth.cimd_fetch_failed", {
      clientId: clientId.slice(0, 300),
      code: isServiceError(err) ? err.code : undefined,
      reason: err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300),
    });
    throw new InvalidClientError(CIMD_FETCH_FAILED);
  } finally {
    await guarded.close();
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidClientMetadataError("the client metadata document is not JSON");
  }
}

/**
 * The client for a CIMD `client_id`: the cached document while it is fresh (no admission), else
 * an admission receipt, then the fetch, then the validated document stored.
 */
export async function resolveCimdClient(
  ctx: ServiceContext,
  clientId: string,
  source: string,
): Promise<OAuthClient> {
  const now = ctx.now();
  const cached = await findClient(ctx.db, clientId);
  if (cached && cached.kind === "cimd" && cached.metadataExpiresAt && cached.metadataExpiresAt > now)
    return cached;
  const admission = await ctx.db.transaction((tx) => admitPerMinute(tx, "cimd", sourceHash(source), now));
  refuseUnlessAdmitted("cimd", admission);
  // The receipt is committed: a failure below still consumed it.
  const doc = await fetchDocument(clientId);
  if (!doc || typeof doc !== "object" || (doc as { client_id?: unknown }).client_id !== clientId)
    throw new InvalidClientMetadataError("the document's client_id must be exactly its own URL");
  const meta = parseClientMetadata(doc);
  await trimCache(ctx.db, now);
  const [row] = await ctx.db
    .insert(oauthClients)
    .values({
      clientId,
      kind: "cimd",
      ...meta,
      sourceHash: sourceHash(source),
      metadataExpiresAt: new Date(now.getTime() + CACHE_MS),
    })
    .onConflictDoUpdate({
      target: oauthClients.clientId,
      set: { ...meta, metadataExpiresAt: new Date(now.getTime() + CACHE_MS) },
      // A DCR client can never be overwritten by a document.
      setWhere: sql`${oauthClients.kind} = 'cimd'`,
    })
    .returning();
  if (!row) throw new InvalidClientError("this client_id is already registered");
  return row;
}

async function trimCache(db: Db, now: Date): Promise<void> {
  const unconsented = and(eq(oauthClients.kind, "cimd"), isNull(oauthClients.consentedAt));
  await db.delete(oauthClients).where(and(unconsented, lt(oauthClients.metadataExpiresAt, now)));
  const [n] = await db.select({ n: count() }).from(oauthClients).where(unconsented);
  if ((n?.n ?? 0) >= MAX_CACHED)
    await db.execute(sql`delete from oauth_clients where id in (
      select id from oauth_clients where kind = 'cimd' and consented_at is null order by created_at limit 100)`);
}
