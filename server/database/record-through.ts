/**
 * Writing what already happened through a database outage (issue 35 item 3). A call that ran
 * upstream has an outcome the ledger must get: answering `503 database_unavailable` instead
 * would invite a blind retry of a write that happened. The outcome is kept in memory and the
 * write is retried — under the breaker, with a short backoff — until it lands or the deadline
 * passes (the caller picks it: the execution lease, after which the sweeper may already have
 * told a person the outcome is unknown; the real outcome still wins, see ledger/invocations.ts).
 */
import type { Db } from "@/db/client";
import { databaseBreaker, probeOf, withDeadline } from "./breaker";
import { databaseFailureOf } from "./unavailable";

/** The longest one attempt may take (a connect that hangs must not use up the deadline). */
const ATTEMPT_MS = 2000;
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 1000;

/** The write did not land before the deadline: the database stayed away. */
export class RecordingAbandoned extends Error {
  constructor(readonly last: unknown) {
    super("the database stayed unavailable; the outcome could not be recorded");
    this.name = "RecordingAbandoned";
    this.cause = last;
  }
}

/**
 * Runs `write` until it succeeds. A database failure (connection or statement timeout) is told
 * to the breaker and retried after a pause (100 ms doubling to 1 s, or as soon as the breaker
 * closes); any other error is thrown at once. Past `deadlineMs` it throws `RecordingAbandoned`.
 * `write` must be idempotent (a conditional update on the row's lease token is).
 */
export async function recordThroughOutage<T>(
  write: () => Promise<T>,
  deadlineMs: number,
  db?: Db,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new RecordingAbandoned(null);
    try {
      return await withDeadline(write(), Math.min(ATTEMPT_MS, left), "recording the outcome");
    } catch (err) {
      if (!databaseFailureOf(err)) throw err;
      if (db) databaseBreaker().observe(err, probeOf(db));
      if (Date.now() + pause >= deadline) throw new RecordingAbandoned(err);
      await untilRecoveredOr(pause);
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}

/** Waits `ms`, or less when the breaker closes again meanwhile. */
function untilRecoveredOr(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    const off = databaseBreaker().onRecovered(done);
    function done() {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}
