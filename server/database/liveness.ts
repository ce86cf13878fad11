/**
 * Liveness (`/api/health/live`): whether this process can still do its work, so an
 * orchestrator restarts a replica that is wedged — as opposed to readiness (`/api/health`),
 * which says whether the database answers. It fails (503) when
 *   - the event loop lagged more than `PAPERCLIP_LIVE_MAX_LAG_MS` (default 1000) within the last
 *     few seconds (a sampler timer measures its own drift), or
 *   - the gateway's pool cannot run `select 1` within `PAPERCLIP_LIVE_POOL_TIMEOUT_MS` (default
 *     2000) while the breaker is closed: the database answers but this process's pool does not
 *     (every connection stuck, a queue that never drains).
 * While the breaker is open the database itself is down: restarting replicas cannot help, so
 * liveness stays 200 and says so (readiness is 503 then).
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processCell } from "../config/process-singleton";
import { type BreakerStatus, databaseBreaker, probeOf, withDeadline } from "./breaker";

const SAMPLE_MS = 250;
/** How long a lag spike is remembered. */
const WINDOW_MS = 5_000;

interface LagSampler {
  maxLagMs: number;
  /** (time, lag) of the samples inside the window. */
  samples: { at: number; lag: number }[];
}

const samplerCell = processCell<LagSampler>("lagSampler");

/** Starts the event-loop sampler once per process (an unref'd timer). */
export function startLagSampler(): LagSampler {
  if (samplerCell.current) return samplerCell.current;
  const sampler: LagSampler = { maxLagMs: 0, samples: [] };
  samplerCell.current = sampler;
  let expected = Date.now() + SAMPLE_MS;
  const tick = () => {
    const now = Date.now();
    const lag = Math.max(0, now - expected);
    expected = now + SAMPLE_MS;
    sampler.samples.push({ at: now, lag });
    while (sampler.samples.length > 0 && sampler.samples[0]!.at < now - WINDOW_MS) sampler.samples.shift();
    sampler.maxLagMs = Math.max(0, ...sampler.samples.map((s) => s.lag));
  };
  setInterval(tick, SAMPLE_MS).unref();
  return sampler;
}

const envMs = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export interface Liveness {
  status: "ok" | "failing";
  eventLoopLagMs: number;
  pool: "ok" | "wedged" | "skipped";
  poolLatencyMs: number | null;
  database: BreakerStatus;
  reasons: string[];
}

/** Checks the event loop and `db`'s pool (the gateway's); never throws. */
export async function checkLiveness(db: Db): Promise<Liveness> {
  const sampler = startLagSampler();
  const maxLag = envMs("PAPERCLIP_LIVE_MAX_LAG_MS", 1000);
  const poolTimeout = envMs("PAPERCLIP_LIVE_POOL_TIMEOUT_MS", 2000);
  const reasons: string[] = [];
  if (sampler.maxLagMs > maxLag) reasons.push(`event loop lagged ${sampler.maxLagMs} ms (limit ${maxLag})`);
  const breaker = databaseBreaker();
  let pool: Liveness["pool"] = "skipped";
  let poolLatencyMs: number | null = null;
  if (breaker.state === "closed") {
    const started = performance.now();
    try {
      await withDeadline(db.execute(sql`select 1`), poolTimeout, "a pool connection");
      pool = "ok";
    } catch (err) {
      // Either the pool is stuck or the database went away: the breaker's probe (on a
      // connection of its own) tells which.
      breaker.observe(err, probeOf(db));
      const databaseUp = await breaker.verify();
      pool = databaseUp ? "wedged" : "skipped";
      if (databaseUp) reasons.push(`the pool gave no connection within ${poolTimeout} ms`);
    }
    poolLatencyMs = Math.round((performance.now() - started) * 10) / 10;
  }
  return {
    status: reasons.length === 0 ? "ok" : "failing",
    eventLoopLagMs: sampler.maxLagMs,
    pool,
    poolLatencyMs,
    database: breaker.status(),
    reasons,
  };
}
