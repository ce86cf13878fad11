/**
 * The database circuit breaker: one per process (a `processSingleton`, so the node listener's
 * copy of this module and the Next.js build's copy share it).
 *
 *   closed ── a connection failure ──▶ (probe) ── probe fails ──▶ open
 *   open ── every `probeIntervalMs`, one background probe ──▶ half_open ── ok ──▶ closed
 *                                                                       └─ fails ─▶ open
 *
 * While open or half-open, the adapters answer `503 database_unavailable` with `Retry-After`
 * at once: no request touches the pool, so an outage costs no connection attempt per request
 * and no request waits for a connect timeout. Only the probe (a `select 1` under a deadline,
 * run by a timer, never by a request) talks to the database until it answers again.
 *
 * Opening needs a failed probe, not only a failed request: one connection killed by a server
 * restart or an idle timeout is retried by the pool and must not turn a working database
 * into a second of 503s.
 */
import { type Db, databaseProbe, type Tx } from "@/db/client";
import { processSingleton } from "../config/process-singleton";
import { ServiceError } from "../errors";
import { logError, logInfo, logWarn } from "../log";
import { databaseFailureOf } from "./unavailable";

export type BreakerState = "closed" | "open" | "half_open";

/** Runs one cheap round trip on the database; rejects when it cannot. */
export type Probe = () => Promise<unknown>;

export interface BreakerStatus {
  state: BreakerState;
  /** When the breaker last opened (ISO), null while it never did. */
  openedAt: string | null;
  /** Times it opened since the process started. */
  opens: number;
  /** Requests refused while open or half-open since the process started. */
  refused: number;
  /** Probes run since the process started. */
  probes: number;
}

export interface BreakerOptions {
  /** How long one probe may take before it counts as failed. */
  probeTimeoutMs: number;
  /** The pause between probes while open (also the `Retry-After` the refusals carry). */
  probeIntervalMs: number;
}

const envMs = (name: string, fallback: number): number => {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export function breakerOptionsFromEnv(): BreakerOptions {
  return {
    probeTimeoutMs: envMs("PAPERCLIP_DB_PROBE_TIMEOUT_MS", 2000),
    probeIntervalMs: envMs("PAPERCLIP_DB_PROBE_INTERVAL_MS", 1000),
  };
}

/** Rejects after `ms` unless `work` settles first (the timer never keeps the process alive). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`${what} took longer than ${ms} ms`), {
            code: "CONNECT_TIMEOUT",
            deadline: true,
          }),
        ),
      ms,
    );
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export class DatabaseBreaker {
  private current: BreakerState = "closed";
  private openedAt: Date | null = null;
  private opens = 0;
  private refused = 0;
  private probes = 0;
  private probing: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private probe: Probe | null = null;
  /** Listeners told when the breaker closes again (the database is back). */
  private readonly recovered = new Set<() => void>();

  constructor(readonly options: BreakerOptions = breakerOptionsFromEnv()) {}

  get state(): BreakerState {
    return this.current;
  }

  status(): BreakerStatus {
    return {
      state: this.current,
      openedAt: this.openedAt?.toISOString() ?? null,
      opens: this.opens,
      refused: this.refused,
      probes: this.probes,
    };
  }

  /** The error a refused request answers with. */
  unavailable(): ServiceError {
    return new ServiceError("database_unavailable", "the database is unavailable; retry shortly", {
      retryAfterSeconds: Math.max(1, Math.ceil(this.options.probeIntervalMs / 1000)),
      breaker: this.current,
    });
  }

  /** Throws `database_unavailable` while the breaker is open or half-open; otherwise returns. */
  admit(): void {
    if (this.current === "closed") return;
    this.refused++;
    throw this.unavailable();
  }

  /**
   * Tells the breaker about a failed request. A connection failure starts a probe (one at a
   * time); the breaker opens when that probe fails too. Returns the failure's kind (null for an
   * error that is not the database's), so the caller can answer `database_unavailable`.
   */
  observe(err: unknown, probe: Probe): "connection" | "timeout" | null {
    const kind = databaseFailureOf(err);
    if (kind !== "connection") return kind;
    this.probe = probe;
    if (this.current === "closed" && !this.probing) void this.runProbe("verify");
    return kind;
  }

  /** Probes now (or joins the probe in flight); true when the database answered. */
  async verify(probe?: Probe): Promise<boolean> {
    if (probe) this.probe = probe;
    if (this.current === "open" && !this.probing) return false;
    const ok = await this.runProbe(this.current === "closed" ? "verify" : "half_open");
    return ok && this.current === "closed";
  }

  /** Calls `fn` each time the breaker closes after having been open. */
  onRecovered(fn: () => void): () => void {
    this.recovered.add(fn);
    return () => this.recovered.delete(fn);
  }

  private open(err: unknown): void {
    if (this.current !== "open" && this.current !== "half_open") {
      this.opens++;
      this.openedAt = new Date();
      logError("database.breaker_opened", err, { probeIntervalMs: this.options.probeIntervalMs });
    }
    this.current = "open";
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.current = "half_open";
      void this.runProbe("half_open");
    }, this.options.probeIntervalMs);
    this.timer.unref();
  }

  private runProbe(why: "verify" | "half_open"): Promise<boolean> {
    if (this.probing) return this.probing;
    const probe = this.probe;
    if (!probe) return Promise.resolve(this.current === "closed");
    this.probes++;
    this.probing = withDeadline(
      Promise.resolve().then(probe),
      this.options.probeTimeoutMs,
      "the database probe",
    )
      .then(() => {
        if (this.current !== "closed") {
          const downMs = this.openedAt ? Date.now() - this.openedAt.getTime() : 0;
          this.current = "closed";
          logInfo("database.breaker_closed", { downMs, refused: this.refused });
          for (const fn of this.recovered) {
            try {
              fn();
            } catch (err) {
              logError("database.recovery_hook_failed", err);
            }
          }
        }
        return true;
      })
      .catch((err) => {
        if (why === "verify" && databaseFailureOf(err) === null) {
          // The probe failed for another reason (e.g. a permission): not an outage.
          logWarn("database.probe_inconclusive", {
            message: String((err as Error)?.message ?? err).slice(0, 200),
          });
          return true;
        }
        this.open(err);
        return false;
      })
      .finally(() => {
        this.probing = null;
      });
    return this.probing;
  }

  /** Tests: back to closed, counters kept. */
  reset(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = "closed";
  }
}

/** The process's breaker. */
export function databaseBreaker(): DatabaseBreaker {
  return processSingleton("dbBreaker", () => new DatabaseBreaker());
}

/** The header every adapter answer carries with the breaker's state. */
export const BREAKER_HEADER = "x-paperclip-db";

/** The probe for `db`: a `select 1` on a connection of its own (db/client.ts `databaseProbe`). */
export const probeOf = (db: Db | Tx): Probe => databaseProbe(db);

/**
 * What an adapter answers for `err` when it is the database's failure: `database_unavailable`
 * (a connection failure also tells the breaker, which probes and may open); null otherwise.
 */
export function databaseUnavailableFor(err: unknown, probe: Probe): ServiceError | null {
  const breaker = databaseBreaker();
  return breaker.observe(err, probe) ? breaker.unavailable() : null;
}
