/**
 * `npm run cli -- audit redact`: rewrites records that already hold a leaked secret value —
 * the one sanctioned exception to the append-only audit trail (docs/security.md, "One
 * redaction path"). Runs as the owner role: the app role cannot update audit rows at all, and
 * the append-only triggers are lifted only inside this command's own transaction (the ALTER
 * TABLE lock holds every other writer of those tables until it commits, with the triggers
 * back). The command itself is recorded in the instance log (`audit.redact`), with counts and
 * never a value.
 */
import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { APPEND_ONLY_TABLES } from "@/db/roles";
import { logActivity } from "../activity/log-activity";
import { secretSpellings } from "../audit/secret-spellings";
import { REDACTED } from "../audit/summarize";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { companyLedgerKey, IDEMPOTENCY_DIGEST, idempotencyKeyDigest } from "../secrets/ledger-key";
import { localProvider } from "../secrets/local-provider";

export interface RedactRecordsInput {
  /** Only this company's secrets and rows; every company when absent. */
  companyId?: string | null;
  /** Only this secret's versions (by name), instead of every secret of the company. */
  secretName?: string | null;
  /** Further values to redact (the CLI reads them from standard input, never from argv). */
  values?: readonly string[];
  /** Also turn idempotency keys kept raw by earlier versions into HMACs. */
  idempotencyKeys?: boolean;
  /** Count what would change, change nothing (the instance log still records the run). */
  dryRun?: boolean;
}

export interface RedactRecordsReport {
  values: number;
  rows: { column: string; rows: number }[];
  idempotencyKeys: number;
  dryRun: boolean;
}

/** Columns never rewritten: ciphertexts (no plaintext in them) and the secrets themselves. */
const SKIPPED_TABLES = new Set(["company_secret_versions", "__drizzle_migrations"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Replaces every spelling in a string. */
function scrub(text: string, spellings: readonly string[]): string {
  let out = text;
  for (const s of spellings) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** A JSON value with every string and key scrubbed (keys stay distinct). */
function scrubJson(v: unknown, spellings: readonly string[]): unknown {
  if (typeof v === "string") return scrub(v, spellings);
  if (Array.isArray(v)) return v.map((x) => scrubJson(x, spellings));
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    let key = scrub(k, spellings);
    for (let i = 2; key !== k && Object.hasOwn(out, key); i++) key = `${scrub(k, spellings)}#${i}`;
    out[key] = scrubJson(x, spellings);
  }
  return out;
}

async function secretValues(tx: Tx, input: RedactRecordsInput): Promise<string[]> {
  const rows = await tx.execute<{
    company_id: string;
    secret_id: string;
    version: number;
    ciphertext: string;
    iv: string;
    auth_tag: string;
    key_id: string;
  }>(sql`select v.company_id, v.secret_id, v.version, v.ciphertext, v.iv, v.auth_tag, v.key_id
         from company_secret_versions v join company_secrets s on s.company_id = v.company_id and s.id = v.secret_id
         where (${input.companyId ?? null}::uuid is null or v.company_id = ${input.companyId ?? null}::uuid)
           and (${input.secretName ?? null}::text is null or s.name = ${input.secretName ?? null}::text)`);
  if (input.secretName && rows.length === 0)
    throw new ServiceError("not_found", `no secret named \`${input.secretName}\` was found`);
  const provider = localProvider();
  return rows.map((r) =>
    provider.decrypt({
      companyId: r.company_id,
      secretId: r.secret_id,
      version: r.version,
      ciphertext: r.ciphertext,
      iv: r.iv,
      authTag: r.auth_tag,
      keyId: r.key_id,
    }),
  );
}

/**
 * Rewrites every text and JSON column of every table (secret ciphertexts aside) where any
 * spelling of the chosen values appears (`secret-spellings.ts`: raw, escaped, case, reversed,
 * hex, base64), replacing it with "[redacted]"; optionally HMACs legacy raw idempotency keys.
 * One transaction: all or nothing.
 */
export async function redactRecords(
  ownerDb: Db,
  ctx: ServiceContext,
  input: RedactRecordsInput,
): Promise<RedactRecordsReport> {
  if (input.companyId && !UUID.test(input.companyId))
    throw new ServiceError("invalid_request", "`--company` must be a company id (a UUID)");
  return ownerDb.transaction(async (tx) => {
    const values = [...(await secretValues(tx, input)), ...(input.values ?? [])];
    const spellings = secretSpellings(values);
    if (spellings.length === 0 && !input.idempotencyKeys)
      throw new ServiceError(
        "invalid_request",
        "nothing to redact: no secret values (of four characters or more) matched, and no --idempotency-keys",
      );
    const report: RedactRecordsReport = {
      values: values.length,
      rows: [],
      idempotencyKeys: 0,
      dryRun: !!input.dryRun,
    };
    const columns = await tx.execute<{
      table_name: string;
      column_name: string;
      data_type: string;
      scoped: boolean;
    }>(
      sql`select c.table_name, c.column_name, c.data_type,
                 exists (select 1 from information_schema.columns k
                         where k.table_schema = 'public' and k.table_name = c.table_name and k.column_name = 'company_id') as scoped
          from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
            and c.data_type in ('text', 'character varying', 'jsonb', 'json')
          order by c.table_name, c.column_name`,
    );
    const lifted = new Set<string>();
    for (const c of spellings.length === 0 ? [] : columns) {
      if (SKIPPED_TABLES.has(c.table_name)) continue;
      const table = sql.identifier(c.table_name);
      const column = sql.identifier(c.column_name);
      const any = sql.join(
        spellings.map((s) => sql`strpos(${column}::text, ${s}) > 0`),
        sql` or `,
      );
      const company = input.companyId && c.scoped ? sql` and company_id = ${input.companyId}::uuid` : sql``;
      const hits = await tx.execute<{ ctid: string; value: unknown }>(
        sql`select ctid::text as ctid, ${column} as value from ${table} where (${any})${company} for update`,
      );
      if (hits.length === 0) continue;
      report.rows.push({ column: `${c.table_name}.${c.column_name}`, rows: hits.length });
      if (input.dryRun) continue;
      if ((APPEND_ONLY_TABLES as readonly string[]).includes(c.table_name) && !lifted.has(c.table_name)) {
        await tx.execute(sql`alter table ${table} disable trigger user`);
        lifted.add(c.table_name);
      }
      const json = c.data_type === "jsonb" || c.data_type === "json";
      for (const h of hits) {
        const next = json
          ? JSON.stringify(scrubJson(typeof h.value === "string" ? JSON.parse(h.value) : h.value, spellings))
          : scrub(String(h.value), spellings);
        await tx.execute(
          json
            ? sql`update ${table} set ${column} = ${next}::${sql.raw(c.data_type)} where ctid = ${h.ctid}::tid`
            : sql`update ${table} set ${column} = ${next} where ctid = ${h.ctid}::tid`,
        );
      }
    }
    if (input.idempotencyKeys) {
      const raw = await tx.execute<{ id: string; company_id: string; idempotency_key: string }>(
        sql`select id, company_id, idempotency_key from tool_invocations
            where idempotency_key is not null and idempotency_key !~ ${IDEMPOTENCY_DIGEST.source}
              and (${input.companyId ?? null}::uuid is null or company_id = ${input.companyId ?? null}::uuid)
            for update`,
      );
      report.idempotencyKeys = raw.length;
      if (!input.dryRun)
        for (const r of raw) {
          const digest = idempotencyKeyDigest(await companyLedgerKey(tx, r.company_id), r.idempotency_key);
          await tx.execute(sql`update tool_invocations set idempotency_key = ${digest} where id = ${r.id}`);
        }
    }
    for (const t of lifted) await tx.execute(sql`alter table ${sql.identifier(t)} enable trigger user`);
    await logActivity(tx, ctx, {
      companyId: null,
      action: "audit.redact",
      entityType: "instance",
      details: {
        company: input.companyId ?? "all",
        only: input.secretName ?? "every secret",
        values: report.values,
        rows: Object.fromEntries(report.rows.map((r) => [r.column, r.rows])),
        idempotencyKeysHashed: report.idempotencyKeys,
        dryRun: report.dryRun,
      },
    });
    return report;
  });
}
