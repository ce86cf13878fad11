/**
 * The MCP Events worker of one process (every replica runs one; instrumentation.ts starts
 * it): a pass every `intervalMs` detects new activity of subscribed tasks (./detect.ts) and
 * sends what is due (./deliver.ts), batches repeated while full; a prune pass a minute
 * removes what has expired (./subscriptions.ts `pruneEvents`). Nothing is held in memory
 * between passes: every decision is in the database, so replicas share the work and a
 * restarted process carries on where the database says.
 */
import type { Db } from "@/db/client";
import { processCell } from "../config/process-singleton";
import { databaseBreaker } from "../database/breaker";
import { logError } from "../log";
import { type DeliveryOptions, deliverBatch } from "./deliver";
import { detectEvents } from "./detect";
import { DELIVERY } from "./limits";
import { pruneEvents } from "./subscriptions";

export interface EventWorkerOptions extends DeliveryOptions {
  /** Between passes. Default 1 s. */
  intervalMs?: number;
}

export interface EventWorker {
  /** Runs one pass now (tests); resolves when it finished. */
  pass(): Promise<void>;
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 60_000;

export function createEventWorker(db: Db, opts: EventWorkerOptions = {}): EventWorker {
  const batch = opts.batch ?? DELIVERY.batch;
  let running: Promise<void> | null = null;
  let stopped = false;
  let lastPrune = 0;
  const once = async () => {
    if (databaseBreaker().state !== "closed") return;
    try {
      await detectEvents(db);
      // Deliveries of one batch run concurrently; a full batch is followed by the next.
      for (let i = 0; i < 10 && !stopped; i++)
        if ((await deliverBatch(db, { ...opts, batch })) < batch) break;
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await pruneEvents(db);
      }
    } catch (err) {
      logError("events.worker_pass_failed", err);
    }
  };
  const pass = () => {
    if (!running) running = once().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void pass(), opts.intervalMs ?? 1000);
  timer.unref?.();
  return {
    pass,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

const current = processCell<EventWorker>("eventWorker");

/** Starts this process's worker once (instrumentation.ts). */
export function startEventWorker(db: Db, opts: EventWorkerOptions = {}): EventWorker {
  current.current ??= createEventWorker(db, opts);
  return current.current;
}

/** Stops this process's worker (its pass in progress finishes first): the shutdown's step. */
export async function stopEventWorker(): Promise<void> {
  const worker = current.current;
  current.current = undefined;
  await worker?.stop();
}
