import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { toolConnections, toolResultArtifacts } from "@/db/schema";
import { recordToolEvents, type ToolEventInput, toolEventRows } from "../audit/record-event";
import { summarize } from "../audit/summarize";
import { processSingleton } from "../config/process-singleton";
import { artifactExpiry } from "./artifact-retention";
import { sha256Hex } from "./canonical";
import { completeInvocationWithEvent } from "./hot-statements";
import { completeInvocation } from "./invocations";

/** A guarded, bounded result as the ledger records it (`server/gateway/guard-result.ts`). */
export interface RecordedResult {
  result: { content: unknown[]; structuredContent?: Record<string, unknown>; isError?: boolean };
  json: string;
  bytes: number;
  truncated: boolean;
  /** The complete (guarded) result when it was truncated: stored as an artifact. */
  fullJson: string | null;
  /** What the content guard found. */
  findings: readonly { kind: string; path: string }[];
}

/** One execution whose outcome is to be recorded: its audit identity and when it started. */
export interface ExecutionRecord {
  companyId: string;
  invocationId: string;
  connectionId: string;
  /** The audit fields every event of this execution carries. */
  event: Omit<ToolEventInput, "eventType">;
  /** The decision's result redaction pointers (the summary never holds what they name). */
  resultRedactions: readonly string[];
  /** `performance.now()` when execution started. */
  startedAt: number;
  /** The claim's lease token: the outcome is recorded only while it holds the row. */
  leaseToken: string;
  /**
   * Seals the first answer for replays (writes, destructive calls, approvals: encrypted by
   * `server/secrets/replay-result.ts`); absent for reads, whose replays simply re-run.
   */
  keepResult?: (kept: KeptResult) => Record<string, string>;
}

/** What a replay answers: the first answer's result, whether it was truncated, its artifact. */
export interface KeptResult {
  result: RecordedResult["result"];
  truncated: boolean;
  artifactId: string | null;
}

const CONNECTION_USE_INTERVAL_MS = 60_000;
/**
 * Whether this process should record a use of the connection now: `last_used_at` is an
 * operator hint, written at most once a minute per connection and process, so that calls do
 * not queue on the connection row's lock.
 */
function connectionUseDue(connectionId: string, now = Date.now()): boolean {
  const uses = processSingleton("connectionUse", () => new Map<string, number>());
  const last = uses.get(connectionId);
  if (last !== undefined && now - last < CONNECTION_USE_INTERVAL_MS) return false;
  if (uses.size > 10_000) uses.clear();
  uses.set(connectionId, now);
  return true;
}

/**
 * Records an execution's outcome on the ledger with its audit event (`result_returned`,
 * `execution_failed` or `timeout`): in one statement, or — for a truncated result — in one
 * transaction with the stored artifact. Returns the artifact's id (null without one).
 */
export async function recordOutcome(
  db: Db,
  ex: ExecutionRecord,
  status: "succeeded" | "failed" | "timeout" | "cancelled",
  eventType: ToolEventInput["eventType"],
  extra: { errorCode?: string; guarded?: RecordedResult } = {},
): Promise<string | null> {
  const latencyMs = Math.round(performance.now() - ex.startedAt);
  const g = extra.guarded;
  const resultSummary = g
    ? summarize(g.result.structuredContent ?? { content: g.result.content }, ex.resultRedactions)
    : null;
  const resultHash = g ? sha256Hex(g.fullJson ?? g.json) : null;
  const outcome = {
    status,
    resultHash,
    resultSize: g?.bytes ?? null,
    resultSummary: resultSummary
      ? { ...resultSummary.summary, ...(g?.result.isError ? { isError: true } : {}) }
      : null,
    errorCode: extra.errorCode ?? null,
    latencyMs,
  };
  // The first answer, for replays (a blocked result is not an answer: the call was refused).
  const keep = (artifactId: string | null) =>
    ex.keepResult && g && status === "succeeded" && !extra.errorCode
      ? ex.keepResult({ result: g.result, truncated: g.truncated, artifactId })
      : null;
  const resultEvent: ToolEventInput = {
    ...ex.event,
    eventType,
    decision: "allow",
    reasonCode: extra.errorCode ?? (g?.truncated ? "result_truncated" : "ok"),
    resultHash,
    resultSize: g?.bytes ?? null,
    resultSummary: resultSummary?.summary ?? null,
    latencyMs,
    errorClass: extra.errorCode ?? null,
    // What the content guard found (kind:pointer), next to what the summary redacted.
    redactions: [
      ...(resultSummary?.redactions ?? []),
      ...(g?.findings ?? []).map((f) => `${f.kind}:${f.path}`),
    ],
  };
  if (connectionUseDue(ex.connectionId)) {
    // At most once a minute per connection and process: a hot connection row must not
    // serialise calls (the condition also skips the write when another replica just did it).
    await db
      .update(toolConnections)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(toolConnections.companyId, ex.companyId),
          eq(toolConnections.id, ex.connectionId),
          sql`(${toolConnections.lastUsedAt} is null or ${toolConnections.lastUsedAt} < now() - interval '60 seconds')`,
        ),
      );
  }
  if (!(g?.truncated && g.fullJson)) {
    // The outcome and its audit event in one statement (atomic, one round trip).
    const [eventRow] = toolEventRows([resultEvent]);
    const { status: executionStatus, ...recorded } = outcome;
    await completeInvocationWithEvent(
      db,
      ex.companyId,
      ex.invocationId,
      ex.leaseToken,
      { ...recorded, executionStatus, resultEncrypted: keep(null) },
      eventRow!,
    );
    return null;
  }
  const full = g.fullJson;
  return db.transaction(async (tx) => {
    const [a] = await tx
      .insert(toolResultArtifacts)
      .values({
        companyId: ex.companyId,
        invocationId: ex.invocationId,
        content: full,
        bytes: g.bytes,
        sha256: resultHash!,
        expiresAt: await artifactExpiry(tx),
      })
      .returning({ id: toolResultArtifacts.id });
    const artifactId = a!.id;
    await completeInvocation(tx, ex.companyId, ex.invocationId, ex.leaseToken, {
      ...outcome,
      resultSummary: outcome.resultSummary ? { ...outcome.resultSummary, artifactId } : null,
      resultEncrypted: keep(artifactId),
    });
    await recordToolEvents(tx, [resultEvent]);
    return artifactId;
  });
}
