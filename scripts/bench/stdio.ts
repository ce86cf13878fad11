/**
 * Pooled stdio vs spawn-per-call for `npm run bench`.
 *
 * - Pooled, preferred: the runtime-slot supervisor (server/runtime, `stdioCallTool`) with a
 *   real stdio template + connection of the bench company, N sequential calls through one slot.
 * - Pooled, fallback (supervisor not importable or not working): one long-lived
 *   `StdioClientTransport` client reused for N calls — said so in the output.
 * - Spawn-per-call: a fresh `StdioClientTransport` (`node --import tsx fixtures/mcp/serve.ts echo
 *   --stdio`) + initialize + call for each call (the process is closed outside the timing).
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { timeSequential } from "./load";
import type { Summary } from "./stats";

export interface StdioFigures {
  mode: "supervisor" | "long-lived client";
  note: string | null;
  pooled: { calls: number; first: number; latency: Summary; callsPerSecond: number; errors: number };
  spawn: {
    calls: number;
    latency: Summary;
    callsPerSecond: number;
    errors: number;
    firstError: string | null;
  };
}

const ARGS = { text: "bench" };

export function fixtureStdioArgs(root: string): string[] {
  return ["--import", "tsx", path.join(root, "fixtures/mcp/serve.ts"), "echo", "--stdio"];
}

async function spawnClient(root: string): Promise<Client> {
  const client = new Client({ name: "paperclip-bench", version: "1.0.0" }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: fixtureStdioArgs(root),
      cwd: root,
      stderr: "ignore",
    }),
  );
  return client;
}

async function call(client: Client): Promise<void> {
  const r = await client.callTool({ name: "echo", arguments: ARGS });
  if (r.isError) throw new Error(`isError: ${JSON.stringify(r.content)}`);
}

export async function benchSpawnPerCall(root: string, n: number): Promise<StdioFigures["spawn"]> {
  const closing: Promise<void>[] = [];
  const r = await timeSequential(n, 1, async () => {
    const client = await spawnClient(root);
    try {
      await call(client);
    } finally {
      closing.push(client.close().catch(() => {}));
    }
  });
  await Promise.all(closing);
  return {
    calls: n,
    latency: r.latency,
    callsPerSecond: (n - r.errors) / r.seconds,
    errors: r.errors,
    firstError: r.firstError,
  };
}

/** The figures of `n` calls through one long-lived client: the first call and the rest. */
function pooledFigures(
  n: number,
  first: number,
  r: Awaited<ReturnType<typeof timeSequential>>,
): StdioFigures["pooled"] {
  return {
    calls: n,
    first,
    latency: r.latency,
    callsPerSecond: (n - r.errors) / r.seconds,
    errors: r.errors,
  };
}

export async function benchLongLivedClient(root: string, n: number): Promise<StdioFigures["pooled"]> {
  const started = performance.now();
  const client = await spawnClient(root);
  try {
    await call(client);
    const first = performance.now() - started;
    const r = await timeSequential(n, 20, () => call(client));
    return pooledFigures(n, first, r);
  } finally {
    await client.close().catch(() => {});
  }
}

/** The supervisor's public API (server/runtime/index.ts), as far as the bench uses it. */
export interface RuntimeApi {
  stdioCallTool: (
    db: never,
    target: never,
    name: string,
    args: Record<string, unknown>,
    opts?: { timeoutMs?: number },
  ) => Promise<unknown>;
  isDeferred: (v: unknown) => boolean;
  shutdownAllSlots: () => Promise<void>;
}

export async function benchSupervisor(
  runtime: RuntimeApi,
  db: unknown,
  target: unknown,
  n: number,
): Promise<StdioFigures["pooled"]> {
  const once = async () => {
    const out = (await runtime.stdioCallTool(db as never, target as never, "echo", ARGS, {
      timeoutMs: 30_000,
    })) as { isError?: boolean; content?: unknown };
    if (runtime.isDeferred(out)) throw new Error("runtime_deferred");
    if (out.isError) throw new Error(`isError: ${JSON.stringify(out.content)}`);
  };
  const started = performance.now();
  await once(); // starts the slot: spawn + initialize + first call
  const first = performance.now() - started;
  const r = await timeSequential(n, 20, once);
  if (r.errors > 0 && r.errors === n) throw new Error(r.firstError ?? "every call failed");
  return pooledFigures(n, first, r);
}
