/**
 * Draining (issue 35, item 2): what a server process does between SIGTERM (or SIGINT) and its
 * exit. One state per process (a `processSingleton`, so the node listener's copy of this module
 * and the Next.js build's copy share it):
 *
 *   serving ── beginDrain() ──▶ draining: readiness is 503, every new governed call is refused
 *                                before it runs (`503 server_draining`, `Retry-After`), calls in
 *                                flight go on and record their outcome; `onDrain` listeners
 *                                (change streams) close at once.
 *
 * `server/lifecycle/shutdown.ts` waits for the calls in flight (`waitForCalls`, bounded by the
 * grace period) and then runs the process's shutdown steps.
 */
import { processSingleton } from "../config/process-singleton";
import { ServiceError } from "../errors";

interface DrainState {
  draining: boolean;
  /** When the drain began (epoch ms), null while serving. */
  since: number | null;
  inFlight: number;
  /** Resolvers waiting for `inFlight` to reach 0. */
  idle: Set<() => void>;
  listeners: Set<() => void>;
}

const state = (): DrainState =>
  processSingleton<DrainState>("drain", () => ({
    draining: false,
    since: null,
    inFlight: 0,
    idle: new Set(),
    listeners: new Set(),
  }));

/** The grace period for calls in flight: `PAPERCLIP_SHUTDOWN_GRACE_MS`, default 25 s. */
export function shutdownGraceMs(): number {
  const n = Number(process.env.PAPERCLIP_SHUTDOWN_GRACE_MS);
  return Number.isFinite(n) && n >= 0 && process.env.PAPERCLIP_SHUTDOWN_GRACE_MS?.trim() ? n : 25_000;
}

/** Whether this process is draining (it accepts no new calls). */
export function isDraining(): boolean {
  return state().draining;
}

/** Calls in flight in this process (counted by `trackCall`). */
export function callsInFlight(): number {
  return state().inFlight;
}

/** The refusal of a call that arrives while draining: nothing ran, retry (on another replica). */
export function drainingError(): ServiceError {
  return new ServiceError("server_draining", "this server is shutting down and ran nothing; retry shortly", {
    retryAfterSeconds: 1,
  });
}

/** Throws `server_draining` while draining; otherwise returns. */
export function assertAccepting(): void {
  if (state().draining) throw drainingError();
}

/**
 * Runs `work` as a call in flight: refused with `server_draining` (before it starts) while
 * draining, otherwise counted until it settles, so the drain waits for it.
 */
export async function trackCall<T>(work: () => Promise<T>): Promise<T> {
  const s = state();
  if (s.draining) throw drainingError();
  s.inFlight++;
  try {
    return await work();
  } finally {
    s.inFlight--;
    if (s.inFlight === 0) for (const done of [...s.idle]) done();
  }
}

/** Starts draining (idempotent); `onDrain` listeners run once, at once. */
export function beginDrain(): void {
  const s = state();
  if (s.draining) return;
  s.draining = true;
  s.since = Date.now();
  for (const fn of [...s.listeners]) {
    try {
      fn();
    } catch {
      // a listener's failure must not stop the drain
    }
  }
  s.listeners.clear();
}

/** Calls `fn` when the drain begins (at once when it already has); returns the unsubscribe. */
export function onDrain(fn: () => void): () => void {
  const s = state();
  if (s.draining) {
    fn();
    return () => {};
  }
  s.listeners.add(fn);
  return () => s.listeners.delete(fn);
}

/** Resolves true once no call is in flight, or false after `ms` with calls still running. */
export function waitForCalls(ms: number): Promise<boolean> {
  const s = state();
  if (s.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      s.idle.delete(done);
      resolve(true);
    };
    const timer = setTimeout(() => {
      s.idle.delete(done);
      resolve(false);
    }, ms);
    s.idle.add(done);
  });
}

/** Tests: back to serving. */
export function resetDrain(): void {
  const s = state();
  s.draining = false;
  s.since = null;
  s.listeners.clear();
}
