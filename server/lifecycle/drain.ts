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
import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "../config/process-singleton";
import { ServiceError } from "../errors";

interface DrainState {
  draining: boolean;
  /** When the drain began (epoch ms), null while serving. */
  since: number | null;
  inFlight: number;
  /** The calls in flight: what each is and the step it is in (`markStage`), for the drain's log. */
  calls: Set<CallInFlight>;
  /** Resolvers waiting for `inFlight` to reach 0. */
  idle: Set<() => void>;
  listeners: Set<() => void>;
}

const state = (): DrainState =>
  processSingleton<DrainState>("drain", () => ({
    draining: false,
    since: null,
    inFlight: 0,
    calls: new Set(),
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
export async function trackCall<T>(work: () => Promise<T>, label = "call"): Promise<T> {
  const s = state();
  if (s.draining) throw drainingError();
  s.inFlight++;
  const call: CallInFlight = { label, stage: "started", since: Date.now() };
  s.calls.add(call);
  try {
    return await currentCall().run(call, work);
  } finally {
    s.calls.delete(call);
    s.inFlight--;
    if (s.inFlight === 0) for (const done of [...s.idle]) done();
  }
}

/** One call in flight: a label (the tool) and the step it is in. */
export interface CallInFlight {
  label: string;
  stage: string;
  since: number;
}

const currentCall = () => processSingleton("drainCurrentCall", () => new AsyncLocalStorage<CallInFlight>());

/**
 * Names the step the current call is in (the decision, the upstream request, recording its
 * outcome): a call still running when the drain's grace period ends is logged with it, so a
 * stuck step shows in the log instead of only a count.
 */
export function markStage(stage: string): void {
  const call = currentCall().getStore();
  if (call) call.stage = stage;
}

/** The calls in flight now, oldest first, with their step and age (ms). */
export function callsInFlightDetail(now = Date.now()): { label: string; stage: string; ms: number }[] {
  return [...state().calls]
    .sort((a, b) => a.since - b.since)
    .map((c) => ({ label: c.label.slice(0, 200), stage: c.stage, ms: now - c.since }));
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
