import { and, count, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companySecretVersions, toolActionRequests } from "@/db/schema";
import { ENCRYPTED_JSON_COLUMNS, keyIdsOf } from "./encrypted-columns";
import { type InlineCredentialReason, scanInlineCredentials } from "./inline";
import { isSecretProviderError, type LocalSecretProvider, localProvider } from "./local-provider";
import { type ConnectionRef, type Log, label, listConnections, silent } from "./maintenance";
import { connectionSecretHealth } from "./resolve";

export type SecretsDoctorFinding =
  | ({ kind: "inline_credential"; path: string; reason: InlineCredentialReason } & ConnectionRef)
  | ({ kind: "missing_secret" } & ConnectionRef)
  | { kind: "master_key"; message: string }
  | { kind: "undecryptable_versions"; keyId: string; versions: number; message: string }
  | { kind: "undecryptable_values"; column: string; keyId: string; rows: number; message: string }
  | { kind: "plaintext_reviewed_args"; requests: number; message: string };

export interface SecretsDoctorReport {
  connectionsChecked: number;
  findings: SecretsDoctorFinding[];
}

/**
 * The secrets part of `npm run cli -- doctor` (`runDoctor` in `server/http/doctor.ts`):
 * connections whose config holds inline credentials (paths only), connections whose secret
 * health is `missing_secret`, and secret versions the loaded master key cannot decrypt.
 */
export async function secretsDoctor(
  db: Db,
  opts: { companyId?: string; log?: Log } = {},
): Promise<SecretsDoctorReport> {
  const log = opts.log ?? silent;
  const findings: SecretsDoctorFinding[] = [];
  const conns = await listConnections(db, opts.companyId);
  for (const c of conns) {
    const { transportConfig, ...ref } = c;
    for (const f of scanInlineCredentials(transportConfig)) {
      findings.push({ kind: "inline_credential", path: f.path, reason: f.reason, ...ref });
      log(`✖ inline credential  ${label(ref)}  ${f.path}  (${f.reason})`);
    }
    if ((await connectionSecretHealth(db, c.companyId, c.connectionId)) === "missing_secret") {
      findings.push({ kind: "missing_secret", ...ref });
      log(`✖ missing secret     ${label(ref)}  a bound secret or pinned version is revoked or missing`);
    }
  }

  // Keys: only when encrypted values exist (doctor never creates a master key).
  const byKey = await db
    .select({ keyId: companySecretVersions.keyId, n: count() })
    .from(companySecretVersions)
    .where(
      and(
        eq(companySecretVersions.status, "active"),
        ...(opts.companyId ? [eq(companySecretVersions.companyId, opts.companyId)] : []),
      ),
    )
    .groupBy(companySecretVersions.keyId);
  // Every other column encrypted with the same provider (the registry rotation uses too).
  const columnKeys = await Promise.all(
    ENCRYPTED_JSON_COLUMNS.map(async (column) => ({
      column,
      keys: await keyIdsOf(db, column, opts.companyId),
    })),
  );
  const [plain] = await db
    .select({ n: count() })
    .from(toolActionRequests)
    .where(
      and(
        isNotNull(toolActionRequests.reviewedArgs),
        ...(opts.companyId ? [eq(toolActionRequests.companyId, opts.companyId)] : []),
      ),
    );
  if (plain && plain.n > 0) {
    const message = `${plain.n} action request(s) written before reviewed arguments were encrypted hold them in clear; \`rotate-master-key\` encrypts them`;
    findings.push({ kind: "plaintext_reviewed_args", requests: Number(plain.n), message });
    log(`✖ reviewed arguments ${message}`);
  }
  if (byKey.length > 0 || columnKeys.some((c) => c.keys.length > 0)) {
    let provider: LocalSecretProvider | null = null;
    try {
      provider = localProvider();
    } catch (err) {
      const message = isSecretProviderError(err) ? err.message : String(err);
      findings.push({ kind: "master_key", message });
      log(`✖ master key         ${message}`);
    }
    if (provider) {
      for (const k of byKey) {
        if (provider.canDecrypt(k.keyId)) continue;
        const message = `${k.n} active secret version(s) are encrypted with master key \`${k.keyId}\`, but the loaded key is \`${provider.keyId}\``;
        findings.push({ kind: "undecryptable_versions", keyId: k.keyId, versions: Number(k.n), message });
        log(`✖ master key         ${message}`);
      }
      for (const { column, keys } of columnKeys) {
        for (const k of keys) {
          if (provider.canDecrypt(k.keyId)) continue;
          const message = `${k.n} value(s) of the ${column.label} (${column.name}) are encrypted with master key \`${k.keyId}\`, but the loaded key is \`${provider.keyId}\``;
          findings.push({
            kind: "undecryptable_values",
            column: column.name,
            keyId: k.keyId,
            rows: k.n,
            message,
          });
          log(`✖ master key         ${message}`);
        }
      }
    }
  }
  return { connectionsChecked: conns.length, findings };
}
