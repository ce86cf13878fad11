/**
 * Which failures mean "the database cannot be reached" (or timed out), as opposed to a
 * statement that failed on a working database. In db/ so both the pool (db/client.ts: a
 * transaction whose connection broke) and the breaker (server/database/unavailable.ts) read
 * one list. Both postgres.js and drizzle wrap errors (`DrizzleQueryError.cause`), so the cause
 * chain is walked.
 */

/** postgres.js's own codes for a connection that failed, closed or timed out, and the socket's. */
const CLIENT_CODES = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that is going away or refuses connections: class 08 (connection
 * exception), 57P01–57P03 (admin/crash shutdown, cannot connect now), 53300 (too many
 * connections).
 */
function serverUnavailable(code: string): boolean {
  return (
    code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300"
  );
}

/** 57014 `query_canceled`: `statement_timeout` (or a cancel) ended the statement. */
const STATEMENT_TIMEOUT = "57014";

export type DatabaseFailure = "connection" | "timeout";

/** Whether `err` (or a cause of it) says the database is unreachable or the statement timed out. */
export function databaseFailureOf(err: unknown): DatabaseFailure | null {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; e && typeof e === "object" && i < 6; i++) {
    const code = typeof e.code === "string" ? e.code : undefined;
    if (code) {
      if (CLIENT_CODES.has(code) || serverUnavailable(code)) return "connection";
      if (code === STATEMENT_TIMEOUT) return "timeout";
    }
    e = e.cause as typeof e;
  }
  return null;
}
