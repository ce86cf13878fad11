/**
 * Process-level guards for a server process (scripts/server.ts and instrumentation.ts install
 * them; installing twice is a no-op).
 *
 * postgres.js 3.4.9 can throw from a `setImmediate` after a connection closed: a write smaller
 * than 1 KiB is buffered and flushed by `nextWrite` on the next turn, and when the socket
 * closed in between, `socket.write` runs on null — `TypeError: Cannot read properties of null
 * (reading 'write')` at `nextWrite (postgres/src/connection.js)`, an uncaught exception that
 * takes the process down (porsager/postgres#1066 and #1154; the guard of #1168 is unmerged).
 * By then `closed()` has already rejected the connection's queries with `CONNECTION_CLOSED`,
 * so this exact exception is logged and dropped — but it leaves that connection wedged: the
 * throw skips `nextWriteTimer = null`, so after the reconnect no small write is ever flushed
 * and every later query on it hangs (the "30 s hangs for minutes after recovery" of issue 16;
 * the fault suite caught one). So every pool is then replaced (`recycleAllPools`): the old
 * one's queries end within 5 s, new ones run on fresh connections. Anything else is logged
 * with its cause chain and the process exits, as Node would have.
 */
import { recycleAllPools } from "@/db/client";
import { processCell } from "../config/process-singleton";
import { logError, logWarn } from "../log";

/** The postgres.js null-socket write (and nothing else). */
export function isPostgresNullSocketWrite(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  if (!/Cannot read properties of null \(reading 'write'\)/.test(err.message)) return false;
  const frames = (err.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  return /nextWrite .*postgres[\\/]+(src|cjs[\\/]+src)[\\/]+connection\.js/.test(frames[0] ?? "");
}

const guard = processCell<{ dropped: number }>("processGuard");

/** How many postgres.js null-socket writes were dropped (the health body reports it). */
export const droppedSocketWrites = (): number => guard.current?.dropped ?? 0;

const ownHandler =
  processCell<(err: Error, origin: NodeJS.UncaughtExceptionOrigin) => void>("uncaughtHandler");

/**
 * Removes every other `uncaughtException` listener, so this process's guard alone decides.
 * Next.js installs one that only prints the error and keeps going
 * (next/dist/server/node-environment-extensions/process-error-handlers.js): it would print the
 * postgres.js write-after-close the guard drops, and keep a process alive after any other
 * uncaught exception. `scripts/server.ts` calls this after `app.prepare()`.
 */
export function keepOnlyProcessGuard(): void {
  const own = ownHandler.current;
  if (!own) return;
  for (const l of process.listeners("uncaughtException")) if (l !== own) process.off("uncaughtException", l);
}

export function installProcessGuards(): void {
  if (guard.current) return;
  const state = { dropped: 0 };
  let recycling = false;
  guard.current = state;
  process.on("uncaughtException", guardUncaught);
  function guardUncaught(err: Error, origin: NodeJS.UncaughtExceptionOrigin): void {
    if (isPostgresNullSocketWrite(err)) {
      state.dropped++;
      logWarn("database.socket_write_after_close", { dropped: state.dropped, action: "recycling pools" });
      // One recycle for a burst of them (an outage closes every connection at once).
      if (!recycling) {
        recycling = true;
        setTimeout(() => {
          recycling = false;
          void recycleAllPools().catch((e) => logError("database.recycle_failed", e));
        }, 100).unref();
      }
      return;
    }
    logError("process.uncaught_exception", err, { origin });
    process.exit(1);
  }
  ownHandler.current = guardUncaught;
  process.on("unhandledRejection", (reason) => {
    // Logged, not fatal: a rejected promise nobody awaited is a bug to fix, never a reason to
    // drop every other request this process is serving.
    logError("process.unhandled_rejection", reason);
  });
}
