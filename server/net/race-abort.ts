/**
 * `promise`, or a rejection with `reason()` (by default the signal's own reason) as soon as
 * `signal` aborts — for work that takes no signal of its own (a DNS lookup, the MCP SDK's SSE
 * `start()`). The listener is removed when `promise` settles, so a long-lived signal does not
 * collect one per call. The work itself is not cancelled: the caller stops waiting for it.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  reason: () => unknown = () => signal.reason,
): Promise<T> {
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Bounds `promise` by `ms` (`AbortSignal.timeout`: its timer does not hold the process open
 * and needs no clearing), rejecting with `onTimeout()` when the time runs out first.
 */
export function timeoutAfter<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return raceAbort(promise, AbortSignal.timeout(ms), onTimeout);
}
