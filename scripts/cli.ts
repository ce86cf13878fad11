/**
 * `npm run cli -- <command>`: operator commands.
 *
 *   doctor                         inline credentials in connection configs, connections with a
 *                                  missing secret, master-key problems, the database role's
 *                                  powers, browser/proxy settings (exit 1 if any problem)
 *   migrate-inline-env [--dry-run] [--company <id>]
 *                                  move inline credentials into company secrets + bindings
 *   rotate-master-key              re-encrypt every secret version under a new master key
 *   audit redact [--company <id>] [--secret <NAME>] [--stdin] [--idempotency-keys] [--dry-run]
 *                                  rewrite records holding a leaked secret value (owner role)
 *   admin list|grant|revoke [<email>]
 *                                  instance administrators (the host's operators)
 *   account disable|enable <email> disable an account (sessions end, assistant connections
 *                                  are revoked for good) or enable it again
 *   upstreams list|allow|remove [<origin>]
 *                                  loopback/private upstream origins connections may reach
 *   smoke                          the ADR's 13 smoke checks against a running instance
 *                                  (PAPERCLIP_URL, PAPERCLIP_BOARD_KEY; exit 1 on a failure)
 *   mcp login|proxy|logout|status  the assistant-connection CLI (server/cli/mcp-command.ts;
 *                                  also the `paperclipai` bin); needs no database
 *
 * Database: DATABASE_URL when set; otherwise the embedded database under PAPERCLIP_HOME (the
 * running one started by `npm start`, or started here for the duration of the command).
 * Output names connections, paths and key ids, never secret values.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { type Db, openDatabase } from "../db/client";
import { type EmbeddedDatabase, EmbeddedDatabaseError, startEmbeddedPostgres } from "../db/embedded";
import { EMBEDDED_APP_ROLE, withCredentials } from "../db/roles";
import { runMcpCommand } from "../server/cli/mcp-command";
import { runSmokeCommand } from "../server/cli/smoke-command";
import { paperclipHome } from "../server/config/home";
import { systemContext } from "../server/context";
import { disableAccount, enableAccount } from "../server/core/accounts";
import { runDoctor } from "../server/http/doctor";
import { grantInstanceAdmin, listInstanceAdmins, revokeInstanceAdmin } from "../server/instance/admins";
import {
  addPrivateUpstream,
  listPrivateUpstreams,
  removePrivateUpstream,
} from "../server/instance/private-upstreams";
import { normalizeUpstreamOrigin } from "../server/net/private-upstreams";
import { migrateInlineCredentials } from "../server/secrets/migrate-inline";
import { rotateMasterKey } from "../server/secrets/rotate";
import { redactRecords } from "../server/tools/audit-redact";

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  doctor                       report connections with inline credentials or missing secrets,
                               secret versions the master key cannot decrypt, a database role
                               that could rewrite the audit trail or the schema, and the
                               CSP / TRUST_PROXY / PAPERCLIP_PUBLIC_URL settings (exit 1 if any)
  migrate-inline-env           move inline credentials of connection configs into company
    [--dry-run]                secrets bound to the connection (one transaction per connection)
    [--company <companyId>]
  rotate-master-key            re-encrypt every secret version under a new master key
                               (stop the app first; see docs/secrets.md)
  audit redact                 rewrite records that hold a leaked secret value, in every
    [--company <id>]           spelling, as the owner role (the one sanctioned edit of the
    [--secret <NAME>]          append-only trail; recorded in the instance log). Values: the
    [--stdin]                  company's secrets (or just <NAME>), and/or one a line on stdin.
    [--idempotency-keys]       also HMAC idempotency keys an earlier version kept raw
    [--dry-run]                count only (docs/security.md, "One redaction path")
  admin list                   list the instance administrators (the host's operators)
  admin grant <email>          make an existing account an instance administrator
  admin revoke <email>         remove one (the last one cannot be removed)
  account disable <email>      disable an account: its sessions end and its assistant
                               connections are revoked for good in every company
  account enable <email>       enable it again (nothing revoked comes back)
  upstreams list               loopback/private origins company connections may reach, and
                               the ones live connections use that nobody listed
  upstreams allow <origin>     allow one exact origin, e.g. http://127.0.0.1:8080
    [--note <text>]
  upstreams remove <origin>    remove it (connections to it fail from their next call)
  smoke                        run the 13 smoke checks on a running instance, as the admin
                               board key PAPERCLIP_BOARD_KEY at PAPERCLIP_URL (default
                               http://localhost:3100); exit 1 if a check fails
  mcp <login|proxy|logout|status>
                               connect this machine to a Paperclip MCP endpoint without a
                               browser here (see \`npm run cli -- mcp help\`)

database: DATABASE_URL, or the embedded database under PAPERCLIP_HOME (default ~/.paperclip).
  e.g. DATABASE_URL=postgres://user:pass@host:5432/paperclip npm run cli -- doctor
`;

class CliError extends Error {}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith("--")) throw new CliError(`${name} needs a value`);
  return value;
}

async function reachable(url: string): Promise<"ok" | "refused" | Error> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return "ok";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ECONNREFUSED" || code === "CONNECT_TIMEOUT" ? "refused" : (err as Error);
  } finally {
    await sql.end({ timeout: 2 }).catch(() => {});
  }
}

/**
 * Opens the database, starting the embedded server when nothing else is available. Commands
 * run as the app's role; `owner` ones (audit redact) as the owner role: the embedded
 * superuser, or `MIGRATION_DATABASE_URL` beside `DATABASE_URL`.
 */
async function withDatabase<T>(fn: (db: Db) => Promise<T>, opts: { owner?: boolean } = {}): Promise<T> {
  let url = opts.owner
    ? (process.env.MIGRATION_DATABASE_URL ?? process.env.DATABASE_URL)
    : process.env.DATABASE_URL;
  let embedded: EmbeddedDatabase | null = null;
  if (!url) {
    const home = paperclipHome();
    const passwordFile = path.join(home, "db-password");
    if (!existsSync(passwordFile)) {
      throw new CliError(
        `no database: DATABASE_URL is not set and ${home} holds no embedded database yet.\n` +
          "  Run `npm start` once (it creates and migrates the embedded database), set PAPERCLIP_HOME to the\n" +
          "  home the app uses, or point the CLI at your server: DATABASE_URL=postgres://… npm run cli -- <command>",
      );
    }
    const password = readFileSync(passwordFile, "utf8").trim();
    const port = Number(process.env.PAPERCLIP_DB_PORT ?? 54329);
    const running = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/paperclip`;
    // Commands run as the app's own role (PAPERCLIP_HOME/db-app-password, made by `npm start`),
    // so they can do no more than the app, and `doctor` reports the role the app really uses.
    const appPasswordFile = path.join(home, "db-app-password");
    const asApp = (ownerUrl: string) =>
      !opts.owner && existsSync(appPasswordFile)
        ? withCredentials(ownerUrl, EMBEDDED_APP_ROLE, readFileSync(appPasswordFile, "utf8").trim())
        : ownerUrl;
    const state = await reachable(running);
    if (state === "ok") {
      url = asApp(running);
      console.error(`• using the running embedded database on 127.0.0.1:${port}`);
    } else if (state === "refused") {
      try {
        embedded = await startEmbeddedPostgres({ home, port, password });
      } catch (err) {
        throw new CliError(err instanceof EmbeddedDatabaseError ? err.message : String(err));
      }
      url = asApp(embedded.url);
      console.error(`• started the embedded database on 127.0.0.1:${port} for this command`);
    } else {
      throw new CliError(
        `cannot use the embedded database on 127.0.0.1:${port}: ${state.message}. Set DATABASE_URL instead.`,
      );
    }
  }
  const database = openDatabase(url, { max: 2 });
  try {
    const [schema] = await database.sql`select to_regclass('public.company_secrets') as t`;
    if (!schema?.t) {
      throw new CliError(
        "the database has no Paperclip schema yet: run `npm start` once against it (it applies the migrations)",
      );
    }
    return await fn(database.db);
  } finally {
    await database.close();
    if (embedded) await embedded.stop().catch(() => {});
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const log = (line: string) => console.log(line);
  switch (command) {
    case "doctor": {
      const report = await withDatabase((db) => runDoctor(db, { companyId: option(args, "--company"), log }));
      return report.findings.length > 0 ? 1 : 0;
    }
    case "migrate-inline-env": {
      const dryRun = args.includes("--dry-run");
      await withDatabase((db) =>
        migrateInlineCredentials(db, { dryRun, companyId: option(args, "--company"), log }),
      );
      return 0;
    }
    case "audit": {
      const [verb] = args;
      if (verb !== "redact")
        throw new CliError(
          "usage: npm run cli -- audit redact [--company <id>] [--secret <NAME>] [--stdin] [--idempotency-keys] [--dry-run]",
        );
      // Values come from standard input (one a line), never argv: argv shows in process lists
      // and shell history.
      const values = args.includes("--stdin")
        ? readFileSync(0, "utf8")
            .split(/\r?\n/)
            .filter((v) => v.length > 0)
        : [];
      const report = await withDatabase(
        (db) =>
          redactRecords(db, systemContext(db, "cli"), {
            companyId: option(args, "--company") ?? null,
            secretName: option(args, "--secret") ?? null,
            values,
            idempotencyKeys: args.includes("--idempotency-keys"),
            dryRun: args.includes("--dry-run"),
          }),
        { owner: true },
      );
      const verbWord = report.dryRun ? "would rewrite" : "rewrote";
      log(`${report.values} value(s), each in every spelling (raw, escaped, case, reversed, hex, base64)`);
      for (const r of report.rows) log(`  ${verbWord} ${r.rows} row(s) of ${r.column}`);
      if (report.rows.length === 0) log("  no record holds any of them");
      if (args.includes("--idempotency-keys"))
        log(`  ${report.dryRun ? "would hash" : "hashed"} ${report.idempotencyKeys} raw idempotency key(s)`);
      log(
        `✔ recorded in the instance log as audit.redact${report.dryRun ? " (dry run: nothing changed)" : ""}`,
      );
      return 0;
    }
    case "rotate-master-key": {
      await withDatabase((db) => rotateMasterKey(db, { log }));
      return 0;
    }
    case "admin": {
      const [verb, email] = args;
      if (verb === "list") {
        const admins = await withDatabase((db) => listInstanceAdmins(db));
        if (admins.length === 0) log("no instance administrators (grant one with `admin grant <email>`)");
        for (const a of admins) log(`${a.email}\t(since ${a.grantedAt.toISOString()})`);
        return 0;
      }
      if ((verb === "grant" || verb === "revoke") && email) {
        await withDatabase((db) => {
          const ctx = systemContext(db, "cli");
          return verb === "grant"
            ? grantInstanceAdmin(ctx, email).then(() => undefined)
            : revokeInstanceAdmin(ctx, email);
        });
        log(
          verb === "grant"
            ? `✔ ${email} is an instance administrator`
            : `✔ ${email} is no longer an instance administrator`,
        );
        return 0;
      }
      throw new CliError("usage: npm run cli -- admin list | admin grant <email> | admin revoke <email>");
    }
    case "account": {
      const [verb, email] = args;
      if ((verb === "disable" || verb === "enable") && email && !email.startsWith("--")) {
        const ctx = (db: Db) => systemContext(db, "cli");
        if (verb === "disable") {
          const out = await withDatabase((db) => disableAccount(ctx(db), email));
          log(
            `✔ ${email} is disabled (${out.sessionsEnded} session(s) ended, ${out.connectionsRevoked} assistant connection(s) revoked)`,
          );
        } else {
          await withDatabase((db) => enableAccount(ctx(db), email));
          log(`✔ ${email} is enabled (revoked assistant connections need a new consent)`);
        }
        return 0;
      }
      throw new CliError("usage: npm run cli -- account disable <email> | account enable <email>");
    }
    case "upstreams": {
      const [verb, origin] = args;
      if (verb === "list") {
        const out = await withDatabase((db) => listPrivateUpstreams(systemContext(db, "cli")));
        for (const g of out.builtIn) log(`${g.origin}${g.pathPrefix ?? ""}\t(built in: example fixtures)`);
        for (const e of out.entries) log(`${e.origin}\t${e.note ?? ""}`);
        if (out.entries.length === 0) log("no origins listed");
        for (const u of out.unlisted)
          log(
            `! ${u.origin}\tnot listed, used by ${u.connections} connection(s) in ${u.companies} company(ies)`,
          );
        return 0;
      }
      if ((verb === "allow" || verb === "remove") && origin && !origin.startsWith("--")) {
        await withDatabase((db) => {
          const ctx = systemContext(db, "cli");
          return verb === "allow"
            ? addPrivateUpstream(ctx, { origin, note: option(args, "--note") }).then(() => undefined)
            : removePrivateUpstream(ctx, origin).then(() => undefined);
        });
        const shown = normalizeUpstreamOrigin(origin) ?? origin;
        log(verb === "allow" ? `✔ ${shown} allowed` : `✔ ${shown} removed`);
        return 0;
      }
      throw new CliError(
        "usage: npm run cli -- upstreams list | upstreams allow <origin> [--note <text>] | upstreams remove <origin>",
      );
    }
    case "smoke":
      return runSmokeCommand({
        url: process.env.PAPERCLIP_URL ?? "http://localhost:3100",
        boardKey: process.env.PAPERCLIP_BOARD_KEY,
        out: log,
      });
    case "mcp":
      // stdout is the MCP host's in `mcp proxy`: progress goes to stderr.
      return runMcpCommand(args, {
        err: (line) => process.stderr.write(`${line}\n`),
        out: (line) => process.stdout.write(`${line}\n`),
      });
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`unknown command \`${command}\`\n`);
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((err) => {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`\n✖ ${message}\n`);
    process.exit(1);
  });
