import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { heartbeatRuns, toolGatewaySessions } from "@/db/schema";

/**
 * The one SQL definition of a live gateway session, for every check made inside a statement:
 * the guarded ledger and audit inserts (hot-statements.ts) and the change stream's recheck
 * (server/gateway/list-changes.ts). The same rule, with a reason per failure, is applied in
 * code when a token is authenticated (server/gateway/sessions.ts); change the three together.
 * Expiry is compared with the database's clock, as the lease sweeper's checks are.
 */

/** The join from `tool_gateway_sessions` to its run (`.innerJoin(heartbeatRuns, sessionRun)`). */
export const sessionRun: SQL = and(
  eq(heartbeatRuns.companyId, toolGatewaySessions.companyId),
  eq(heartbeatRuns.id, toolGatewaySessions.runId),
)!;

/** Not revoked, not expired, and its run still running (over the `sessionRun` join). */
export const sessionIsLive: SQL = and(
  isNull(toolGatewaySessions.revokedAt),
  sql`${toolGatewaySessions.expiresAt} > now()`,
  eq(heartbeatRuns.status, "running"),
)!;
