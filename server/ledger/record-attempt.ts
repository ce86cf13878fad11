import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { toolTrustRules } from "@/db/schema";
import { decide } from "../access/decide";
import { takeTokens } from "../access/rate-limit";
import { getAccessSnapshot } from "../access/snapshot";
import type { AccessContext, AccessRequest, Decision } from "../access/types";
import { type DecisionValue, recordToolEvents } from "../audit/record-event";
import { summarize } from "../audit/summarize";
import { canonicalJson, sha256Hex } from "./canonical";
import { type Invocation, openInvocation, recordInvocationDecision } from "./invocations";

export interface AttemptInput {
  actorType: Invocation["actorType"];
  actorId: string;
  context: AccessContext;
  sessionId?: string | null;
  /** The tool name as the caller sent it (`<slug>__<tool>`); untrusted. */
  toolName: string;
  arguments: unknown;
  idempotencyKey?: string | null;
  approvalVerified?: boolean;
  runtime?: AccessRequest["runtime"];
  now: Date;
  /**
   * Runs inside the attempt's transaction when the decision is `approval_required`, so the
   * ledger row, the action request and its issue-thread card are created together or not at all.
   */
  onApprovalRequired?: (
    tx: Tx,
    a: { invocation: Invocation; decision: Decision; canonicalArguments: string },
  ) => Promise<Record<string, unknown>>;
}

export type AttemptOutcome = DecisionValue | "replayed" | "in_progress";

export interface AttemptResult {
  invocation: Invocation;
  decision: Decision;
  outcome: AttemptOutcome;
  /** Canonical RFC 8785 JSON of the arguments, exactly what an execution would send. */
  canonicalArguments: string | null;
  /** What `onApprovalRequired` returned. */
  approval?: Record<string, unknown>;
}

export function decisionValue(d: Decision): DecisionValue {
  if (d.allowed) return "allow";
  switch (d.reasonCode) {
    case "approval_required":
      return "approval_required";
    case "rate_limited":
      return "rate_limited";
    case "runtime_deferred":
      return "deferred";
    default:
      return "deny";
  }
}

function canonicalOrNull(args: unknown): string | null {
  try {
    return canonicalJson(args ?? {});
  } catch {
    return null;
  }
}

/**
 * Steps 3–7 of the governed call (docs/architecture: "The governed call"): canonicalise the
 * arguments, create or find the ledger row, decide, take rate-limit tokens and consume a trust
 * rule use, and write the decision to the ledger and the audit trail — all in one
 * transaction, before any upstream call. If the audit insert fails, nothing is recorded and
 * the caller must refuse the call (fail closed).
 *
 * A retry with the same idempotency identity finds the first row: a recorded success comes
 * back as `replayed` (never executed twice); a call still executing is `in_progress`; any
 * other earlier outcome (denied, limited, deferred) is decided afresh.
 */
export async function recordAttempt(db: Db, input: AttemptInput): Promise<AttemptResult> {
  const { context } = input;
  const snapshot = await getAccessSnapshot(db, context.companyId);
  const canonical = canonicalOrNull(input.arguments);
  const parsedArgs: unknown = canonical === null ? null : JSON.parse(canonical);
  const argsHash = sha256Hex(canonical ?? "\u0000unrepresentable");
  const request: AccessRequest = {
    purpose: "call",
    context,
    target: { toolName: input.toolName },
    // Arguments JSON cannot represent are refused by the engine's content validation.
    arguments: canonical === null ? "\u0000unrepresentable" : parsedArgs,
    approvalVerified: input.approvalVerified,
    runtime: input.runtime,
    now: input.now.toISOString(),
  };
  let decision = decide(snapshot, request);
  const argsSummary = summarize(parsedArgs ?? {}, decision.redactionPlan.arguments);

  return db.transaction(async (tx) => {
    const { invocation, created } = await openInvocation(tx, {
      companyId: context.companyId,
      actorType: input.actorType,
      actorId: input.actorId,
      runId: context.runId ?? null,
      issueId: context.issueId ?? null,
      agentId: context.agentId,
      sessionId: input.sessionId ?? null,
      applicationId: decision.target?.applicationId ?? null,
      connectionId: decision.target?.connectionId ?? null,
      catalogEntryId: decision.target?.catalogEntryId ?? null,
      toolName: input.toolName,
      argsHash,
      argsSummary: argsSummary.summary,
      risk: decision.target?.risk ?? null,
      idempotencyKey: input.idempotencyKey ?? null,
    });
    const base = {
      companyId: context.companyId,
      actorType: input.actorType,
      actorId: input.actorId,
      invocationId: invocation.id,
      runId: context.runId ?? null,
      issueId: context.issueId ?? null,
      agentId: context.agentId,
      projectId: context.projectId ?? null,
      routineId: context.routineId ?? null,
      sessionId: input.sessionId ?? null,
      applicationId: decision.target?.applicationId ?? null,
      connectionId: decision.target?.connectionId ?? null,
      catalogEntryId: decision.target?.catalogEntryId ?? null,
      toolName: input.toolName,
      risk: decision.target?.risk ?? null,
      argsHash,
      argsSummary: argsSummary.summary,
      redactions: argsSummary.redactions,
    };

    if (!created && invocation.executionStatus === "succeeded") {
      await recordToolEvents(tx, [
        { ...base, eventType: "replayed", decision: "allow", reasonCode: "replayed" },
      ]);
      return { invocation, decision, outcome: "replayed", canonicalArguments: canonical };
    }
    if (!created && invocation.executionStatus === "running") {
      return { invocation, decision, outcome: "in_progress", canonicalArguments: canonical };
    }

    if (decision.allowed && decision.trustRuleId) {
      // The rule's use count is authoritative in the database, not in the cached snapshot.
      const used = await tx
        .update(toolTrustRules)
        .set({ useCount: sql`${toolTrustRules.useCount} + 1`, updatedAt: sql`now()` })
        .where(
          and(
            eq(toolTrustRules.companyId, context.companyId),
            eq(toolTrustRules.id, decision.trustRuleId),
            eq(toolTrustRules.status, "active"),
            or(isNull(toolTrustRules.maxUses), lt(toolTrustRules.useCount, toolTrustRules.maxUses)),
          ),
        )
        .returning({ id: toolTrustRules.id });
      if (used.length === 0) {
        decision = {
          ...decision,
          allowed: false,
          reasonCode: "approval_required",
          effects: ["require_approval"],
          trustRuleId: null,
        };
      }
    }
    if (decision.allowed && decision.rateLimits.length > 0) {
      const refused = await takeTokens(tx, context.companyId, decision.rateLimits);
      if (refused) {
        decision = {
          ...decision,
          allowed: false,
          reasonCode: "rate_limited",
          effects: [...decision.effects.filter((e) => e !== "allow"), "rate_limited"],
          rateLimitState: refused,
          retryAfterMs: refused.retryAfterMs,
        };
      }
    }

    const value = decisionValue(decision);
    await recordInvocationDecision(tx, context.companyId, invocation.id, {
      decision: value,
      reasonCode: decision.reasonCode,
      matchedPolicyIds: decision.matchedPolicyIds,
    });
    await recordToolEvents(tx, [
      {
        ...base,
        eventType: "decision",
        decision: value,
        reasonCode: decision.reasonCode,
        matchedPolicyIds: decision.matchedPolicyIds,
        trustRuleId: decision.trustRuleId,
      },
    ]);
    const approval =
      value === "approval_required" && input.onApprovalRequired && canonical !== null
        ? await input.onApprovalRequired(tx, { invocation, decision, canonicalArguments: canonical })
        : undefined;
    return {
      invocation: { ...invocation, decision: value, reasonCode: decision.reasonCode },
      decision,
      outcome: value,
      canonicalArguments: canonical,
      approval,
    };
  });
}
