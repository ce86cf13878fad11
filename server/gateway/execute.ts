import type { Db } from "@/db/client";
import { executionTargetOf, getAccessSnapshot } from "../access/snapshot";
import type { AccessSnapshot, Decision } from "../access/types";
import { recordToolEvents, type ToolEventInput } from "../audit/record-event";
import { watchToolListChanges } from "../catalog/watch";
import { callUpstreamTool, type UpstreamResult, type UpstreamTarget, upstreamTargetFor } from "../connectors";
import { loadConnection } from "../connectors/connection";
import { RecordingAbandoned, recordThroughOutage } from "../database/record-through";
import { databaseFailureOf } from "../database/unavailable";
import { isServiceError } from "../errors";
import { claimExecution, currentExecution } from "../ledger/invocations";
import { holdLease, recordingDeadlineMs } from "../ledger/lease";
import { companyRedaction } from "../ledger/record-attempt";
import { type ExecutionRecord, recordOutcome } from "../ledger/record-outcome";
import { markStage } from "../lifecycle/drain";
import { logError } from "../log";
import { encryptKeptResult } from "../secrets/replay-result";
import { guardResult } from "./guard-result";
import {
  type ExecOutcome,
  executionFailure,
  failureCode,
  ledgerAnswer,
  outcomeUnknownRefusal,
  refused,
  unclaimedRefusal,
} from "./outcome";
import { type LiveCall, upstreamHooks } from "./relay/live";
import type { GatewayContext, RunScope } from "./sessions";
import { outputSchemaProblem, upstreamResultMeta } from "./tool-output";

/** Who executes and in which run context (a gateway session, or a person running an approval). */
export interface ExecContext extends RunScope {
  sessionId: string | null;
  actorType: ToolEventInput["actorType"];
  actorId: string;
}

export function execContextOf(gw: GatewayContext): ExecContext {
  return { ...gw, actorType: "gateway_session", actorId: gw.sessionId };
}

/** `settle` (below) could not record the outcome before its deadline. */
const UNRECORDED = Symbol("unrecorded");

/**
 * Executes an allowed (or approved) invocation: claim it with a conditional update (so
 * concurrent retries cannot both run), audit `execution_started`, project secrets, call the
 * upstream with the explicit arguments only, guard and bound the result, and record the outcome
 * and its audit event. Ledger and audit are written before and after the upstream call.
 */
export async function executeInvocation(
  db: Db,
  ex: ExecContext,
  inv: { id: string; argsHash: string; executionStatus: string },
  d: Decision,
  canonicalArguments: string,
  opts: {
    approved?: boolean;
    actionRequestId?: string | null;
    /**
     * The ledger row is already `running` under this lease token with its `execution_started`
     * event (claimed by the attempt's own statement or transaction).
     */
    leaseToken?: string;
    /** The snapshot the decision was made on: its connection rows are used when present. */
    snapshot?: AccessSnapshot;
    /** The agent's SSE stream of this call: progress, logs, upstream requests, cancellation. */
    live?: LiveCall;
    /**
     * The upstream request when it is not `tools/call` (`resources/read`, `prompts/get`, …):
     * its answer in the shape of a tool result, so that it is guarded and bounded the same way.
     */
    operation?: (upstream: UpstreamTarget) => Promise<UpstreamResult>;
    /** The agent's request `_meta`, forwarded to the upstream (`forwardedMeta`). */
    requestMeta?: Record<string, unknown>;
  } = {},
): Promise<ExecOutcome> {
  const target = d.target!;
  const base: Omit<ToolEventInput, "eventType"> = {
    companyId: ex.companyId,
    actorType: ex.actorType,
    actorId: ex.actorId,
    invocationId: inv.id,
    runId: ex.runId,
    issueId: ex.issueId,
    agentId: ex.agentId,
    projectId: ex.projectId,
    routineId: ex.routineId,
    sessionId: ex.sessionId,
    applicationId: target.applicationId,
    connectionId: target.connectionId,
    catalogEntryId: target.catalogEntryId,
    toolName: target.toolName,
    risk: target.risk,
    argsHash: inv.argsHash,
    trustRuleId: d.trustRuleId,
    actionRequestId: opts.actionRequestId ?? null,
  };

  const leaseToken =
    opts.leaseToken ??
    (await db.transaction(async (tx) => {
      const token = await claimExecution(tx, ex.companyId, inv.id, target.risk, { approved: opts.approved });
      if (!token) return null;
      await recordToolEvents(tx, [
        {
          ...base,
          eventType: "execution_started",
          decision: "allow",
          reasonCode: opts.approved ? "approved" : "allowed",
        },
      ]);
      return token;
    }));
  // Decided from the row as it is now, never from the state read before the claim.
  if (!leaseToken)
    return unclaimedRefusal(
      await currentExecution(db, ex.companyId, inv.id),
      opts.approved ? "approved_call" : undefined,
    );

  const record: ExecutionRecord = {
    companyId: ex.companyId,
    invocationId: inv.id,
    connectionId: target.connectionId,
    event: base,
    resultRedactions: d.redactionPlan.result,
    startedAt: performance.now(),
    leaseToken,
    keepResult:
      opts.approved || target.risk === "write" || target.risk === "destructive"
        ? (kept) => encryptKeptResult(ex.companyId, inv.id, kept)
        : undefined,
  };
  /**
   * Records the outcome of a call that reached the upstream. Through a database outage the
   * outcome is kept here and the write retried until it lands, for at most a lease
   * (`database/record-through.ts`): a call that ran is never answered `503
   * database_unavailable`. `unrecorded` when the database stayed away: the agent is told the
   * outcome is unknown (the row's lease expires and a person resolves it).
   */
  const settle = async (...args: Parameters<typeof settleNow>) => {
    markStage("record");
    return settleNow(...args);
  };
  const settleNow = async (
    ...args: Parameters<typeof recordOutcome> extends [unknown, unknown, ...infer R] ? R : never
  ) => {
    try {
      return await recordThroughOutage(() => recordOutcome(db, record, ...args), recordingDeadlineMs(), db);
    } catch (err) {
      if (!(err instanceof RecordingAbandoned)) throw err;
      logError("gateway.outcome_write_failed", err, { invocationId: inv.id });
      return UNRECORDED;
    }
  };
  // Renewed every lease/3 while the upstream call runs; a crash lets it expire.
  const lease = holdLease(db, ex.companyId, inv.id, leaseToken);
  // Set once the request may have left for the upstream: before that, a failure is known
  // not to have run anything.
  let sent = false;
  try {
    const cached = opts.snapshot ? executionTargetOf(opts.snapshot, target.connectionId) : null;
    // A connection deleted between decision and execution fails the call (not_found).
    const row = cached ?? (await loadConnection(db, ex.companyId, target.connectionId));
    markStage("target");
    const upstream = await upstreamTargetFor(db, {
      companyId: ex.companyId,
      application: row.application,
      connection: row.connection,
      purpose: "tool_call",
      actor: { type: "system", reason: `${ex.actorType}:${ex.actorId}` },
      agentId: ex.agentId,
      runId: ex.runId,
      invocationId: inv.id,
      // From the snapshot: a connection without live secret bindings needs no secret lookup.
      secretsBound: cached ? cached.secretsBound : undefined,
      privateUpstreams: cached?.privateUpstreams,
    });
    if (row.application.type === "mcp_http") watchToolListChanges(db, ex.companyId, target.connectionId);
    // What the agent reads back is scrubbed of every company secret, not only the ones this
    // connection was given: an upstream may reflect any value it learnt (docs/security.md).
    const company = await companyRedaction(db, opts.snapshot ?? (await getAccessSnapshot(db, ex.companyId)));
    const secrets = [...new Set([...upstream.secretValues, ...company.values])];
    const toolName = target.toolName.slice(target.toolName.indexOf("__") + 2);
    const args = JSON.parse(canonicalArguments) as Record<string, unknown>;
    const live = opts.live;
    sent = true;
    markStage("upstream");
    const up = opts.operation
      ? await opts.operation(upstream)
      : await callUpstreamTool(
          upstream,
          toolName,
          args,
          { db, companyId: ex.companyId, agentId: ex.agentId, runId: ex.runId, issueId: ex.issueId },
          opts.requestMeta,
          live
            ? {
                signal: live.signal,
                hooks: upstreamHooks(db, live, {
                  connection: row.connection,
                  audit: base,
                  secrets,
                  timeoutMs: upstream.timeoutMs,
                }),
              }
            : {},
        );
    const outputProblem = opts.operation
      ? null
      : outputSchemaProblem(opts.snapshot, target.catalogEntryId, up);
    if (outputProblem) {
      // The call ran upstream; what it returned breaks the tool's declared contract.
      if ((await settle("failed", "execution_failed", { errorCode: "upstream_error" })) === UNRECORDED)
        return outcomeUnknownRefusal(inv.id);
      return refused("upstream_error", outputProblem, { invocationId: inv.id });
    }
    const guarded = guardResult(up, d, secrets, upstream.maxResultBytes);
    const meta = upstreamResultMeta(up, secrets);
    if (guarded.blocked) {
      // The call ran upstream (its effects happened); only the result is withheld.
      const recorded = await settle("succeeded", "result_returned", { guarded, errorCode: "result_blocked" });
      if (recorded === UNRECORDED) return outcomeUnknownRefusal(inv.id);
      return ledgerAnswer("result_blocked", inv.id);
    }
    // The answer as the agent gets it (with the upstream's own `_meta`) is what a replay returns.
    const result = meta ? { ...guarded.result, _meta: meta } : guarded.result;
    const artifactId = await settle("succeeded", "result_returned", { guarded: { ...guarded, result } });
    if (artifactId === UNRECORDED) return outcomeUnknownRefusal(inv.id);
    return {
      ok: true,
      invocationId: inv.id,
      replayed: false,
      result,
      truncated: guarded.truncated,
      artifactId,
      resultJson: guarded.json,
    };
  } catch (err) {
    if (opts.live?.signal.aborted) {
      // The agent cancelled (or dropped its stream): the upstream was told, the ledger says so.
      if ((await settle("cancelled", "cancelled", { errorCode: "upstream_cancelled" })) === UNRECORDED)
        return outcomeUnknownRefusal(inv.id);
      return refused("upstream_cancelled", "the call was cancelled before the upstream answered", {
        invocationId: inv.id,
      });
    }
    const code = failureCode(err);
    if (!isServiceError(err)) logError("gateway.call_failed", err, { invocationId: inv.id });
    // The database went away in one of the gateway's own steps (the connection's target, its
    // secrets, the runtime slot's record): the caller answers 503 database_unavailable at once
    // (fail fast, docs/operations.md); the row keeps its lease, which expires. The upstream's
    // own failures are recorded below, through an outage (`settle`).
    if (databaseFailureOf(err)) {
      // Nothing was sent: the row is recorded as never run once the database is back (in the
      // background, bounded by a lease), so the agent's retry runs it afresh instead of a
      // person being asked about a call that cannot have happened (issue 35 item 3).
      if (!sent)
        void recordThroughOutage(
          () =>
            recordOutcome(db, record, "failed", "execution_failed", { errorCode: "database_unavailable" }),
          recordingDeadlineMs(),
          db,
        ).catch((writeErr: unknown) =>
          logError("gateway.outcome_write_failed", writeErr, { invocationId: inv.id }),
        );
      throw err;
    }
    const timeout = code === "upstream_timeout";
    const recorded = await settle(timeout ? "timeout" : "failed", timeout ? "timeout" : "execution_failed", {
      errorCode: code,
    }).catch((writeErr: unknown) => {
      // Not the database's absence (e.g. a statement refused): the failure is still answered.
      logError("gateway.outcome_write_failed", writeErr, { invocationId: inv.id });
      return null;
    });
    if (recorded === UNRECORDED) return outcomeUnknownRefusal(inv.id);
    return executionFailure(err, inv.id);
  } finally {
    lease.stop();
  }
}
