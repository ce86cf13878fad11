/**
 * The MCP client load of `npm run bench`: one initialized `Client` +
 * `StreamableHTTPClientTransport` per virtual user, reused for every call; each virtual user
 * calls in a closed loop (next call when the previous one answered). The same code drives
 * every target.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isInterrupted } from "./proc";
import { type Summary, summarize } from "./stats";

export interface Target {
  name: string;
  url: string;
  /** Spread the virtual users over these servers instead (client i → urls[i % n]). */
  urls?: string[];
  headers?: Record<string, string>;
  tool: string;
  arguments: Record<string, unknown>;
  /**
   * Ask for progress (the SDK client then sends `_meta.progressToken`): the gateway answers
   * such a call as an SSE stream that relays what the upstream sends while it runs.
   */
  progress?: boolean;
}

export interface LoadResult {
  target: string;
  concurrency: number;
  seconds: number;
  calls: number;
  errors: number;
  firstError: string | null;
  callsPerSecond: number;
  latency: Summary;
  /** CPU time per call of each process involved (ms), over the measured window. */
  cpuMsPerCall: Record<string, number>;
}

const CALL_TIMEOUT_MS = 10_000;

export async function connectClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "paperclip-bench", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** `n` initialized clients (connected a few at a time, so start-up is not itself a load spike). */
export async function connectClients(target: Target, n: number): Promise<Client[]> {
  const out: Client[] = [];
  for (let i = 0; i < n; i += 8) {
    const batch = Array.from({ length: Math.min(8, n - i) }, (_, j) =>
      connectClient(target.urls ? target.urls[(i + j) % target.urls.length]! : target.url, target.headers),
    );
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** Ends each client's MCP session (DELETE, when the server keeps sessions), then closes it. */
export async function closeClients(clients: Client[]): Promise<void> {
  await Promise.allSettled(
    clients.map(async (c) => {
      const t = c.transport;
      if (t instanceof StreamableHTTPClientTransport && t.sessionId)
        await t.terminateSession().catch(() => {});
      await c.close();
    }),
  );
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

/**
 * Runs `concurrency` virtual users (clients[0..concurrency)) against `target` for
 * `warmupMs + durationMs`; only calls that start after the warm-up are measured.
 */
export async function runLoad(
  target: Target,
  clients: Client[],
  concurrency: number,
  warmupMs: number,
  durationMs: number,
  onWindow?: (phase: "start" | "end") => void,
  cpuProbe?: () => Record<string, number>,
): Promise<LoadResult> {
  if (clients.length < concurrency) throw new Error(`need ${concurrency} clients, have ${clients.length}`);
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const t0 = performance.now();
  const measureFrom = t0 + warmupMs;
  const end = measureFrom + durationMs;
  let windowStarted = false;
  let cpu0: Record<string, number> = {};
  const vu = async (client: Client) => {
    while (true) {
      const start = performance.now();
      if (start >= end || isInterrupted()) return;
      if (!windowStarted && start >= measureFrom) {
        windowStarted = true;
        cpu0 = cpuProbe?.() ?? {};
        onWindow?.("start");
      }
      let failed: string | null = null;
      try {
        const result = await client.callTool({ name: target.tool, arguments: target.arguments }, undefined, {
          timeout: CALL_TIMEOUT_MS,
          ...(target.progress ? { onprogress: () => {} } : {}),
        });
        if (result.isError) failed = `isError: ${JSON.stringify(result.structuredContent ?? result.content)}`;
      } catch (err) {
        failed = errorText(err);
      }
      const elapsed = performance.now() - start;
      // A failing call can reject at once: yield so a broken target cannot starve the loop.
      if (failed) await new Promise((r) => setImmediate(r));
      if (start < measureFrom) continue;
      latencies.push(elapsed);
      if (failed) {
        errors++;
        firstError ??= failed;
      }
    }
  };
  await Promise.all(clients.slice(0, concurrency).map(vu));
  if (isInterrupted()) throw new Error("interrupted");
  const cpu1 = cpuProbe?.() ?? {};
  onWindow?.("end");
  const cpuMsPerCall: Record<string, number> = {};
  for (const [k, v] of Object.entries(cpu1))
    cpuMsPerCall[k] = latencies.length ? (v - (cpu0[k] ?? v)) / latencies.length : 0;
  const seconds = (performance.now() - measureFrom) / 1000;
  return {
    target: target.name,
    concurrency,
    seconds,
    calls: latencies.length,
    errors,
    firstError,
    callsPerSecond: (latencies.length - errors) / seconds,
    latency: summarize(latencies),
    cpuMsPerCall,
  };
}

/** Sequential timing of an arbitrary async operation (after `warmup` untimed runs). */
export async function timeSequential(
  n: number,
  warmup: number,
  fn: (i: number) => Promise<void>,
): Promise<{ latency: Summary; first: number; errors: number; firstError: string | null; seconds: number }> {
  const samples: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let first = Number.NaN;
  for (let i = 0; i < warmup && !isInterrupted(); i++) {
    const s = performance.now();
    try {
      await fn(i);
    } catch (err) {
      errors++;
      firstError ??= errorText(err);
    }
    if (i === 0) first = performance.now() - s;
  }
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    if (isInterrupted()) throw new Error("interrupted");
    const s = performance.now();
    try {
      await fn(warmup + i);
    } catch (err) {
      errors++;
      firstError ??= errorText(err);
    }
    const e = performance.now() - s;
    if (warmup === 0 && i === 0) first = e;
    samples.push(e);
  }
  return {
    latency: summarize(samples),
    first,
    errors,
    firstError,
    seconds: (performance.now() - t0) / 1000,
  };
}
