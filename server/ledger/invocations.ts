import { and, eq, getTableColumns, or, type SQL, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { companyRow } from "@/db/join";
import { toolInvocations } from "@/db/schema";
import type { Risk } from "../access/types";
import type { DecisionValue } from "../audit/record-event";
import { canonicalJson, sha256Hex } from "./canonical";
import { leaseExpirySql, newLease } from "./lease";

export type Invocation = typeof toolInvocations.$inferSelect;

export interface InvocationStart {
  companyId: string;
  actorType: Invocation["actorType"];
  actorId: string;
  runId?: string | null;
  issueId?: string | null;
  agentId?: string | null;
  sessionId?: string | null;
  applicationId?: string | null;
  connectionId?: string | null;
  catalogEntryId?: string | null;
  /** The name the caller asked for (bounded before storage). */
  toolName: string;
  argsHash: string;
  argsSummary?: Record<string, unknown> | null;
  risk?: Risk | null;
  /** The caller's own idempotency key, if it sent one. */
  idempotencyKey?: string | null;
  /** An admin marked the tool repeatable (`tool_catalog_entries.repeatable`). */
  repeatable?: boolean;
}

/**
 * The idempotency identity of a call: for write and destructive tools, a hash of company +
 * connection + tool + arguments hash + issue/run context (+ the caller's key when given).
 * Reads have none — repeating a read has no side effect, and every attempt gets its own row.
 * A write an admin marked repeatable has an implicit identity of its own call only: without an
 * explicit key it has none (each call is a new row, never replayed); with one it replays as
 * any write does (docs/access.md, "When a call is replayed").
 */
export function idempotencyIdentity(s: InvocationStart): string | null {
  if (s.risk !== "write" && s.risk !== "destructive") return null;
  if (!s.connectionId || !s.catalogEntryId) return null;
  if (s.repeatable && s.idempotencyKey == null) return null;
  return sha256Hex(
    canonicalJson({
      company: s.companyId,
      connection: s.connectionId,
      tool: s.catalogEntryId,
      args: s.argsHash,
      issue: s.issueId ?? null,
      run: s.runId ?? null,
      key: s.idempotencyKey ?? null,
    }),
  );
}

/**
 * Creates the ledger row for an attempt, or finds the existing one with the same idempotency
 * identity — in one atomic `INSERT … ON CONFLICT DO UPDATE … RETURNING`, never
 * select-then-insert, so concurrent retries on any number of replicas converge on one row.
 * `created` is false for a retry (its `attempts` counter is incremented).
 */
export async function openInvocation(
  tx: Tx,
  s: InvocationStart,
): Promise<{ invocation: Invocation; created: boolean }> {
  const identity = idempotencyIdentity(s);
  const values = invocationValues(s, identity);
  const insert = tx.insert(toolInvocations).values(values);
  const rows = identity
    ? await insert
        .onConflictDoUpdate({
          target: [toolInvocations.companyId, toolInvocations.idempotencyIdentity],
          targetWhere: sql`${toolInvocations.idempotencyIdentity} is not null`,
          set: { attempts: sql`${toolInvocations.attempts} + 1`, updatedAt: sql`now()` },
        })
        // xmax = 0 only on a freshly inserted row version
        .returning({ ...getTableColumns(toolInvocations), created: sql<boolean>`(xmax = 0)` })
    : await insert.returning({ ...getTableColumns(toolInvocations), created: sql<boolean>`true` });
  const { created, ...invocation } = rows[0]!;
  return { invocation, created };
}

/** The columns of a new ledger row for `s` (bounded). */
export function invocationValues(s: InvocationStart, identity: string | null) {
  return {
    companyId: s.companyId,
    actorType: s.actorType,
    actorId: s.actorId,
    runId: s.runId ?? null,
    issueId: s.issueId ?? null,
    agentId: s.agentId ?? null,
    sessionId: s.sessionId ?? null,
    applicationId: s.applicationId ?? null,
    connectionId: s.connectionId ?? null,
    catalogEntryId: s.catalogEntryId ?? null,
    toolName: s.toolName.slice(0, 200),
    argsHash: s.argsHash,
    argsSummary: s.argsSummary ?? null,
    idempotencyKey: s.idempotencyKey?.slice(0, 200) ?? null,
    idempotencyIdentity: identity,
  };
}

export const STATUS_FOR: Record<DecisionValue, Invocation["executionStatus"]> = {
  allow: "pending",
  deny: "denied",
  approval_required: "awaiting_approval",
  rate_limited: "denied",
  deferred: "deferred",
};

/** Records the decision on the ledger row (same transaction as its audit event). */
export async function recordInvocationDecision(
  tx: Tx,
  companyId: string,
  invocationId: string,
  d: { decision: DecisionValue; reasonCode: string; matchedPolicyIds: string[] },
): Promise<void> {
  await tx
    .update(toolInvocations)
    .set({
      decision: d.decision,
      reasonCode: d.reasonCode,
      matchedPolicyIds: d.matchedPolicyIds.slice(0, 50),
      executionStatus: STATUS_FOR[d.decision],
      approvalState: d.decision === "approval_required" ? "pending" : undefined,
      updatedAt: sql`now()`,
    })
    .where(companyRow(toolInvocations, companyId, invocationId));
}

/**
 * Failure codes after which the upstream certainly did not run the call: each is raised before
 * the request is sent (checked code by code, issue 35 item 3). A retry of such a row is decided
 * and run afresh, and it is never listed for a person. Codes that can also be raised after the
 * request went out stay off this list (`upstream_too_large` is the response's size,
 * `runtime_stopped`/`runtime_crashed` may come mid-call, `upstream_protocol_error` is a reply the
 * gateway could not read, `upstream_cancelled` was told to an upstream already running it).
 */
export const NOT_EXECUTED_ERRORS = [
  "missing_secret",
  // Upstream OAuth: the bearer could not be had, so no request was sent.
  "upstream_authorization_required",
  "user_grant_required",
  "upstream_oauth_refused",
  "upstream_oauth_discovery_failed",
  "upstream_oauth_issuer_mismatch",
  "upstream_oauth_unsupported",
  "tool_input_invalid",
  // The network guard refused the address, or a redirect hop to one: nothing was processed.
  "upstream_blocked",
  "upstream_requires_operator",
  "upstream_redirect_refused",
  "upstream_unreachable",
  // The TLS handshake failed, or the upstream refused the credentials (HTTP 401/403).
  "upstream_tls_error",
  "upstream_auth_failed",
  "plugin_not_found",
  "runtime_unavailable",
  // The local runtime refused before the call reached the tool's process.
  "runtime_deferred",
  "runtime_suppressed",
  "runtime_start_failed",
  "command_not_approved",
  "runtime_host_untrusted",
  "runtime_isolation_unavailable",
  "slot_isolation_unavailable",
  // The database went away in the gateway's own steps, before the request was sent.
  "database_unavailable",
  // A person checked the upstream and resolved an unknown outcome as "not done".
  "resolved_not_done",
];

/**
 * Marks the row as executing under a new lease (`lease.ts`), only from a state where running
 * it cannot duplicate a side effect: never executed (pending, denied, deferred), or failed
 * before reaching the upstream. A write whose earlier attempt timed out, failed mid-call or
 * lost its lease has an unknown outcome and is not run again (reads may be). The conditional
 * update is what lets exactly one of several concurrent retries run. Returns the claim's lease
 * token, or null when another attempt holds or held the row.
 */
export async function claimExecution(
  tx: Tx,
  companyId: string,
  invocationId: string,
  risk: Risk,
  opts: { approved?: boolean } = {},
): Promise<string | null> {
  const lease = newLease();
  const leaseCols = { ...lease, leaseExpiresAt: leaseExpirySql() };
  const notExecuted = sql`(${toolInvocations.executionStatus} = 'failed' and ${toolInvocations.errorCode} in (${sql.join(
    NOT_EXECUTED_ERRORS.map((c) => sql`${c}`),
    sql`, `,
  )}))`;
  if (opts.approved) {
    // An approved action request runs its invocation once: from the waiting state, or — after
    // a failure that never reached the upstream, or a person's "not done" / "retry once" of an
    // unknown outcome — from a state where running it cannot duplicate a side effect. The
    // request's own `approved → executing` update already let only one executor here. The row
    // then records both the approval (`approval_state`) and that it was allowed to run.
    const rows = await tx
      .update(toolInvocations)
      .set({
        executionStatus: "running",
        approvalState: "consumed",
        decision: "allow",
        reasonCode: "approved",
        startedAt: sql`now()`,
        updatedAt: sql`now()`,
        ...leaseCols,
      })
      .where(
        and(
          eq(toolInvocations.companyId, companyId),
          eq(toolInvocations.id, invocationId),
          or(sql`${toolInvocations.executionStatus} in ('awaiting_approval', 'pending')`, notExecuted),
        ),
      )
      .returning({ id: toolInvocations.id });
    return rows.length === 1 ? lease.leaseToken : null;
  }
  const retryable =
    risk === "read"
      ? sql`${toolInvocations.executionStatus} in ('failed', 'timeout', 'outcome_unknown')`
      : notExecuted;
  const rows = await tx
    .update(toolInvocations)
    .set({
      executionStatus: "running",
      startedAt: sql`now()`,
      errorCode: null,
      updatedAt: sql`now()`,
      ...leaseCols,
    })
    .where(
      and(
        eq(toolInvocations.companyId, companyId),
        eq(toolInvocations.id, invocationId),
        or(sql`${toolInvocations.executionStatus} in ('pending', 'denied', 'deferred')`, retryable),
      ),
    )
    .returning({ id: toolInvocations.id });
  return rows.length === 1 ? lease.leaseToken : null;
}

/**
 * Whether an earlier attempt of a write may have run upstream (timed out, failed mid-call,
 * lost its lease): such a row is never run again by a retry; a person resolves it.
 */
export function outcomeUnknown(row: Pick<Invocation, "executionStatus" | "errorCode">): boolean {
  // A cancelled call was cancelled at an upstream that may have started it.
  if (["outcome_unknown", "timeout", "cancelled"].includes(row.executionStatus)) return true;
  return row.executionStatus === "failed" && !NOT_EXECUTED_ERRORS.includes(row.errorCode ?? "");
}

/** The row never reached the upstream: not claimed yet, or refused before the call was sent. */
export function notYetRun(row: Pick<Invocation, "executionStatus" | "errorCode">): boolean {
  return (
    row.executionStatus === "awaiting_approval" ||
    row.executionStatus === "pending" ||
    (row.executionStatus === "failed" && NOT_EXECUTED_ERRORS.includes(row.errorCode ?? ""))
  );
}

/**
 * `outcomeUnknown` as SQL, for the rows a person may resolve and the console lists: a lost
 * lease, a timeout, or a failure after the request may have reached the upstream — of a call
 * that may have had a side effect. A write or destructive call has an idempotency identity; an
 * approved call (`approval_state` consumed) has an action request waiting on the answer. A
 * read has neither: its retry simply runs it again, so nobody needs to resolve it.
 */
export function outcomeUnknownSql(): SQL {
  return sql`((${toolInvocations.idempotencyIdentity} is not null or ${toolInvocations.approvalState} = 'consumed') and (${toolInvocations.executionStatus} in ('outcome_unknown', 'timeout', 'cancelled') or (${toolInvocations.executionStatus} = 'failed' and coalesce(${toolInvocations.errorCode}, '') not in (${sql.join(
    NOT_EXECUTED_ERRORS.map((c) => sql`${c}`),
    sql`, `,
  )}))))`;
}

interface InvocationOutcome {
  status: "succeeded" | "failed" | "timeout" | "cancelled";
  resultHash?: string | null;
  resultSize?: number | null;
  resultSummary?: Record<string, unknown> | null;
  errorCode?: string | null;
  latencyMs: number;
  resultEncrypted?: Record<string, string> | null;
}

/** The update recording an executed call's outcome (for callers that embed it in a statement). */
export function completeInvocationQuery(
  tx: Tx,
  companyId: string,
  invocationId: string,
  leaseToken: string,
  r: InvocationOutcome,
) {
  return tx
    .update(toolInvocations)
    .set({
      executionStatus: r.status,
      resultHash: r.resultHash ?? null,
      resultSize: r.resultSize ?? null,
      resultSummary: r.resultSummary ?? null,
      errorCode: r.errorCode ?? null,
      latencyMs: r.latencyMs,
      resultEncrypted: (r.resultEncrypted as Invocation["resultEncrypted"]) ?? null,
      completedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(toolInvocations.companyId, companyId),
        eq(toolInvocations.id, invocationId),
        // Only while this execution's lease holds the row (see completeInvocationWithEvent).
        eq(toolInvocations.leaseToken, leaseToken),
        sql`${toolInvocations.executionStatus} in ('running', 'outcome_unknown')`,
      ),
    );
}

/** Records the outcome of an executed call (while its lease holds the row). */
export async function completeInvocation(
  tx: Tx,
  companyId: string,
  invocationId: string,
  leaseToken: string,
  r: InvocationOutcome,
): Promise<void> {
  await completeInvocationQuery(tx, companyId, invocationId, leaseToken, r);
}

/** A row's execution state as it is now, for deciding what a retry is told. */
export interface CurrentExecution {
  id: string;
  companyId: string;
  executionStatus: Invocation["executionStatus"];
  errorCode: string | null;
  resultSummary: Invocation["resultSummary"];
  resultEncrypted: Invocation["resultEncrypted"];
  /** The digest of the caller's explicit idempotency key, if it sent one (what a replay says). */
  idempotencyKey: string | null;
  /** A live lease holds it (running and not expired, by the database's clock). */
  leaseLive: boolean;
}

/** The columns of `CurrentExecution`, for a select or a `RETURNING`. */
export const currentExecutionColumns = {
  id: toolInvocations.id,
  companyId: toolInvocations.companyId,
  executionStatus: toolInvocations.executionStatus,
  errorCode: toolInvocations.errorCode,
  resultSummary: toolInvocations.resultSummary,
  resultEncrypted: toolInvocations.resultEncrypted,
  idempotencyKey: toolInvocations.idempotencyKey,
  leaseLive: sql<boolean>`(${toolInvocations.executionStatus} = 'running' and coalesce(${toolInvocations.leaseExpiresAt} > now(), false))`,
};

/** A fresh read of the row's execution state (after a claim that did not succeed). */
export async function currentExecution(
  db: Tx,
  companyId: string,
  invocationId: string,
): Promise<CurrentExecution> {
  const [row] = await db
    .select(currentExecutionColumns)
    .from(toolInvocations)
    .where(companyRow(toolInvocations, companyId, invocationId));
  if (!row) throw new Error(`invocation ${invocationId} vanished`);
  return row;
}
