import { asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { companySecretBindings, companySecrets, companySecretVersions, toolConnections } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type { SecretDetail, SecretSummary as SecretSummarySchema } from "@/server/contracts/api/secrets";
import { lockCompanyRow } from "../access/rows";
import { bumpAccessVersion } from "../access/snapshot";
import { logActivity } from "../activity/log-activity";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { conflict, notFound, ServiceError } from "../errors";
import { logError } from "../log";
import {
  isSecretProviderError,
  type LocalSecretProvider,
  localProvider,
  SecretProviderError,
} from "./local-provider";

/** Environment-variable style: `GITHUB_TOKEN`. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;
export const MAX_SECRET_VALUE_BYTES = 16 * 1024;

export const SecretName = z
  .string()
  .trim()
  .regex(
    SECRET_NAME_PATTERN,
    "an environment-variable style name: an uppercase letter, then 1-63 uppercase letters, digits or `_` (e.g. `GITHUB_TOKEN`)",
  );

/** The value is never trimmed or echoed back; messages about it never include it. */
export const SecretValue = z
  .string()
  .min(1, "the value must not be empty")
  .refine(
    (v) => Buffer.byteLength(v, "utf8") <= MAX_SECRET_VALUE_BYTES,
    `the value must be at most ${MAX_SECRET_VALUE_BYTES} bytes (16 KiB)`,
  );

export const CreateSecretInput = z.object({
  name: SecretName,
  description: z.string().trim().max(2000).optional(),
  value: SecretValue,
});
export type CreateSecretInput = z.infer<typeof CreateSecretInput>;

export const AddSecretVersionInput = z.object({ value: SecretValue });
export type AddSecretVersionInput = z.infer<typeof AddSecretVersionInput>;

type SecretRow = typeof companySecrets.$inferSelect;

function presentSecret(s: SecretRow) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    provider: s.provider,
    status: s.status,
    currentVersion: s.currentVersion,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    revokedAt: s.revokedAt,
  };
}
export type SecretSummary = ReturnType<typeof presentSecret> & { bindingCount: number };

/** The user behind the caller, when there is one (board keys may carry their creator). */
export function actorUserId(ctx: ServiceContext): string | null {
  const a = ctx.actor;
  if (a.type === "user") return a.userId;
  if (a.type === "board_key") return a.userId;
  return null;
}

/** 503 for API callers; the details (paths, key ids) go to the server log only. */
export function secretStoreUnavailable(err: unknown): ServiceError {
  logError("secrets.provider_unavailable", err);
  return new ServiceError(
    "secret_store_unavailable",
    "the secret store's master key is unavailable or unsafe; an operator should check the server log",
  );
}

/**
 * The provider for encrypting a new value. Creates the master key on first use, but never
 * when encrypted versions already exist: a lost key file must be restored, not silently
 * replaced (the old values would become undecryptable and new ones encrypted under a
 * different key).
 */
export async function encryptionProvider(db: Db | Tx): Promise<LocalSecretProvider> {
  try {
    return localProvider();
  } catch (err) {
    if (!isSecretProviderError(err) || err.code !== "master_key_missing") throw secretStoreUnavailable(err);
    const [existing] = await db
      .select({ keyId: companySecretVersions.keyId })
      .from(companySecretVersions)
      .limit(1);
    if (existing) {
      throw secretStoreUnavailable(
        new SecretProviderError(
          "master_key_missing",
          `${err.message}, but secret versions encrypted with master key \`${existing.keyId}\` exist: ` +
            "restore that key instead of letting a new one be created",
        ),
      );
    }
    try {
      return localProvider({ create: true });
    } catch (e) {
      throw secretStoreUnavailable(e);
    }
  }
}

/** Encrypts and inserts one version row. The caller holds the secret row (or just created it). */
export async function insertSecretVersion(
  tx: Tx,
  provider: LocalSecretProvider,
  row: {
    companyId: string;
    secretId: string;
    version: number;
    value: string;
    createdByUserId: string | null;
  },
) {
  const encrypted = provider.encrypt(row.value, row);
  const [v] = await tx
    .insert(companySecretVersions)
    .values({
      companyId: row.companyId,
      secretId: row.secretId,
      version: row.version,
      ...encrypted,
      createdByUserId: row.createdByUserId,
    })
    .returning({ id: companySecretVersions.id, version: companySecretVersions.version });
  return v!;
}

/**
 * Creates a secret and its version 1 in the caller's transaction; no authorization and no
 * activity row (callers add both). Shared by `createSecret` and the inline-credential migration.
 */
export async function insertSecret(
  tx: Tx,
  provider: LocalSecretProvider,
  input: {
    companyId: string;
    name: string;
    description?: string | null;
    value: string;
    createdByUserId: string | null;
  },
): Promise<SecretRow> {
  const [taken] = await tx
    .select({ id: companySecrets.id, status: companySecrets.status })
    .from(companySecrets)
    .where(inCompany(companySecrets, input.companyId, eq(companySecrets.name, input.name)));
  if (taken) {
    throw conflict(
      "secret_name_taken",
      taken.status === "revoked"
        ? `a revoked secret is named \`${input.name}\`; names of revoked secrets stay reserved, choose another name`
        : `a secret named \`${input.name}\` already exists; add a version to it instead`,
    );
  }
  const [secret] = await tx
    .insert(companySecrets)
    .values({
      companyId: input.companyId,
      name: input.name,
      description: input.description ?? null,
      provider: "local",
      status: "active",
      currentVersion: 1,
      createdByUserId: input.createdByUserId,
    })
    .returning();
  await insertSecretVersion(tx, provider, {
    companyId: input.companyId,
    secretId: secret!.id,
    version: 1,
    value: input.value,
    createdByUserId: input.createdByUserId,
  });
  return secret!;
}

export async function listSecrets(ctx: ServiceContext, companyId: string): Promise<SecretSummary[]> {
  await requireCompany(ctx, companyId, "company:read");
  const [rows, counts] = await Promise.all([
    ctx.db
      .select()
      .from(companySecrets)
      .where(eq(companySecrets.companyId, companyId))
      .orderBy(asc(companySecrets.name)),
    ctx.db
      .select({ secretId: companySecretBindings.secretId, n: count() })
      .from(companySecretBindings)
      .where(inCompany(companySecretBindings, companyId, isNull(companySecretBindings.revokedAt)))
      .groupBy(companySecretBindings.secretId),
  ]);
  const bySecret = new Map(counts.map((c) => [c.secretId, Number(c.n)]));
  return rows.map((s) => ({
    ...presentSecret(s),
    bindingCount: bySecret.get(s.id) ?? 0,
  })) satisfies Served<typeof SecretSummarySchema>[];
}

async function loadSecretView(db: Db | Tx, companyId: string, secretId: string) {
  const [secret] = await db
    .select()
    .from(companySecrets)
    .where(companyRow(companySecrets, companyId, secretId));
  if (!secret) throw notFound("secret");
  const [versions, bindings] = await Promise.all([
    db
      .select({
        id: companySecretVersions.id,
        version: companySecretVersions.version,
        status: companySecretVersions.status,
        keyId: companySecretVersions.keyId,
        createdAt: companySecretVersions.createdAt,
        revokedAt: companySecretVersions.revokedAt,
      })
      .from(companySecretVersions)
      .where(inCompany(companySecretVersions, companyId, eq(companySecretVersions.secretId, secretId)))
      .orderBy(desc(companySecretVersions.version)),
    db
      .select({
        id: companySecretBindings.id,
        connectionId: companySecretBindings.connectionId,
        connectionName: toolConnections.name,
        placement: companySecretBindings.placement,
        target: companySecretBindings.target,
        valuePrefix: companySecretBindings.valuePrefix,
        version: companySecretBindings.version,
        allowedAgentIds: companySecretBindings.allowedAgentIds,
        createdAt: companySecretBindings.createdAt,
      })
      .from(companySecretBindings)
      .innerJoin(
        toolConnections,
        companyRow(toolConnections, companySecretBindings.companyId, companySecretBindings.connectionId),
      )
      .where(
        inCompany(
          companySecretBindings,
          companyId,
          eq(companySecretBindings.secretId, secretId),
          isNull(companySecretBindings.revokedAt),
        ),
      )
      .orderBy(asc(companySecretBindings.createdAt)),
  ]);
  return {
    ...presentSecret(secret),
    versions: versions.map((v) => ({ ...v, current: v.version === secret.currentVersion })),
    bindings,
  } satisfies Served<typeof SecretDetail>;
}
export type SecretView = Awaited<ReturnType<typeof loadSecretView>>;

/** Metadata, versions and bindings. Never the value, in any form. */
export async function getSecret(
  ctx: ServiceContext,
  companyId: string,
  secretId: string,
): Promise<SecretView> {
  await requireCompany(ctx, companyId, "company:read", "secret");
  return loadSecretView(ctx.db, companyId, secretId);
}

export async function createSecret(
  ctx: ServiceContext,
  companyId: string,
  input: CreateSecretInput,
): Promise<SecretView> {
  await requireCompany(ctx, companyId, "tools:manage_connections");
  const provider = await encryptionProvider(ctx.db);
  const secret = await ctx.db.transaction(async (tx) => {
    const row = await insertSecret(tx, provider, {
      companyId,
      name: input.name,
      description: input.description,
      value: input.value,
      createdByUserId: actorUserId(ctx),
    });
    // A new value joins the set the gateway redacts from every record (cached per access
    // version, server/ledger/record-attempt.ts companyRedaction).
    await bumpAccessVersion(tx, companyId);
    await logActivity(tx, ctx, {
      companyId,
      action: "company_secret.create",
      entityType: "company_secret",
      entityId: row.id,
      details: { name: row.name, version: 1, provider: "local" },
    });
    return row;
  });
  return loadSecretView(ctx.db, companyId, secret.id);
}

/** The company's secret, row-locked for the rest of the transaction; 404 `not_found` when none. */
async function lockSecret(tx: Tx, companyId: string, secretId: string) {
  return lockCompanyRow(tx, companySecrets, companyId, secretId, "secret");
}

/** Adds a version that becomes current at once (bindings that pin a version keep theirs). */
export async function addSecretVersion(
  ctx: ServiceContext,
  companyId: string,
  secretId: string,
  input: AddSecretVersionInput,
): Promise<SecretView> {
  await requireCompany(ctx, companyId, "tools:manage_connections", "secret");
  const provider = await encryptionProvider(ctx.db);
  await ctx.db.transaction(async (tx) => {
    // The row lock serialises concurrent additions, so version numbers never collide.
    const secret = await lockSecret(tx, companyId, secretId);
    if (secret.status !== "active")
      throw conflict("secret_revoked", `secret \`${secret.name}\` is revoked; create a new secret instead`);
    const [{ max }] = (await tx
      .select({ max: sql<number | null>`max(${companySecretVersions.version})` })
      .from(companySecretVersions)
      .where(inCompany(companySecretVersions, companyId, eq(companySecretVersions.secretId, secretId)))) as [
      { max: number | null },
    ];
    const version = Number(max ?? 0) + 1;
    await insertSecretVersion(tx, provider, {
      companyId,
      secretId,
      version,
      value: input.value,
      createdByUserId: actorUserId(ctx),
    });
    await tx
      .update(companySecrets)
      .set({ currentVersion: version, updatedAt: ctx.now() })
      .where(companyRow(companySecrets, companyId, secretId));
    // The new value is what bound connections receive from now on, and is redacted from every
    // record: the redaction set is cached per access version.
    await bumpAccessVersion(tx, companyId);
    await logActivity(tx, ctx, {
      companyId,
      action: "company_secret.version_add",
      entityType: "company_secret",
      entityId: secretId,
      details: { name: secret.name, version, previousVersion: secret.currentVersion },
    });
  });
  return loadSecretView(ctx.db, companyId, secretId);
}

/**
 * Revokes a secret and every version of it. Bindings stay (so the console shows what broke),
 * but resolution fails closed on them with `missing_secret`. Idempotent. Bumps the access
 * version: the affected connections' secret health changes.
 */
export async function revokeSecret(
  ctx: ServiceContext,
  companyId: string,
  secretId: string,
): Promise<SecretView> {
  await requireCompany(ctx, companyId, "tools:manage_connections", "secret");
  await ctx.db.transaction(async (tx) => {
    const secret = await lockSecret(tx, companyId, secretId);
    if (secret.status === "revoked") return;
    const now = ctx.now();
    await tx
      .update(companySecrets)
      .set({ status: "revoked", revokedAt: now, updatedAt: now })
      .where(companyRow(companySecrets, companyId, secretId));
    const versions = await tx
      .update(companySecretVersions)
      .set({ status: "revoked", revokedAt: now })
      .where(
        inCompany(
          companySecretVersions,
          companyId,
          eq(companySecretVersions.secretId, secretId),
          eq(companySecretVersions.status, "active"),
        ),
      )
      .returning({ version: companySecretVersions.version });
    await bumpAccessVersion(tx, companyId);
    await logActivity(tx, ctx, {
      companyId,
      action: "company_secret.revoke",
      entityType: "company_secret",
      entityId: secretId,
      details: { name: secret.name, revokedVersions: versions.map((v) => v.version).sort((a, b) => a - b) },
    });
  });
  return loadSecretView(ctx.db, companyId, secretId);
}
