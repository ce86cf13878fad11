/**
 * The fault suite's cluster (server/database/faults.int.test.ts, `npm run test:faults`): an
 * embedded PostgreSQL whose postmaster can be stopped and started by its pid, two production
 * server processes (`scripts/server.ts`) on it, and a raw MCP client with a hard client timeout
 * that records every answer. Loopback only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "@/db/embedded";

const ROOT = path.resolve(import.meta.dirname, "../..");

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The embedded cluster, with the postmaster's pid for stopping it the hard way. */
export class FaultDatabase {
  private db: EmbeddedDatabase | null = null;
  url = "";
  constructor(
    readonly home: string,
    readonly port: number,
    readonly password: string,
  ) {}

  async start(): Promise<void> {
    this.db = await startEmbeddedPostgres({ home: this.home, port: this.port, password: this.password });
    this.url = this.db.url;
  }

  /** The postmaster's pid (first line of postmaster.pid in the data directory). */
  pid(): number | null {
    let dir = path.join(this.home, "db");
    try {
      dir = path.resolve(path.dirname(dir), readlinkSync(dir));
    } catch {
      // not a symlink
    }
    const file = path.join(dir, "postmaster.pid");
    if (!existsSync(file)) return null;
    const pid = Number.parseInt(readFileSync(file, "utf8").split("\n")[0] ?? "", 10);
    return Number.isFinite(pid) ? pid : null;
  }

  /** Stops the postmaster by its pid (SIGINT: fast shutdown, every session is cut) and waits. */
  async kill(): Promise<void> {
    const pid = this.pid();
    if (!pid) throw new Error("no postmaster pid");
    process.kill(pid, "SIGINT");
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await sleep(100);
    }
    process.kill(pid, "SIGKILL");
  }

  async stop(): Promise<void> {
    await this.db?.stop().catch(() => {});
  }
}

/** One server process (`node --import tsx scripts/server.ts`), its log kept in memory. */
export class FaultServer {
  child: ChildProcess | null = null;
  readonly log: string[] = [];
  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(timeoutMs = 60_000): Promise<void> {
    const withNext = existsSync(path.join(ROOT, ".next", "BUILD_ID"));
    this.child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "server.ts")], {
      cwd: ROOT,
      env: {
        ...this.env,
        PORT: String(this.port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        NEXT_RUNTIME: "nodejs",
        NEXT_TELEMETRY_DISABLED: "1",
        // No production build (a developer's checkout): the same listener without Next.js.
        ...(withNext ? {} : { PAPERCLIP_SERVER_NEXT: "off" }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // PAPERCLIP_FAULTS_LOG_DIR: each server's whole log also goes to `<dir>/<name>.log` (a failed
    // run's evidence; the in-memory copy is what the assertions read).
    const dir = process.env.PAPERCLIP_FAULTS_LOG_DIR;
    const file = dir ? path.join(dir, `${this.name}.log`) : null;
    const keep = (chunk: Buffer) => {
      if (file) appendFileSync(file, chunk);
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) this.log.push(line);
    };
    this.child.stdout?.on("data", keep);
    this.child.stderr?.on("data", keep);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null)
        throw new Error(`${this.name} exited: ${this.log.slice(-20).join("\n")}`);
      const h = await getJson(`${this.origin}/api/health`, 1000).catch(() => null);
      if (h?.status === 200) return;
      await sleep(250);
    }
    throw new Error(`${this.name} did not become ready: ${this.log.slice(-20).join("\n")}`);
  }

  /** kill -9. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }

  /**
   * SIGTERM, as a deploy sends it, and waits for the process to exit on its own (it drains);
   * resolves with the exit code, or throws after `timeoutMs` (then kills it).
   */
  async terminate(timeoutMs: number): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`${this.name} did not exit within ${timeoutMs} ms of SIGTERM`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    const t = setTimeout(() => child.kill("SIGKILL"), 8000);
    await exited;
    clearTimeout(t);
  }
}

export async function getJson(
  url: string,
  timeoutMs: number,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: res.status, body, headers: res.headers, ms: performance.now() - started };
}

/** What one request got. `status` 0: no HTTP answer (refused, reset); `timedOut`: the client gave up. */
export interface Answer {
  server: string;
  tool: string;
  key: string;
  startedAt: number;
  ms: number;
  status: number;
  /** `error.code` of an HTTP error, or the code of a refused call (`_meta["io.paperclip/error"]`). */
  code: string | null;
  ok: boolean;
  breaker: string | null;
  timedOut: boolean;
  retryAfter: string | null;
}

/** The client's timeout: an answer slower than this counts as a hang. */
export const CLIENT_TIMEOUT_MS = 10_000;

let rpcId = 0;

/**
 * One `tools/call` (or `tools/list` when `tool` is "tools/list") over raw HTTP; `meta` adds to
 * the request's `_meta` (e.g. `approvedActionRequestId`).
 */
export async function mcpCall(
  server: FaultServer,
  token: string,
  tool: string,
  args: Record<string, unknown>,
  key: string,
  meta: Record<string, unknown> = {},
): Promise<Answer> {
  const startedAt = Date.now();
  const started = performance.now();
  const list = tool === "tools/list";
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: ++rpcId,
    method: list ? "tools/list" : "tools/call",
    params: list ? {} : { name: tool, arguments: args, _meta: { idempotencyKey: key, ...meta } },
  });
  const base = { server: server.name, tool, key, startedAt };
  try {
    const res = await fetch(`${server.origin}/api/tool-gateway/mcp`, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
        authorization: `Bearer ${token}`,
      },
      body,
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: {
      error?: { code?: unknown };
      result?: {
        isError?: boolean;
        structuredContent?: { code?: unknown };
        _meta?: { "io.paperclip/error"?: { code?: unknown } };
      };
    } = {};
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    // A refusal's code: `_meta["io.paperclip/error"]` always (structuredContent only for tools
    // without an output schema, docs/gateway.md); an upstream's own error result has neither.
    const refused = json.result?.isError
      ? String(
          json.result._meta?.["io.paperclip/error"]?.code ??
            json.result.structuredContent?.code ??
            "tool_error",
        )
      : null;
    return {
      ...base,
      ms: performance.now() - started,
      status: res.status,
      code: json.error ? String(json.error.code ?? "rpc_error") : refused,
      ok: res.status === 200 && Boolean(json.result) && !json.result?.isError,
      breaker: res.headers.get("x-paperclip-db"),
      timedOut: false,
      retryAfter: res.headers.get("retry-after"),
    };
  } catch (err) {
    const timedOut = (err as Error).name === "TimeoutError";
    // A refused connect never reached the server (nothing ran); any other failure may have.
    const refusedConnect = (err as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
    return {
      ...base,
      ms: performance.now() - started,
      status: 0,
      code: timedOut ? "client_timeout" : refusedConnect ? "connection_refused" : "network",
      ok: false,
      breaker: null,
      timedOut,
      retryAfter: null,
    };
  }
}

/** Log lines that must never appear: a 500, an uncaught exception, an unhandled error. */
export const FORBIDDEN_LOG =
  /"event":"(route\.unhandled|gateway\.mcp_unhandled|gateway\.unhandled|process\.uncaught_exception|gateway\.mcp_handler_failed)"|Cannot read properties of null|uncaughtException|"code":"internal_error"/;
