/**
 * What the gateway keeps of an upstream OAuth authorization (docs/upstream-oauth.md), and how
 * it is sealed. Tokens, client secrets and PKCE verifiers exist in clear only in memory: each
 * is encrypted with the master key and bound (GCM additional data) to its company and row, so
 * a ciphertext copied to another row or company does not decrypt. `rotate-master-key` and
 * `doctor` cover the columns (server/secrets/encrypted-columns.ts).
 */
import { randomUUID } from "node:crypto";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { toolUpstreamClients, toolUpstreamGrants } from "@/db/schema";
import { type EncryptedSecret, localProvider } from "../secrets/local-provider";

export const upstreamClientRef = (companyId: string, id: string) => ({
  companyId,
  secretId: `upstream_client/${id}`,
  version: 0,
});
export const upstreamGrantRef = (companyId: string, id: string) => ({
  companyId,
  secretId: `upstream_grant/${id}`,
  version: 0,
});
export const upstreamStateRef = (companyId: string, id: string) => ({
  companyId,
  secretId: `upstream_auth_state/${id}`,
  version: 0,
});

type Ref = { companyId: string; secretId: string; version: number };

export function seal(value: unknown, ref: Ref): EncryptedSecret {
  return localProvider({ create: true }).encrypt(JSON.stringify(value), ref);
}

export function unseal<T>(enc: EncryptedSecret, ref: Ref): T {
  return JSON.parse(localProvider().decrypt({ ...enc, ...ref })) as T;
}

/** Whose grant: the company's, or one person's. */
export const subjectKeyOf = (userId: string | null): string => (userId ? `user:${userId}` : "company");

/** The client information the SDK works with, plus what the admin chose for a key. */
export type StoredClient = OAuthClientInformationMixed & {
  /** private_key_jwt: the client's private JWK. */
  private_jwk?: Record<string, unknown>;
  issuer?: string;
};

export type ClientRow = typeof toolUpstreamClients.$inferSelect;
export type GrantRow = typeof toolUpstreamGrants.$inferSelect;

export async function loadClient(db: Db | Tx, companyId: string, connectionId: string) {
  const [row] = await db
    .select()
    .from(toolUpstreamClients)
    .where(
      and(eq(toolUpstreamClients.companyId, companyId), eq(toolUpstreamClients.connectionId, connectionId)),
    );
  return row ?? null;
}

export function clientInfoOf(row: ClientRow): StoredClient {
  return unseal<StoredClient>(row.clientEncrypted, upstreamClientRef(row.companyId, row.id));
}

export function discoveryOf(row: ClientRow | null): OAuthDiscoveryState | undefined {
  const d = row?.discovery as OAuthDiscoveryState | undefined;
  return d?.authorizationServerUrl ? d : undefined;
}

/**
 * Inserts a row sealed under a fresh id, or — when one exists (or a racing replica's insert
 * won) — updates that row sealed under ITS id: a ciphertext is bound to the row it sits in.
 */
async function upsertSealed<R>(
  existingId: () => Promise<string | null>,
  insert: (id: string) => Promise<R | undefined>,
  update: (id: string) => Promise<R | undefined>,
): Promise<R> {
  let id = await existingId();
  if (!id) {
    const inserted = await insert(randomUUID());
    if (inserted) return inserted;
    id = await existingId();
    if (!id) throw new Error("the row vanished while it was being saved");
  }
  const updated = await update(id);
  if (!updated) throw new Error("the row vanished while it was being saved");
  return updated;
}

/** Creates or replaces the connection's client (one per connection). */
export async function saveClient(
  db: Db | Tx,
  companyId: string,
  connectionId: string,
  value: {
    issuer: string;
    registration: ClientRow["registration"];
    client: StoredClient;
    discovery?: OAuthDiscoveryState;
  },
): Promise<ClientRow> {
  const fields = (id: string) => ({
    issuer: value.issuer,
    registration: value.registration,
    clientId: value.client.client_id,
    clientEncrypted: seal(value.client, upstreamClientRef(companyId, id)),
    ...(value.discovery ? { discovery: value.discovery as unknown as Record<string, unknown> } : {}),
    updatedAt: new Date(),
  });
  return upsertSealed(
    async () => (await loadClient(db, companyId, connectionId))?.id ?? null,
    async (id) =>
      (
        await db
          .insert(toolUpstreamClients)
          .values({ id, companyId, connectionId, ...fields(id) })
          .onConflictDoNothing()
          .returning()
      )[0],
    async (id) =>
      (
        await db.update(toolUpstreamClients).set(fields(id)).where(eq(toolUpstreamClients.id, id)).returning()
      )[0],
  );
}

export async function saveDiscovery(db: Db | Tx, row: ClientRow, discovery: OAuthDiscoveryState) {
  await db
    .update(toolUpstreamClients)
    .set({ discovery: discovery as unknown as Record<string, unknown>, updatedAt: new Date() })
    .where(eq(toolUpstreamClients.id, row.id));
}

export async function loadGrant(db: Db | Tx, companyId: string, connectionId: string, userId: string | null) {
  const [row] = await db
    .select()
    .from(toolUpstreamGrants)
    .where(
      and(
        eq(toolUpstreamGrants.companyId, companyId),
        eq(toolUpstreamGrants.connectionId, connectionId),
        eq(toolUpstreamGrants.subjectKey, subjectKeyOf(userId)),
      ),
    );
  return row ?? null;
}

export function tokensOf(row: GrantRow): OAuthTokens {
  return unseal<OAuthTokens>(row.tokensEncrypted, upstreamGrantRef(row.companyId, row.id));
}

/** When an access token stops working, from `expires_in` (null: the server did not say). */
export function expiryOf(tokens: OAuthTokens, now: Date): Date | null {
  const s = Number(tokens.expires_in);
  return Number.isFinite(s) && s > 0 ? new Date(now.getTime() + s * 1000) : null;
}

/**
 * Who the grant acts as, for people to read: the ID token's `email`, `preferred_username` or
 * `sub` when the server sent one. Display only — nothing is decided on it, so its signature is
 * not checked.
 */
export function connectedAsOf(tokens: OAuthTokens): string | null {
  const idToken = tokens.id_token;
  if (typeof idToken !== "string") return null;
  try {
    const payload = JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString("utf8"));
    const name = payload.email ?? payload.preferred_username ?? payload.sub;
    return typeof name === "string" ? name.slice(0, 200) : null;
  } catch {
    return null;
  }
}

/** Stores a fresh grant for (connection, subject), replacing any earlier one. */
export async function saveGrant(
  db: Db | Tx,
  v: {
    companyId: string;
    connectionId: string;
    userId: string | null;
    tokens: OAuthTokens;
    issuer: string;
    connectedByUserId: string | null;
    now: Date;
  },
): Promise<GrantRow> {
  const fields = (id: string) => ({
    status: "connected" as const,
    tokensEncrypted: seal(v.tokens, upstreamGrantRef(v.companyId, id)),
    accessExpiresAt: expiryOf(v.tokens, v.now),
    scope: v.tokens.scope ?? null,
    issuer: v.issuer,
    connectedAs: connectedAsOf(v.tokens),
    connectedByUserId: v.connectedByUserId,
    refreshedAt: null,
    refreshCount: 0,
    lastError: null,
    // The scope a step-up asked for is in this grant now (or the server gave less: the next
    // 403 asks again, counted); the count is kept, so repeated step-ups stay bounded.
    stepUpScope: null,
    updatedAt: v.now,
  });
  return upsertSealed(
    async () => (await loadGrant(db, v.companyId, v.connectionId, v.userId))?.id ?? null,
    async (id) =>
      (
        await db
          .insert(toolUpstreamGrants)
          .values({
            id,
            companyId: v.companyId,
            connectionId: v.connectionId,
            userId: v.userId,
            subjectKey: subjectKeyOf(v.userId),
            createdAt: v.now,
            ...fields(id),
          })
          .onConflictDoNothing()
          .returning()
      )[0],
    async (id) =>
      (
        await db.update(toolUpstreamGrants).set(fields(id)).where(eq(toolUpstreamGrants.id, id)).returning()
      )[0],
  );
}
