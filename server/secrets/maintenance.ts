/**
 * Operator commands behind `npm run cli` (scripts/cli.ts): `doctor`, `migrate-inline-env`
 * and `rotate-master-key`. They print names, ids, paths and key ids — never a value.
 */
import { existsSync, renameSync } from "node:fs";
import { and, asc, count, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import {
  companies,
  companySecretBindings,
  companySecrets,
  companySecretVersions,
  toolActionRequests,
  toolApplications,
  toolConnections,
} from "@/db/schema";
import { bumpAccessVersion } from "../access/snapshot";
import { logActivity } from "../activity/log-activity";
import { reviewedArgsRef } from "../approvals/reviewed-args";
import { systemContext } from "../context";
import { checkOperatorBoundary, type HardeningFinding } from "../http/doctor";
import { canonicalJson } from "../ledger/canonical";
import { runtimeDoctor } from "../runtime/doctor";
import { checkBindingTarget, insertBinding, type SecretPlacement } from "./bindings";
import { type InlineCredentialDetail, type InlineCredentialReason, scanInlineCredentials } from "./inline";
import {
  generateMasterKey,
  isSecretProviderError,
  LocalSecretProvider,
  loadMasterKey,
  localProvider,
  MASTER_KEY_ENV,
  MASTER_KEY_FILE,
  type MasterKey,
  masterKeyPath,
  NEXT_MASTER_KEY_FILE,
  parseMasterKey,
  readMasterKeyFile,
  resetLocalProvider,
  writeMasterKeyFile,
} from "./local-provider";
import { connectionSecretHealth } from "./resolve";
import { encryptionProvider, insertSecret, SECRET_NAME_PATTERN } from "./secrets";

type Log = (line: string) => void;
const silent: Log = () => {};

interface ConnectionRef {
  companyId: string;
  companyName: string;
  connectionId: string;
  connectionName: string;
  applicationSlug: string;
}

async function listConnections(db: Db | Tx, companyId?: string) {
  return db
    .select({
      companyId: toolConnections.companyId,
      companyName: companies.name,
      connectionId: toolConnections.id,
      connectionName: toolConnections.name,
      applicationSlug: toolApplications.slug,
      transportConfig: toolConnections.transportConfig,
    })
    .from(toolConnections)
    .innerJoin(companies, eq(companies.id, toolConnections.companyId))
    .innerJoin(
      toolApplications,
      and(
        eq(toolApplications.companyId, toolConnections.companyId),
        eq(toolApplications.id, toolConnections.applicationId),
      ),
    )
    .where(companyId ? eq(toolConnections.companyId, companyId) : undefined)
    .orderBy(asc(companies.name), asc(toolConnections.name));
}

const label = (c: ConnectionRef) => `${c.companyName} / ${c.connectionName} (${c.connectionId})`;

// ---------------------------------------------------------------------------------------------
// doctor

export type DoctorFinding =
  | ({ kind: "inline_credential"; path: string; reason: InlineCredentialReason } & ConnectionRef)
  | ({ kind: "missing_secret" } & ConnectionRef)
  | { kind: "master_key"; message: string }
  | { kind: "undecryptable_versions"; keyId: string; versions: number; message: string }
  | HardeningFinding
  | { kind: "undecryptable_reviewed_args"; keyId: string; requests: number; message: string }
  | { kind: "plaintext_reviewed_args"; requests: number; message: string };

export interface DoctorReport {
  connectionsChecked: number;
  findings: DoctorFinding[];
}

/**
 * Connections whose config holds inline credentials (paths only), connections whose secret
 * health is `missing_secret`, and secret versions the loaded master key cannot decrypt.
 */
export async function runDoctor(db: Db, opts: { companyId?: string; log?: Log } = {}): Promise<DoctorReport> {
  const log = opts.log ?? silent;
  const findings: DoctorFinding[] = [];
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
  await runtimeDoctor(db, log);
  if (findings.length === 0)
    log(`✔ ${conns.length} connection(s) checked: no inline credentials, no missing secrets`);
  else if (findings.some((f) => f.kind === "inline_credential"))
    log("  → move inline credentials into company secrets with `npm run cli -- migrate-inline-env`");
  findings.push(...(await checkOperatorBoundary(db, log)));
  return { connectionsChecked: conns.length, findings };
}

// ---------------------------------------------------------------------------------------------
// migrate-inline-env

export interface MigratedCredential {
  path: string;
  secretId: string | null;
  secretName: string;
  placement: SecretPlacement;
  target: string;
  valuePrefix: string;
}

export interface ManualCredential {
  path: string;
  reason: InlineCredentialReason;
  why: string;
}

export interface ConnectionMigration extends ConnectionRef {
  moved: MigratedCredential[];
  manual: ManualCredential[];
}

export interface MigrationReport {
  dryRun: boolean;
  connections: ConnectionMigration[];
}

const MIGRATABLE: ReadonlySet<InlineCredentialReason> = new Set([
  "sensitive_header",
  "sensitive_env_var",
  "token_shaped_value",
]);

/** A credential scheme at the start of a header value becomes the binding's prefix. */
const SCHEME_PREFIX = /^(Bearer|Basic|Token|Bot|Digest)\s+/i;

const upperSnake = (s: string) =>
  s
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");

/** `github` + `Authorization` → `GITHUB_AUTHORIZATION`; `github` + `GITHUB_TOKEN` → `GITHUB_TOKEN`. */
export function deriveSecretName(applicationSlug: string, target: string): string {
  const app = upperSnake(applicationSlug);
  const t = upperSnake(target) || "CREDENTIAL";
  let name = app && !(t === app || t.startsWith(`${app}_`)) ? `${app}_${t}` : t;
  if (!/^[A-Z]/.test(name)) name = `SECRET_${name}`;
  if (name.length < 2) name = `${name}_SECRET`;
  return name.slice(0, 64).replace(/_+$/, "");
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) {
    const suffix = `_${i}`;
    name = `${base.slice(0, 64 - suffix.length)}${suffix}`;
  }
  if (!SECRET_NAME_PATTERN.test(name)) throw new Error(`derived secret name \`${name}\` is not valid`);
  taken.add(name);
  return name;
}

function valueAt(config: unknown, segments: readonly string[]): unknown {
  let cur: unknown = config;
  for (const s of segments) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[s];
  }
  return cur;
}

interface Planned {
  finding: InlineCredentialDetail;
  value: string;
  placement: SecretPlacement;
  target: string;
  valuePrefix: string;
  baseName: string;
}

function plan(
  config: Record<string, unknown>,
  applicationSlug: string,
  liveTargets: ReadonlySet<string>,
): { planned: Planned[]; manual: ManualCredential[] } {
  const planned: Planned[] = [];
  const manual: ManualCredential[] = [];
  const seen = new Set<string>();
  for (const f of scanInlineCredentials(config)) {
    const loc = f.location;
    const skip = (why: string) => manual.push({ path: f.path, reason: f.reason, why });
    if (!MIGRATABLE.has(f.reason) || loc.kind === "other") {
      skip(
        f.reason === "url_userinfo" || f.reason === "url_query_credential"
          ? "a credential inside a URL: move it into a header or env var binding by hand"
          : "not in a `headers` or `env` map: move it by hand",
      );
      continue;
    }
    const placement: SecretPlacement = loc.kind === "env" ? "env_var" : "http_header";
    const rawTarget = loc.kind === "env" ? loc.envName : loc.headerName;
    const checked = checkBindingTarget(placement, rawTarget);
    if (!checked.ok) {
      skip(checked.message);
      continue;
    }
    const key = `${placement}:${checked.target}`;
    if (liveTargets.has(key) || seen.has(key)) {
      skip(
        `the connection already has a secret bound to \`${checked.target}\`: remove the inline value by hand`,
      );
      continue;
    }
    const raw =
      loc.kind === "header_list"
        ? valueAt(config, [...loc.segments, "value"])
        : valueAt(config, loc.segments);
    if (typeof raw !== "string") {
      skip("the value is not a string");
      continue;
    }
    let value = raw;
    let valuePrefix = "";
    if (placement === "http_header") {
      const scheme = SCHEME_PREFIX.exec(raw);
      if (scheme) {
        valuePrefix = `${scheme[1]} `;
        value = raw.slice(scheme[0].length);
      }
    }
    if (value.trim() === "" || Buffer.byteLength(value, "utf8") > 16 * 1024) {
      skip("the value is empty or larger than 16 KiB");
      continue;
    }
    seen.add(key);
    planned.push({
      finding: f,
      value,
      placement,
      target: checked.target,
      valuePrefix,
      baseName: deriveSecretName(applicationSlug, rawTarget),
    });
  }
  return { planned, manual };
}

/** The config without the migrated values (header-list items are removed whole). */
function withoutMigrated(
  config: Record<string, unknown>,
  planned: readonly Planned[],
): Record<string, unknown> {
  const copy = structuredClone(config);
  const listRemovals = new Map<string, { parent: string[]; indexes: Set<number> }>();
  for (const p of planned) {
    const loc = p.finding.location;
    const parentSegs = loc.segments.slice(0, -1);
    const last = loc.segments[loc.segments.length - 1]!;
    if (loc.kind === "header_list") {
      const k = JSON.stringify(parentSegs);
      const entry = listRemovals.get(k) ?? { parent: parentSegs, indexes: new Set<number>() };
      entry.indexes.add(Number(last));
      listRemovals.set(k, entry);
    } else {
      const parent = valueAt(copy, parentSegs);
      if (parent && typeof parent === "object") delete (parent as Record<string, unknown>)[last];
    }
  }
  for (const { parent, indexes } of listRemovals.values()) {
    const list = valueAt(copy, parent);
    const holder = valueAt(copy, parent.slice(0, -1));
    if (Array.isArray(list) && holder && typeof holder === "object") {
      (holder as Record<string, unknown>)[parent[parent.length - 1]!] = list.filter(
        (_, i) => !indexes.has(i),
      );
    }
  }
  return copy;
}

/**
 * For each connection with inline credentials in a `headers` or `env` map: creates a company
 * secret per credential (name derived from the application and the header or variable),
 * binds it with the right placement and prefix (`Bearer ` etc.), removes the inline value
 * from the config and bumps the access version — one transaction per connection. Credentials
 * elsewhere (inside URLs, odd places) are reported for manual handling. `dryRun` writes nothing.
 */
export async function migrateInlineCredentials(
  db: Db,
  opts: { dryRun?: boolean; companyId?: string; log?: Log } = {},
): Promise<MigrationReport> {
  const log = opts.log ?? silent;
  const dryRun = opts.dryRun ?? false;
  const report: MigrationReport = { dryRun, connections: [] };
  const candidates = (await listConnections(db, opts.companyId)).filter(
    (c) => scanInlineCredentials(c.transportConfig).length > 0,
  );
  if (candidates.length === 0) {
    log("✔ no connection holds inline credentials");
    return report;
  }
  const ctx = systemContext(db, "cli");
  const provider = dryRun ? null : await encryptionProvider(db);

  for (const c of candidates) {
    const ref: ConnectionRef = {
      companyId: c.companyId,
      companyName: c.companyName,
      connectionId: c.connectionId,
      connectionName: c.connectionName,
      applicationSlug: c.applicationSlug,
    };
    const run = async (tx: Tx): Promise<ConnectionMigration> => {
      const [row] = await tx
        .select({ transportConfig: toolConnections.transportConfig })
        .from(toolConnections)
        .where(and(eq(toolConnections.companyId, c.companyId), eq(toolConnections.id, c.connectionId)))
        .for("update");
      const config = row?.transportConfig ?? {};
      const [bindings, names] = await Promise.all([
        tx
          .select({ placement: companySecretBindings.placement, target: companySecretBindings.target })
          .from(companySecretBindings)
          .where(
            and(
              eq(companySecretBindings.companyId, c.companyId),
              eq(companySecretBindings.connectionId, c.connectionId),
              isNull(companySecretBindings.revokedAt),
            ),
          ),
        tx
          .select({ name: companySecrets.name })
          .from(companySecrets)
          .where(eq(companySecrets.companyId, c.companyId)),
      ]);
      const { planned, manual } = plan(
        config,
        c.applicationSlug,
        new Set(bindings.map((b) => `${b.placement}:${b.target}`)),
      );
      const taken = new Set(names.map((n) => n.name));
      const moved: MigratedCredential[] = [];
      for (const p of planned) {
        const secretName = uniqueName(p.baseName, taken);
        let secretId: string | null = null;
        if (provider) {
          const secret = await insertSecret(tx, provider, {
            companyId: c.companyId,
            name: secretName,
            description: `Moved from ${p.finding.path} of connection "${c.connectionName}" by migrate-inline-env`,
            value: p.value,
            createdByUserId: null,
          });
          secretId = secret.id;
          const { binding } = await insertBinding(tx, c.companyId, c.connectionId, {
            secretId: secret.id,
            placement: p.placement,
            target: p.target,
            valuePrefix: p.valuePrefix,
          });
          await logActivity(tx, ctx, {
            companyId: c.companyId,
            action: "company_secret.create",
            entityType: "company_secret",
            entityId: secret.id,
            details: { name: secretName, version: 1, provider: "local", source: "migrate-inline-env" },
          });
          await logActivity(tx, ctx, {
            companyId: c.companyId,
            action: "company_secret.bind",
            entityType: "company_secret",
            entityId: secret.id,
            details: {
              name: secretName,
              bindingId: binding.id,
              connectionId: c.connectionId,
              connectionName: c.connectionName,
              placement: p.placement,
              target: p.target,
              source: "migrate-inline-env",
            },
          });
        }
        moved.push({
          path: p.finding.path,
          secretId,
          secretName,
          placement: p.placement,
          target: p.target,
          valuePrefix: p.valuePrefix,
        });
      }
      if (provider && planned.length > 0) {
        await tx
          .update(toolConnections)
          .set({ transportConfig: withoutMigrated(config, planned), updatedAt: new Date() })
          .where(and(eq(toolConnections.companyId, c.companyId), eq(toolConnections.id, c.connectionId)));
        await bumpAccessVersion(tx, c.companyId);
        await logActivity(tx, ctx, {
          companyId: c.companyId,
          action: "tool_connection.inline_credentials_migrated",
          entityType: "tool_connection",
          entityId: c.connectionId,
          details: { movedPaths: moved.map((m) => m.path), manualPaths: manual.map((m) => m.path) },
        });
      }
      return { ...ref, moved, manual };
    };
    const result = dryRun ? await run(db) : await db.transaction(run);
    report.connections.push(result);
    log(`${dryRun ? "would migrate" : "migrated"}  ${label(ref)}`);
    for (const m of result.moved) {
      const where = m.placement === "http_header" ? `header ${m.target}` : `env ${m.target}`;
      const prefix = m.valuePrefix ? ` with prefix ${JSON.stringify(m.valuePrefix)}` : "";
      log(
        `  ${m.path} → secret ${m.secretName}, bound as ${where}${prefix}${dryRun ? "" : "; inline value removed"}`,
      );
    }
    for (const m of result.manual) log(`  ${m.path} (${m.reason}) left in place: ${m.why}`);
  }
  if (dryRun) log("dry run: nothing was changed");
  return report;
}

// ---------------------------------------------------------------------------------------------
// rotate-master-key

export interface RotationReport {
  mode: "file" | "env";
  oldKeyId: string;
  newKeyId: string;
  reencrypted: number;
  alreadyCurrent: number;
  /** File mode: where the old key was moved. */
  retiredKeyFile: string | null;
}

export const NEW_MASTER_KEY_ENV = "PAPERCLIP_NEW_MASTER_KEY";

/**
 * Re-encrypts every secret version under a new master key in one transaction.
 *
 * File mode: the new key is written to `master.key.next` (0600) before the database changes
 * (a rerun after a crash reuses it), and after the commit `master.key` is renamed to
 * `master.key.retired-<old key id>` and `master.key.next` to `master.key`.
 * Env mode (`PAPERCLIP_MASTER_KEY` set): the new key comes from `PAPERCLIP_NEW_MASTER_KEY`; no
 * file is touched and the operator swaps the variable afterwards.
 * Stop the app while rotating: a running process keeps the old key until restarted.
 */
export async function rotateMasterKey(db: Db, opts: { log?: Log } = {}): Promise<RotationReport> {
  const log = opts.log ?? silent;
  const envMode = Boolean(process.env[MASTER_KEY_ENV]?.trim());
  let oldKey: MasterKey;
  let newKey: MasterKey;
  const currentFile = masterKeyPath(MASTER_KEY_FILE);
  const nextFile = masterKeyPath(NEXT_MASTER_KEY_FILE);
  if (envMode) {
    oldKey = loadMasterKey();
    const next = process.env[NEW_MASTER_KEY_ENV]?.trim();
    if (!next) {
      throw new Error(
        `${MASTER_KEY_ENV} is set, so the new key must come from your secret store too: set ${NEW_MASTER_KEY_ENV} ` +
          "to a new key (`openssl rand -base64 32`), rerun, then replace the value of " +
          `${MASTER_KEY_ENV} with it and unset ${NEW_MASTER_KEY_ENV}`,
      );
    }
    newKey = parseMasterKey(next, `the ${NEW_MASTER_KEY_ENV} environment variable`);
  } else {
    if (!existsSync(currentFile)) {
      throw new Error(
        `${currentFile} does not exist: there is no master key to rotate (one is created on first use)`,
      );
    }
    oldKey = readMasterKeyFile(currentFile);
    if (existsSync(nextFile)) {
      newKey = readMasterKeyFile(nextFile);
      log(`• resuming an interrupted rotation with the key in ${nextFile}`);
    } else {
      writeMasterKeyFile(nextFile, generateMasterKey());
      newKey = readMasterKeyFile(nextFile);
      log(`• new master key written to ${nextFile} (mode 0600)`);
    }
  }
  if (oldKey.keyId === newKey.keyId) throw new Error("the new master key is the same as the current one");
  const from = new LocalSecretProvider(oldKey);
  const to = new LocalSecretProvider(newKey);

  const { reencrypted, alreadyCurrent } = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(companySecretVersions)
      .orderBy(asc(companySecretVersions.companyId), asc(companySecretVersions.secretId))
      .for("update");
    let changed = 0;
    let current = 0;
    for (const row of rows) {
      if (row.keyId === newKey.keyId) {
        current++;
        continue;
      }
      if (row.keyId !== oldKey.keyId) {
        throw new Error(
          `version ${row.version} of secret ${row.secretId} (company ${row.companyId}) is encrypted with master key ` +
            `\`${row.keyId}\`, which is neither the current key \`${oldKey.keyId}\` nor the new one; nothing was changed`,
        );
      }
      const encrypted = to.encrypt(from.decrypt(row), row);
      await tx.update(companySecretVersions).set(encrypted).where(eq(companySecretVersions.id, row.id));
      changed++;
    }
    // Reviewed arguments of action requests (and legacy rows that hold them in clear).
    const requests = await tx
      .select({
        id: toolActionRequests.id,
        companyId: toolActionRequests.companyId,
        reviewedArgs: toolActionRequests.reviewedArgs,
        reviewedArgsEncrypted: toolActionRequests.reviewedArgsEncrypted,
      })
      .from(toolActionRequests)
      .where(
        or(isNotNull(toolActionRequests.reviewedArgsEncrypted), isNotNull(toolActionRequests.reviewedArgs)),
      )
      .orderBy(asc(toolActionRequests.companyId), asc(toolActionRequests.id))
      .for("update");
    for (const r of requests) {
      const ref = reviewedArgsRef(r.companyId, r.id);
      const enc = r.reviewedArgsEncrypted;
      if (enc?.keyId === newKey.keyId && r.reviewedArgs === null) {
        current++;
        continue;
      }
      if (enc && enc.keyId !== oldKey.keyId && enc.keyId !== newKey.keyId) {
        throw new Error(
          `the reviewed arguments of action request ${r.id} (company ${r.companyId}) are encrypted with master key ` +
            `\`${enc.keyId}\`, which is neither the current key \`${oldKey.keyId}\` nor the new one; nothing was changed`,
        );
      }
      const plaintext = enc
        ? (enc.keyId === newKey.keyId ? to : from).decrypt({ ...enc, ...ref })
        : canonicalJson(r.reviewedArgs);
      await tx
        .update(toolActionRequests)
        .set({ reviewedArgsEncrypted: to.encrypt(plaintext, ref), reviewedArgs: null })
        .where(eq(toolActionRequests.id, r.id));
      changed++;
    }
    return { reencrypted: changed, alreadyCurrent: current };
  });
  log(
    `• re-encrypted ${reencrypted} secret version(s) and action requests' reviewed arguments from key ${oldKey.keyId} to ${newKey.keyId}`,
  );

  let retiredKeyFile: string | null = null;
  if (!envMode) {
    retiredKeyFile = masterKeyPath(`${MASTER_KEY_FILE}.retired-${oldKey.keyId}`);
    renameSync(currentFile, retiredKeyFile);
    renameSync(nextFile, currentFile);
    log(`• ${currentFile} now holds key ${newKey.keyId}; the old key was moved to ${retiredKeyFile}`);
    log(
      "  delete the retired key once you no longer need to read database backups taken before this rotation",
    );
  } else {
    log(`• now set ${MASTER_KEY_ENV} to the value of ${NEW_MASTER_KEY_ENV} and unset ${NEW_MASTER_KEY_ENV}`);
  }
  resetLocalProvider();
  log("• restart the app so every process loads the new key");
  return {
    mode: envMode ? "env" : "file",
    oldKeyId: oldKey.keyId,
    newKeyId: newKey.keyId,
    reencrypted,
    alreadyCurrent,
    retiredKeyFile,
  };
}
