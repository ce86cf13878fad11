import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { recordToolEvents, type ToolEventInput } from "../audit/record-event";
import { processCell } from "../config/process-singleton";
import { databaseBreaker } from "../database/breaker";
import { logError, logInfo } from "../log";
import { leaseMs } from "./lease";

/**
 * The lease sweeper (docs/gateway.md "Execution states"): every replica runs it. Each pass
 * takes a bounded batch of `running` rows whose lease has expired (or that have none: rows left
 * by a server from before leases) — `FOR UPDATE SKIP LOCKED`,
 * so replicas share the work and never wait on each other or on a row being claimed — marks
 * them `outcome_unknown` and writes one `outcome_unknown` audit event per row, in one
 * transaction.
 */

const BATCH = 100;

interface SweptRow {
  id: string;
  company_id: string;
  run_id: string | null;
  issue_id: string | null;
  agent_id: string | null;
  session_id: string | null;
  application_id: string | null;
  connection_id: string | null;
  catalog_entry_id: string | null;
  tool_name: string;
  args_hash: string;
  lease_host: string | null;
  lease_pid: number | null;
  lease_boot_id: string | null;
}

/** The audit event of one row whose lease expired (who held it is in the redactions-free reason). */
function sweptEvent(r: SweptRow): ToolEventInput {
  return {
    companyId: r.company_id,
    eventType: "outcome_unknown",
    actorType: "system",
    actorId: "lease_sweeper",
    invocationId: r.id,
    runId: r.run_id,
    issueId: r.issue_id,
    agentId: r.agent_id,
    sessionId: r.session_id,
    applicationId: r.application_id,
    connectionId: r.connection_id,
    catalogEntryId: r.catalog_entry_id,
    toolName: r.tool_name,
    argsHash: r.args_hash,
    reasonCode: "lease_expired",
    errorClass: "lease_expired",
    // Who held the lease: host, pid and boot id (not secrets; what an operator needs to see).
    resultSummary: { leaseHost: r.lease_host, leasePid: r.lease_pid, leaseBootId: r.lease_boot_id },
  };
}

const RETURNING = sql.raw(
  "t.id, t.company_id, t.run_id, t.issue_id, t.agent_id, t.session_id, t.application_id, " +
    "t.connection_id, t.catalog_entry_id, t.tool_name, t.args_hash, t.lease_host, t.lease_pid, t.lease_boot_id",
);

/** One sweep pass: returns how many rows it marked `outcome_unknown`. */
export async function sweepExpiredLeases(db: Db, limit = BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = (await tx.execute(sql`
      with expired as (
        select id from tool_invocations
        where execution_status = 'running'
          and (lease_expires_at < now() or lease_expires_at is null)
        order by lease_expires_at nulls first
        limit ${limit}
        for update skip locked
      )
      update tool_invocations t
      set execution_status = 'outcome_unknown', error_code = 'lease_expired',
          completed_at = now(), updated_at = now()
      from expired where t.id = expired.id
      returning ${RETURNING}`)) as unknown as SweptRow[];
    await recordToolEvents(tx, rows.map(sweptEvent));
    return rows.length;
  });
}

/**
 * The same check at claim time, for the one row a retry found `running` (the caller holds its
 * row lock): an expired lease makes it `outcome_unknown` now, audited, instead of waiting for
 * the sweeper. Returns whether it did.
 */
export async function expireLeaseIfPast(tx: Tx, companyId: string, invocationId: string): Promise<boolean> {
  const rows = (await tx.execute(sql`
    update tool_invocations t
    set execution_status = 'outcome_unknown', error_code = 'lease_expired',
        completed_at = now(), updated_at = now()
    where t.company_id = ${companyId} and t.id = ${invocationId}
      and t.execution_status = 'running'
      and (t.lease_expires_at < now() or t.lease_expires_at is null)
    returning ${RETURNING}`)) as unknown as SweptRow[];
  if (rows.length === 0) return false;
  await recordToolEvents(tx, rows.map(sweptEvent));
  return true;
}

const sweeper = processCell<NodeJS.Timeout>("leaseSweeper");

/**
 * Starts the sweeper loop of this process (once; instrumentation.ts calls it at start-up):
 * a pass every lease/2, batches repeated while full. Errors (a database outage) are logged and
 * the loop carries on.
 */
export function startLeaseSweeper(db: Db): void {
  if (sweeper.current) return;
  let running = false;
  const pass = async () => {
    // While the database is down (the breaker is open) a sweep cannot run: skip, not log.
    if (running || databaseBreaker().state !== "closed") return;
    running = true;
    try {
      let total = 0;
      for (let i = 0; i < 10; i++) {
        const n = await sweepExpiredLeases(db);
        total += n;
        if (n < BATCH) break;
      }
      if (total > 0) logInfo("gateway.leases_swept", { count: total });
    } catch (err) {
      logError("gateway.lease_sweep_failed", err);
    } finally {
      running = false;
    }
  };
  sweeper.current = setInterval(() => void pass(), Math.max(250, Math.floor(leaseMs() / 2)));
  sweeper.current.unref?.();
  void pass();
}

/** Stops this process's sweeper loop (tests; a server stops with its process). */
export function stopLeaseSweeper(): void {
  if (sweeper.current) clearInterval(sweeper.current);
  sweeper.current = undefined;
}
