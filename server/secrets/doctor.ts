import { and, count, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companySecretVersions, toolActionRequests } from "@/db/schema";
import { type InlineCredentialReason, scanInlineCredentials } from "./inline";
import { isSecretProviderError, type LocalSecretProvider, localProvider } from "./local-provider";
import { type ConnectionRef, type Log, label, listConnections, silent } from "./maintenance";
import { connectionSecretHealth } from "./resolve";

export type SecretsDoctorFinding =
  | ({ kind: "inline_credential"; path: string; reason: InlineCredentialReason } & ConnectionRef)
  | ({ kind: "missing_secret" } & ConnectionRef)
  | { kind: "master_key"; message: string }
  | { kind: "undecryptable_versions"; keyId: string; versions: number; message: string }
  | { kind: "undecryptable_reviewed_args"; keyId: string; requests: number; message: string }
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
  // Reviewed arguments of action requests are encrypted with the same provider.
  const argsKeyId = sql<string>`${toolActionRequests.reviewedArgsEncrypted} ->> 'keyId'`;
  const argsByKey = await db
    .select({ keyId: argsKeyId, n: count() })
    .from(toolActionRequests)
    .where(
      and(
        isNotNull(toolActionRequests.reviewedArgsEncrypted),
        ...(opts.companyId ? [eq(toolActionRequests.companyId, opts.companyId)] : []),
      ),
    )
    .groupBy(argsKeyId);
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
  if (byKey.length > 0 || argsByKey.length > 0) {
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
      for (const k of argsByKey) {
        if (provider.canDecrypt(k.keyId)) continue;
        const message = `the reviewed arguments of ${k.n} action request(s) are encrypted with master key \`${k.keyId}\`, but the loaded key is \`${provider.keyId}\``;
        findings.push({
          kind: "undecryptable_reviewed_args",
          keyId: k.keyId,
          requests: Number(k.n),
          message,
        });
        log(`✖ master key         ${message}`);
      }
    }
  }
  return { connectionsChecked: conns.length, findings };
}
