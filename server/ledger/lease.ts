import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolInvocations } from "@/db/schema";
import { processSingleton } from "../config/process-singleton";
import { logError, logWarn } from "../log";

/**
 * Execution leases (docs/gateway.md "Execution states"). A claimed execution records who runs
 * it — host, pid and this process's boot id (a random id made once per process, so a pid
 * reused after a crash is not mistaken for the dead process) — and until when. The executing
 * process renews the lease while the upstream call runs; a lease nobody renewed is expired,
 * and the sweeper (`sweep.ts`) or the next claim makes the row `outcome_unknown`.
 */

export const LEASE_ENV = "PAPERCLIP_EXECUTION_LEASE_MS";
const DEFAULT_LEASE_MS = 30_000;
const MIN_LEASE_MS = 500;
const MAX_LEASE_MS = 600_000;

/** The lease length: `PAPERCLIP_EXECUTION_LEASE_MS` (500 ms – 10 min) or 30 s. */
export function leaseMs(): number {
  const raw = process.env[LEASE_ENV]?.trim();
  if (!raw) return DEFAULT_LEASE_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < MIN_LEASE_MS || n > MAX_LEASE_MS) {
    throw new Error(`${LEASE_ENV} must be an integer number of milliseconds between 500 and 600000`);
  }
  return n;
}

/**
 * How long a call that ran keeps trying to record its outcome through a database outage
 * (`database/record-through.ts`): the lease length — past it the row's lease has expired and
 * the sweeper may turn it `outcome_unknown` (the real outcome, recorded later, still wins).
 */
export const recordingDeadlineMs = (): number => leaseMs();

/** This process's boot id (shared by the module copies of one process, see scripts/server.ts). */
export function bootId(): string {
  return processSingleton("bootId", () => randomUUID());
}

export interface LeaseOwner {
  leaseHost: string;
  leasePid: number;
  leaseBootId: string;
  leaseToken: string;
}

/** A new claim's owner columns (its own token: only this claim renews and completes it). */
export function newLease(): LeaseOwner {
  return {
    leaseHost: hostname().slice(0, 200),
    leasePid: process.pid,
    leaseBootId: bootId(),
    leaseToken: randomUUID(),
  };
}

/** `now() + lease`, in the database's clock (the sweeper compares with the same clock). */
export const leaseExpirySql = () => sql`now() + make_interval(secs => ${leaseMs() / 1000})`;

/**
 * Renews the lease every lease/3 while the upstream call runs; `stop()` ends it. A renewal
 * that finds the row no longer `running` under this token (swept or resolved) stops renewing.
 * Renewal errors (a database outage) are logged and retried at the next tick: a lease that
 * cannot be renewed expires, which is the point.
 */
export function holdLease(db: Db, companyId: string, invocationId: string, token: string): { stop(): void } {
  const every = Math.max(100, Math.floor(leaseMs() / 3));
  let stopped = false;
  let inFlight = false;
  const timer = setInterval(() => {
    if (stopped || inFlight) return;
    inFlight = true;
    db.update(toolInvocations)
      .set({ leaseExpiresAt: leaseExpirySql() })
      .where(
        and(
          eq(toolInvocations.companyId, companyId),
          eq(toolInvocations.id, invocationId),
          eq(toolInvocations.executionStatus, "running"),
          eq(toolInvocations.leaseToken, token),
        ),
      )
      .returning({ id: toolInvocations.id })
      .then((rows) => {
        if (rows.length === 0 && !stopped) {
          logWarn("gateway.lease_lost", { invocationId });
          stop();
        }
      })
      .catch((err: unknown) => logError("gateway.lease_renew_failed", err, { invocationId }))
      .finally(() => {
        inFlight = false;
      });
  }, every);
  timer.unref?.();
  function stop() {
    stopped = true;
    clearInterval(timer);
  }
  return { stop };
}
