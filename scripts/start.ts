/**
 * `npm start`: the one command that runs the product.
 *   1. PAPERCLIP_HOME (default ~/.paperclip) and a generated AUTH_SECRET kept there;
 *   2. the database: DATABASE_URL, or an embedded PostgreSQL under PAPERCLIP_HOME/db;
 *   3. migrations as the owner role (MIGRATION_DATABASE_URL, or the embedded superuser), the
 *      app role's grants (docs/security.md, "Database roles"), then the demo seed on an empty
 *      database, written as the app role;
 *   4. a production build if none exists (`--dev` runs `next dev` instead);
 *   5. the server on PORT (default 3100): scripts/server.ts (Next.js, with the agent MCP
 *      endpoint served by a plain node:http handler), compiled into .next/paperclip/server.mjs
 *      first. SIGTERM or SIGINT (Ctrl-C) is forwarded to it: it drains (calls in flight finish
 *      within PAPERCLIP_SHUTDOWN_GRACE_MS) and exits, and only then is the embedded database
 *      stopped (docs/operations.md, "Stopping and deploys").
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { openDatabase } from "../db/client";
import {
  type EmbeddedDatabase,
  EmbeddedDatabaseError,
  leaveSignalsToCaller,
  startEmbeddedPostgres,
} from "../db/embedded";
import { EMBEDDED_APP_ROLE, ensureLoginRole, migrateAndGrant, withCredentials } from "../db/roles";
import { ensureSecretFile, paperclipHome, writePrivateJson } from "../server/config/home";
import { checkPublicUrl } from "../server/config/proxy";
import { seedDemoIfEmpty } from "../server/core/seed";
import { shutdownGraceMs } from "../server/lifecycle/drain";
import { buildServerBundle } from "./server-bundle";

const dev = process.argv.includes("--dev");
const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

function fail(message: string): never {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

async function main() {
  const home = paperclipHome();
  const port = Number(process.env.PORT ?? 3100);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    fail(`PORT must be a port number, got \`${process.env.PORT}\``);
  const publicUrl = checkPublicUrl(process.env.PAPERCLIP_PUBLIC_URL);
  if (!publicUrl.ok) fail(`${publicUrl.message} (got \`${process.env.PAPERCLIP_PUBLIC_URL}\`)`);
  const url = `http://localhost:${port}`;
  const authSecret = process.env.AUTH_SECRET || ensureSecretFile("auth-secret");

  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const dbPort = Number(process.env.PAPERCLIP_DB_PORT ?? 54329);
    try {
      embedded = await startEmbeddedPostgres({
        home,
        port: dbPort,
        password: ensureSecretFile("db-password", 24),
      });
    } catch (err) {
      fail(err instanceof EmbeddedDatabaseError ? err.message : `embedded database: ${String(err)}`);
    }
    // This process decides when the database stops: after the app drained (see `stop` below).
    leaveSignalsToCaller();
    databaseUrl = embedded.url;
    console.log(`• embedded PostgreSQL on 127.0.0.1:${dbPort} (data in ${path.join(home, "db")})`);
  } else {
    console.log("• using DATABASE_URL");
  }
  // The embedded cluster's superuser owns the schema and runs migrations; the app connects as
  // paperclip_app, whose password is generated into PAPERCLIP_HOME/db-app-password (0600).
  let migrationUrl = process.env.MIGRATION_DATABASE_URL?.trim() || undefined;
  if (embedded) {
    const appPassword = ensureSecretFile("db-app-password", 24);
    const owner = postgres(embedded.url, { max: 1, onnotice: () => {} });
    try {
      await ensureLoginRole(owner, EMBEDDED_APP_ROLE, appPassword);
    } catch (err) {
      await embedded.stop().catch(() => {});
      fail(
        `embedded database: cannot create the app role: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      await owner.end({ timeout: 5 });
    }
    migrationUrl = embedded.url;
    databaseUrl = withCredentials(embedded.url, EMBEDDED_APP_ROLE, appPassword);
  }

  const stopDb = async () => {
    if (embedded) await embedded.stop().catch(() => {});
    embedded = null;
  };
  // A signal before the server runs (setup, build): stop the database and go.
  let child: ReturnType<typeof spawn> | null = null;
  const early = (signal: NodeJS.Signals) => {
    if (child) return;
    void stopDb().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGINT", early);
  process.on("SIGTERM", early);

  try {
    const roles = await migrateAndGrant(databaseUrl, migrationUrl, path.join(root, "db", "migrations"));
    console.log("• migrations applied");
    if (roles.appRole !== roles.migrationRole)
      console.log(`• the app connects as role ${roles.appRole} (migrations ran as ${roles.migrationRole})`);
    else
      console.log(
        `• the app and migrations share the role ${roles.appRole}: it can alter the schema; split the roles (docs/security.md)`,
      );
    const database = openDatabase(databaseUrl, { max: 2 });
    try {
      const creds = await seedDemoIfEmpty(database.db, url);
      const credsFile = path.join(home, "demo-credentials.json");
      if (creds) {
        writePrivateJson(credsFile, creds);
        console.log(
          `• seeded the demo company "Acme Robotics"; credentials saved to ${credsFile} (mode 0600)`,
        );
        // API keys are never printed: stdout often ends up in log files. They are in the file.
        console.log(`\n  Owner sign-in:  ${creds.ownerEmail}  /  ${creds.ownerPassword}`);
        console.log(`  API keys (board, ${creds.agents.length} agents):  in ${credsFile}`);
      } else if (existsSync(credsFile)) {
        console.log(
          `• existing data kept; demo credentials (if this is the demo database) are in ${credsFile}`,
        );
      }
    } finally {
      await database.close();
    }
  } catch (err) {
    await stopDb();
    fail(`database setup failed: ${err instanceof Error ? err.message : String(err)}`);
  }

  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: authSecret,
    AUTH_TRUST_HOST: "true",
    PAPERCLIP_HOME: home,
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: "1",
  };

  if (!dev && !existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("• no production build found: running `next build` (about a minute, once)");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
    if (build.status !== 0) {
      await stopDb();
      fail("`next build` failed");
    }
  }

  // Production: scripts/server.ts (Next.js plus the agent MCP endpoint on a plain node:http
  // path, see docs/gateway.md), compiled into one module on every start (about 0.4 s; it then
  // starts faster and uses less memory than the sources through tsx, scripts/server-bundle.ts).
  // Should the compile fail, the same code runs from the sources. Development: `next dev`,
  // where the endpoint is the Next route.
  let serverArgs = ["--import", "tsx", path.join(root, "scripts", "server.ts")];
  if (!dev) {
    try {
      // Without --enable-source-maps: it would also load the maps of every Next.js chunk the
      // server runs (35–50 MiB measured). NODE_OPTIONS=--enable-source-maps maps stack traces
      // to the sources when debugging (docs/operations.md).
      serverArgs = [await buildServerBundle(root)];
    } catch (err) {
      console.warn(
        `! the server bundle could not be built, running from the sources: ${err instanceof Error ? err.message.slice(0, 500) : String(err)}`,
      );
    }
  }

  console.log(`\n  Paperclip is starting on ${url}  (sign in at ${url}/signin)\n`);
  // Loopback only unless the operator says otherwise: a fresh demo instance holds seeded
  // credentials and should not be reachable from the network by accident.
  const host = process.env.HOST?.trim() || "127.0.0.1";
  const args = dev ? [nextBin, "dev", "-p", String(port), "-H", host] : serverArgs;
  child = spawn(process.execPath, args, {
    cwd: root,
    // What the `next` CLI sets for `next start`, which the custom server does not go through.
    env: dev
      ? { ...env, HOST: host }
      : { ...env, HOST: host, NODE_ENV: "production", NEXT_RUNTIME: "nodejs" },
    stdio: "inherit",
  });
  const server = child;
  let stopping = false;
  // The signal goes to the server, which drains: readiness 503, new calls refused, calls in
  // flight finish within the grace period, slots and streams close, it exits. The database
  // is stopped only after that (on `exit` below), so every outcome is recorded. A server that
  // outlives the grace period by far is killed.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    server.kill(signal);
    setTimeout(() => server.kill("SIGKILL"), shutdownGraceMs() + 20_000).unref();
  };
  process.off("SIGINT", early);
  process.off("SIGTERM", early);
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  server.on("exit", async (code, signal) => {
    await stopDb();
    process.exit(code ?? (signal ? 128 + (signal === "SIGKILL" ? 9 : 15) : 0));
  });
}

main().catch((err) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)));
