/**
 * `npm run cli -- doctor`, the operator-boundary part (docs/security.md): the database role the
 * app uses and what it could do to the audit trail and the schema, the TRUNCATE guards, the
 * browser hardening, TRUST_PROXY and PAPERCLIP_PUBLIC_URL. Plain words; findings make doctor
 * exit 1. The environment read is the command's own: run it with the app's environment.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { APPEND_ONLY_TABLES } from "@/db/roles";
import { checkPublicUrl, trustProxy } from "../config/proxy";
import { runtimeDoctor } from "../runtime/doctor";
import { type SecretsDoctorFinding, secretsDoctor } from "../secrets/doctor";
import { httpsPublicOrigin } from "./security-headers";

type Env = Record<string, string | undefined>;
type Log = (line: string) => void;

export type HardeningFinding =
  | { kind: "database_role"; role: string; message: string }
  | { kind: "audit_guard"; tables: string[]; message: string }
  | { kind: "public_url"; message: string }
  /** The runtime's (server/runtime/doctor.ts): slots that cannot be kept apart, an open home. */
  | { kind: "runtime"; message: string };

export interface DatabaseRoleInfo {
  role: string;
  superuser: boolean;
  /** Member of the role owning the audit tables (then it may ALTER/DROP them and their triggers). */
  ownsSchema: boolean;
  /** Superuser, owner, or CREATE on the database or the public schema. */
  canAlterSchema: boolean;
  /** `table: PRIVILEGE` for each UPDATE/DELETE/TRUNCATE the role holds on an audit table. */
  auditWritable: string[];
  /** Audit tables with an enabled BEFORE TRUNCATE trigger. */
  truncateGuarded: string[];
}

/** What the connection's role (`current_user`) may do, read from the catalogues. */
export async function inspectDatabaseRole(db: Db): Promise<DatabaseRoleInfo> {
  // Constant identifiers, written as SQL literals.
  const tables = sql.raw(APPEND_ONLY_TABLES.map((t) => `'${t}'`).join(", "));
  const [head] = (await db.execute(sql`
    select current_user as role,
           r.rolsuper as superuser,
           coalesce(bool_or(pg_has_role(current_user, c.relowner, 'USAGE')), false) as owns,
           has_database_privilege(current_database(), 'CREATE') as create_db,
           has_schema_privilege('public', 'CREATE') as create_schema
    from pg_roles r
    left join pg_class c on c.relname in (${tables}) and c.relnamespace = 'public'::regnamespace
    where r.rolname = current_user
    group by r.rolname, r.rolsuper`)) as unknown as {
    role: string;
    superuser: boolean;
    owns: boolean;
    create_db: boolean;
    create_schema: boolean;
  }[];
  const writable = (await db.execute(sql`
    select t.name || ': ' || p.priv as entry
    from unnest(array[${tables}]::text[]) as t(name)
    cross join unnest(array['UPDATE', 'DELETE', 'TRUNCATE']) as p(priv)
    where to_regclass('public.' || t.name) is not null
      and has_table_privilege(('public.' || t.name)::regclass, p.priv)
    order by 1`)) as unknown as { entry: string }[];
  const guarded = (await db.execute(sql`
    select distinct c.relname as name
    from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = 'public'::regnamespace and c.relname in (${tables})
      and (t.tgtype & 32) <> 0 and (t.tgtype & 2) <> 0 and t.tgenabled <> 'D'
    order by 1`)) as unknown as { name: string }[];
  const h = head!;
  return {
    role: h.role,
    superuser: h.superuser,
    ownsSchema: h.owns,
    canAlterSchema: h.superuser || h.owns || h.create_db || h.create_schema,
    auditWritable: writable.map((w) => w.entry),
    truncateGuarded: guarded.map((g) => g.name),
  };
}

/** Runs the checks, logging one plain line each; returns what should be fixed. */
export async function checkOperatorBoundary(
  db: Db,
  log: Log,
  env: Env = process.env,
): Promise<HardeningFinding[]> {
  const findings: HardeningFinding[] = [];
  const info = await inspectDatabaseRole(db);

  // Database role
  const powers: string[] = [];
  if (info.superuser) powers.push("it is a superuser (it can do anything, on every database)");
  else if (info.ownsSchema) powers.push("it owns the tables (it can alter or drop them and their triggers)");
  else if (info.auditWritable.length > 0) powers.push(`it holds ${info.auditWritable.join(", ")}`);
  if (!info.superuser && !info.ownsSchema && info.canAlterSchema)
    powers.push("it may create objects in the database or its public schema");
  if (powers.length === 0) {
    log(
      `✔ database role      the app connects as \`${info.role}\`: it cannot UPDATE, DELETE or TRUNCATE audit rows, and cannot alter the schema`,
    );
  } else {
    const message = `the app connects as \`${info.role}\`, which is too powerful: ${powers.join("; ")}. Run migrations as an owner role (MIGRATION_DATABASE_URL) and the app as a role with the grants in docs/operations.md (“Database roles”)`;
    findings.push({ kind: "database_role", role: info.role, message });
    log(`✖ database role      ${message}`);
  }

  // TRUNCATE guards (every role, owner included)
  const unguarded = APPEND_ONLY_TABLES.filter((t) => !info.truncateGuarded.includes(t));
  if (unguarded.length === 0) {
    log(`✔ audit trail        TRUNCATE of ${APPEND_ONLY_TABLES.join(", ")} is refused by trigger`);
  } else {
    const message = `no TRUNCATE guard on ${unguarded.join(", ")}: are all migrations applied?`;
    findings.push({ kind: "audit_guard", tables: unguarded, message });
    log(`✖ audit trail        ${message}`);
  }

  // Browser hardening (always on; HSTS depends on the public URL)
  log(
    `✔ browser            pages carry a nonce-based Content-Security-Policy (no inline scripts, no framing); HSTS ${httpsPublicOrigin(env) ? "on (PAPERCLIP_PUBLIC_URL is https)" : "off (only sent when PAPERCLIP_PUBLIC_URL is https)"}`,
  );

  // Public URL and proxy
  const publicUrl = checkPublicUrl(env.PAPERCLIP_PUBLIC_URL);
  if (!publicUrl.ok) {
    findings.push({ kind: "public_url", message: publicUrl.message });
    log(`✖ public URL         ${publicUrl.message}; \`npm start\` refuses to start with it`);
  } else if (publicUrl.origin) {
    log(
      `✔ public URL         ${publicUrl.origin}: signed-in browser writes must come from exactly this origin`,
    );
  } else {
    log(
      "• public URL         not set: browser writes must come from the host they were sent to; agents are told http://localhost:<PORT> (set PAPERCLIP_PUBLIC_URL when others reach this instance)",
    );
  }
  log(
    trustProxy(env)
      ? "• TRUST_PROXY        on: X-Forwarded-Host and X-Forwarded-For are believed; make sure only your reverse proxy can reach the server"
      : "• TRUST_PROXY        off: X-Forwarded-* headers are ignored (set it only behind a reverse proxy you run)",
  );
  return findings;
}

export type DoctorFinding = SecretsDoctorFinding | HardeningFinding;

export interface DoctorReport {
  connectionsChecked: number;
  findings: DoctorFinding[];
}

/**
 * `npm run cli -- doctor`: the secrets findings (inline credentials, missing secrets, master
 * key), the runtime's, then the operator boundary's. Prints names, ids and paths, never a value.
 */
export async function runDoctor(
  db: Db,
  opts: { companyId?: string; log?: (line: string) => void } = {},
): Promise<DoctorReport> {
  const log = opts.log ?? (() => {});
  const report = await secretsDoctor(db, { ...opts, log });
  const findings: DoctorFinding[] = report.findings;
  const runtime = await runtimeDoctor(db, log);
  findings.push(...runtime.problems.map((message) => ({ kind: "runtime" as const, message })));
  if (findings.length === 0)
    log(`✔ ${report.connectionsChecked} connection(s) checked: no inline credentials, no missing secrets`);
  else if (findings.some((f) => f.kind === "inline_credential"))
    log("  → move inline credentials into company secrets with `npm run cli -- migrate-inline-env`");
  findings.push(...(await checkOperatorBoundary(db, log)));
  return { connectionsChecked: report.connectionsChecked, findings };
}
