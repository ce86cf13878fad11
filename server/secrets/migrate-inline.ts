import { eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { companySecretBindings, companySecrets, toolConnections } from "@/db/schema";
import { bumpAccessVersion } from "../access/snapshot";
import { logActivity } from "../activity/log-activity";
import { systemContext } from "../context";
import { checkBindingTarget, insertBinding, type SecretPlacement } from "./bindings";
import { type InlineCredentialDetail, type InlineCredentialReason, scanInlineCredentials } from "./inline";
import { type ConnectionRef, type Log, label, listConnections, silent } from "./maintenance";
import { encryptionProvider, insertSecret, SECRET_NAME_PATTERN } from "./secrets";

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
        .where(companyRow(toolConnections, c.companyId, c.connectionId))
        .for("update");
      const config = row?.transportConfig ?? {};
      const [bindings, names] = await Promise.all([
        tx
          .select({ placement: companySecretBindings.placement, target: companySecretBindings.target })
          .from(companySecretBindings)
          .where(
            inCompany(
              companySecretBindings,
              c.companyId,
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
          .where(companyRow(toolConnections, c.companyId, c.connectionId));
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
