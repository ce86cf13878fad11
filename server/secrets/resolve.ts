/**
 * Resolution of a connection's secrets at execution time. Fails closed: if any binding that
 * applies to the agent points at a revoked or missing secret or version, or its value cannot
 * be decrypted, nothing is returned and the call must be refused with `missing_secret`.
 * Every resolution records one `company_secret_access_events` row per secret; never a value.
 */

import { desc, inArray, isNull } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import {
  companySecretAccessEvents,
  companySecretBindings,
  companySecrets,
  companySecretVersions,
} from "@/db/schema";
import type { ActorType } from "@/server/contracts/values";
import { ofConnection } from "../access/rows";
import { logError } from "../log";
import { isSecretProviderError, type LocalSecretProvider, localProvider } from "./local-provider";

export interface ResolveSecretsInput {
  companyId: string;
  connectionId: string;
  /**
   * The agent the call is for; null for admin actions (health checks, catalog refresh), which
   * receive only bindings open to every agent. The nil UUID is treated as null.
   */
  agentId: string | null;
  runId: string | null;
  invocationId?: string | null;
  actorType: ActorType;
  actorId: string;
  /** Recorded on the access events (default `tool_call`). */
  purpose?: string;
}

export type ResolveSecretsResult =
  | {
      ok: true;
      headers: Record<string, string>;
      env: Record<string, string>;
      /** Every plaintext released, for redacting upstream results. */
      values: string[];
    }
  | { ok: false; code: "missing_secret"; secretId?: string; message: string };

/** Why a secret was withheld, as recorded in `reason_code`. */
export type SecretDenyReason =
  | "secret_not_found"
  | "secret_revoked"
  | "version_not_found"
  | "version_revoked"
  | "decrypt_failed"
  | "master_key_unavailable"
  | "invalid_header_value"
  | "agent_not_allowed"
  | "other_secret_missing";

type BindingRow = typeof companySecretBindings.$inferSelect;
type SecretRow = typeof companySecrets.$inferSelect;
type VersionRow = typeof companySecretVersions.$inferSelect;

interface Loaded {
  bindings: BindingRow[];
  secrets: Map<string, SecretRow>;
  versions: Map<string, VersionRow>;
}

async function loadBindings(db: Db | Tx, companyId: string, connectionId: string): Promise<Loaded> {
  const bindings = await db
    .select()
    .from(companySecretBindings)
    .where(
      ofConnection(companySecretBindings, companyId, connectionId, isNull(companySecretBindings.revokedAt)),
    );
  const secretIds = [...new Set(bindings.map((b) => b.secretId))];
  if (secretIds.length === 0) return { bindings, secrets: new Map(), versions: new Map() };
  const [secrets, versions] = await Promise.all([
    db
      .select()
      .from(companySecrets)
      .where(inCompany(companySecrets, companyId, inArray(companySecrets.id, secretIds))),
    db
      .select()
      .from(companySecretVersions)
      .where(inCompany(companySecretVersions, companyId, inArray(companySecretVersions.secretId, secretIds))),
  ]);
  return {
    bindings,
    secrets: new Map(secrets.map((s) => [s.id, s])),
    versions: new Map(versions.map((v) => [`${v.secretId}:${v.version}`, v])),
  };
}

/** The version a binding resolves to, or why it cannot. No decryption. */
function pick(
  b: BindingRow,
  loaded: Loaded,
):
  | { ok: true; secret: SecretRow; version: VersionRow }
  | { ok: false; reason: SecretDenyReason; secret?: SecretRow; version: number | null } {
  const secret = loaded.secrets.get(b.secretId);
  if (!secret) return { ok: false, reason: "secret_not_found", version: b.version };
  const n = b.version ?? secret.currentVersion;
  if (secret.status !== "active") return { ok: false, reason: "secret_revoked", secret, version: n };
  const version = n === null ? undefined : loaded.versions.get(`${b.secretId}:${n}`);
  if (!version) return { ok: false, reason: "version_not_found", secret, version: n };
  if (version.status !== "active") return { ok: false, reason: "version_revoked", secret, version: n };
  return { ok: true, secret, version };
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

const appliesTo = (b: BindingRow, agentId: string | null) =>
  b.allowedAgentIds === null || (agentId !== null && b.allowedAgentIds.includes(agentId));

const MESSAGES: Record<SecretDenyReason, string> = {
  secret_not_found: "a secret bound to the connection no longer exists",
  secret_revoked: "is revoked",
  version_not_found: "has no such version",
  version_revoked: "has that version revoked",
  decrypt_failed: "could not be decrypted (wrong master key or altered data; see the server log)",
  master_key_unavailable: "could not be decrypted: the master key is unavailable (see the server log)",
  invalid_header_value: "holds a value that is not a valid HTTP header value",
  agent_not_allowed: "is not released to this agent",
  other_secret_missing: "was withheld because another secret of the connection is missing",
};

function denyMessage(
  reason: SecretDenyReason,
  secret: SecretRow | undefined,
  version: number | null,
): string {
  if (!secret) return MESSAGES[reason];
  const v = reason.startsWith("version_") && version !== null ? ` (version ${version})` : "";
  return `secret \`${secret.name}\`${v} bound to the connection ${MESSAGES[reason]}`;
}

/** Characters an HTTP header value may not contain. */
const BAD_HEADER_VALUE = /[\r\n\0]/;

/**
 * The headers and environment variables to attach to one upstream call of `connectionId` by
 * `agentId`. Bindings restricted to other agents are withheld (recorded as `denied` with
 * `agent_not_allowed`) without failing the resolution.
 */
export async function resolveConnectionSecrets(
  db: Db | Tx,
  input: ResolveSecretsInput,
): Promise<ResolveSecretsResult> {
  const loaded = await loadBindings(db, input.companyId, input.connectionId);
  if (loaded.bindings.length === 0) return { ok: true, headers: {}, env: {}, values: [] };
  const agentId = input.agentId && input.agentId !== NIL_UUID ? input.agentId : null;

  interface Outcome {
    secretId: string;
    version: number | null;
    reason: SecretDenyReason | null;
  }
  const outcomes = new Map<string, Outcome>();
  // One event per secret version. A failure outranks a grant, and a grant outranks a
  // withholding (the same secret may reach the agent through another binding).
  const rank = (reason: SecretDenyReason | null) =>
    reason === "agent_not_allowed" ? 0 : reason === null ? 1 : 2;
  const note = (secretId: string, version: number | null, reason: SecretDenyReason | null) => {
    const key = `${secretId}:${version ?? ""}`;
    const prior = outcomes.get(key);
    if (!prior || rank(reason) > rank(prior.reason)) outcomes.set(key, { secretId, version, reason });
  };

  let provider: LocalSecretProvider | null = null;
  let providerError: unknown = null;
  const decrypted = new Map<string, string>();
  let failure: { secretId: string; message: string } | null = null;
  const placed: { b: BindingRow; value: string }[] = [];

  for (const b of loaded.bindings) {
    if (!appliesTo(b, agentId)) {
      const secret = loaded.secrets.get(b.secretId);
      note(b.secretId, b.version ?? secret?.currentVersion ?? null, "agent_not_allowed");
      continue;
    }
    const picked = pick(b, loaded);
    if (!picked.ok) {
      note(b.secretId, picked.version, picked.reason);
      failure ??= {
        secretId: b.secretId,
        message: denyMessage(picked.reason, picked.secret, picked.version),
      };
      continue;
    }
    const { secret, version } = picked;
    const key = `${secret.id}:${version.version}`;
    let value = decrypted.get(key);
    if (value === undefined) {
      if (!provider && !providerError) {
        try {
          provider = localProvider();
        } catch (err) {
          providerError = err;
          logError("secrets.provider_unavailable", err, { companyId: input.companyId });
        }
      }
      if (!provider) {
        note(secret.id, version.version, "master_key_unavailable");
        failure ??= { secretId: secret.id, message: denyMessage("master_key_unavailable", secret, null) };
        continue;
      }
      try {
        value = provider.decrypt(version);
      } catch (err) {
        if (!isSecretProviderError(err)) throw err;
        logError("secrets.decrypt_failed", err, { companyId: input.companyId, secretId: secret.id });
        note(secret.id, version.version, "decrypt_failed");
        failure ??= { secretId: secret.id, message: denyMessage("decrypt_failed", secret, null) };
        continue;
      }
      decrypted.set(key, value);
    }
    if (b.placement === "http_header" && BAD_HEADER_VALUE.test(b.valuePrefix + value)) {
      note(secret.id, version.version, "invalid_header_value");
      failure ??= { secretId: secret.id, message: denyMessage("invalid_header_value", secret, null) };
      continue;
    }
    note(secret.id, version.version, null);
    placed.push({ b, value });
  }

  const events = [...outcomes.values()].map((o) => {
    const withheld = failure && o.reason === null;
    const reason = withheld ? "other_secret_missing" : o.reason;
    return {
      companyId: input.companyId,
      secretId: o.secretId,
      version: o.version,
      connectionId: input.connectionId,
      agentId,
      runId: input.runId,
      invocationId: input.invocationId ?? null,
      actorType: input.actorType,
      actorId: input.actorId,
      purpose: input.purpose ?? "tool_call",
      outcome: reason === null ? ("granted" as const) : ("denied" as const),
      reasonCode: reason ?? "granted",
    };
  });
  if (events.length) await db.insert(companySecretAccessEvents).values(events);

  if (failure) return { ok: false, code: "missing_secret", ...failure };
  const headers: Record<string, string> = {};
  const env: Record<string, string> = {};
  for (const { b, value } of placed) {
    if (b.placement === "http_header") headers[b.target] = b.valuePrefix + value;
    else env[b.target] = b.valuePrefix + value;
  }
  return { ok: true, headers, env, values: [...new Set(decrypted.values())] };
}

/**
 * `missing_secret` when any live binding of the connection points at a revoked or missing
 * secret or version, else `ok`. Reads metadata only: no decryption, no access events.
 */
export async function connectionSecretHealth(
  db: Db | Tx,
  companyId: string,
  connectionId: string,
): Promise<"ok" | "missing_secret"> {
  const loaded = await loadBindings(db, companyId, connectionId);
  return loaded.bindings.every((b) => pick(b, loaded).ok) ? "ok" : "missing_secret";
}

/**
 * The company's connections whose secret health is `missing_secret`, in one pass: what the
 * gateway passes to the access engine as `missingSecretConnectionIds`.
 */
export async function connectionsMissingSecrets(db: Db | Tx, companyId: string): Promise<string[]> {
  const bindings = await db
    .select({ connectionId: companySecretBindings.connectionId })
    .from(companySecretBindings)
    .where(inCompany(companySecretBindings, companyId, isNull(companySecretBindings.revokedAt)));
  const ids = [...new Set(bindings.map((b) => b.connectionId))];
  const out: string[] = [];
  for (const id of ids)
    if ((await connectionSecretHealth(db, companyId, id)) === "missing_secret") out.push(id);
  return out;
}

/** At most this many values are redacted by value per company (newest versions first). */
export const MAX_REDACTION_VALUES = 200;

/**
 * The plaintext values of the company's secrets — every version, live or revoked, bound or
 * not, newest first, at most {@link MAX_REDACTION_VALUES} — for **redaction only**: whatever
 * tool an agent names (another connection's, an unknown one), a company secret it sends as an
 * argument never reaches a record. Nothing is released, so no access event is written; a
 * value that cannot be decrypted is skipped (the summary then relies on secret shapes).
 */
export async function companySecretValuesForRedaction(db: Db | Tx, companyId: string): Promise<string[]> {
  try {
    const versions = await db
      .select()
      .from(companySecretVersions)
      .where(inCompany(companySecretVersions, companyId))
      .orderBy(desc(companySecretVersions.createdAt))
      .limit(MAX_REDACTION_VALUES);
    if (versions.length === 0) return [];
    const provider = localProvider();
    const values = new Set<string>();
    for (const v of versions) {
      try {
        values.add(provider.decrypt(v));
      } catch {
        // undecryptable: no call can release it either
      }
    }
    // A binding's prefix ("Bearer ") joined to its value is matched by the value alone.
    return [...values];
  } catch {
    return [];
  }
}
