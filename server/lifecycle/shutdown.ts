/**
 * The ordered shutdown of a server process on SIGTERM or SIGINT (docs/operations.md,
 * "Stopping and deploys"):
 *
 *   1. drain (`drain.ts`): readiness 503 at once, new calls refused with `server_draining`,
 *      change streams closed;
 *   2. wait for the calls in flight to finish and record their outcome, at most the grace
 *      period (`PAPERCLIP_SHUTDOWN_GRACE_MS`, 25 s);
 *   3. the steps registered with `onShutdown`, in their order (background workers, runtime
 *      slots, the HTTP listener, the database pools), each bounded;
 *   4. exit 0.
 *
 * The layers that own the work register its step (instrumentation.ts, scripts/server.ts), so
 * this module imports none of them. A second signal during the drain changes nothing (the
 * parent `npm start` forwards the one it got, and a terminal sends SIGINT to the whole group).
 */
import { processSingleton } from "../config/process-singleton";
import { logError, logInfo, logWarn } from "../log";
import { beginDrain, callsInFlight, callsInFlightDetail, shutdownGraceMs, waitForCalls } from "./drain";

/** Where a step runs: lower first. */
export const SHUTDOWN_ORDER = {
  /** Background loops (sweeper, event worker, runtime maintenance): no new work. */
  workers: 10,
  /** Local MCP processes (runtime slots). */
  slots: 20,
  /** The HTTP listener: closed once nothing it serves is in flight. */
  listener: 30,
  /** The database pools, last: every step before may still write. */
  database: 40,
} as const;

/** The longest one step may take before the shutdown goes on without it. */
const STEP_TIMEOUT_MS = 10_000;

interface Step {
  name: string;
  order: number;
  run: () => unknown;
}

interface ShutdownState {
  steps: Step[];
  installed: boolean;
  running: Promise<void> | null;
}

const state = () =>
  processSingleton<ShutdownState>("shutdown", () => ({ steps: [], installed: false, running: null }));

/** Registers a step of this process's shutdown (a name registered twice keeps the first). */
export function onShutdown(name: string, order: number, run: () => unknown): void {
  const s = state();
  if (s.steps.some((step) => step.name === name)) return;
  s.steps.push({ name, order, run });
}

const bounded = (work: Promise<unknown>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    work.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      (err) => {
        clearTimeout(timer);
        logError("process.shutdown_step_failed", err);
        resolve(true);
      },
    );
  });

/**
 * Drains and stops this process's work (idempotent: a second call joins the first). Resolves
 * when every step ran; the caller exits. `graceMs` defaults to `PAPERCLIP_SHUTDOWN_GRACE_MS`.
 */
export function shutdown(reason: string, graceMs = shutdownGraceMs()): Promise<void> {
  const s = state();
  if (s.running) return s.running;
  s.running = (async () => {
    const started = Date.now();
    beginDrain();
    const inFlight = callsInFlight();
    logInfo("process.draining", { reason, inFlight, graceMs });
    const drained = await waitForCalls(graceMs);
    if (!drained)
      logWarn("process.drain_grace_expired", {
        stillInFlight: callsInFlight(),
        calls: callsInFlightDetail().slice(0, 20),
        graceMs,
        note: "their rows are left to the lease sweeper (outcome_unknown)",
      });
    for (const step of [...s.steps].sort((a, b) => a.order - b.order)) {
      const ok = await bounded(Promise.resolve().then(step.run), STEP_TIMEOUT_MS);
      if (!ok) logWarn("process.shutdown_step_timeout", { step: step.name, timeoutMs: STEP_TIMEOUT_MS });
    }
    logInfo("process.stopped", { reason, drainedCalls: inFlight, ms: Date.now() - started });
  })();
  return s.running;
}

/**
 * SIGTERM and SIGINT start `shutdown` and exit 0 when it is done (once per process; both the
 * node listener and instrumentation.ts call it).
 */
export function installShutdownHandlers(): void {
  const s = state();
  if (s.installed) return;
  s.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      void shutdown(signal).finally(() => process.exit(0));
    });
  }
}
