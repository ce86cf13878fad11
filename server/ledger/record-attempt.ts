import { randomUUID } from "node:crypto";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { toolTrustRules } from "@/db/schema";
import { compileSnapshot } from "../access/compile";
import { decide } from "../access/decide";
import { takeTokens } from "../access/rate-limit";
import { getAccessSnapshot } from "../access/snapshot";
import type { AccessContext, AccessRequest, AccessSnapshot, Decision } from "../access/types";
import {
  type DecisionValue,
  recordToolEvents,
  type ToolEventInput,
  toolEventRows,
} from "../audit/record-event";
import { type KnownSecrets, knownSecrets, recordedText, summarize } from "../audit/summarize";
import { findUnstorable, unstorableMessage } from "../contracts/json-shape";
import { markStage } from "../lifecycle/drain";
import { companyLedgerKey, idempotencyKeyDigest } from "../secrets/ledger-key";
import { companySecretValuesForRedaction } from "../secrets/resolve";
import { canonicalJson, sha256Hex } from "./canonical";
import { insertInvocationWithEvents, SessionNotLive } from "./hot-statements";
import {
  claimExecution,
  type Invocation,
  type InvocationStart,
  idempotencyIdentity,
  invocationValues,
  openInvocation,
  outcomeUnknown,
  recordInvocationDecision,
  STATUS_FOR,
} from "./invocations";
import { leaseMs, newLease } from "./lease";
import { expireLeaseIfPast } from "./sweep";

export interface AttemptInput {
  actorType: Invocation["actorType"];
  actorId: string;
  context: AccessContext;
  sessionId?: string | null;
  /** The tool name as the caller sent it (`<slug>__<tool>`); untrusted. */
  toolName: string;
  /**
   * The catalog entry, when the caller resolved it already (a resource by URI, a prompt):
   * decided by id instead of by `toolName`, which is then only the ledger's label.
   */
  catalogEntryId?: string;
  /** No input schema applies (see `AccessRequest.schemaless`). */
  schemaless?: boolean;
  arguments: unknown;
  idempotencyKey?: string | null;
  approvalVerified?: boolean;
  runtime?: AccessRequest["runtime"];
  now: Date;
  /** The company's access version, when the caller read it in this request already. */
  accessVersion?: number;
  /**
   * The session was not read from the database for this request (an in-process cache): the
   * one-statement path verifies it in its insert; any other path throws `SessionNotLive`
   * before writing anything, and the caller re-authenticates and starts over.
   */
  unverifiedSession?: { sessionId: string; accessVersion: number };
  /**
   * Runs inside the attempt's transaction when the decision is `approval_required`, so the
   * ledger row, the action request and its issue-thread card are created together or not at all.
   */
  onApprovalRequired?: (
    tx: Tx,
    a: { invocation: Invocation; decision: Decision; canonicalArguments: string },
  ) => Promise<Record<string, unknown>>;
}

export type AttemptOutcome = DecisionValue | "replayed" | "in_progress" | "outcome_unknown";

export interface AttemptResult {
  invocation: Invocation;
  decision: Decision;
  outcome: AttemptOutcome;
  /** Canonical RFC 8785 JSON of the arguments, exactly what an execution would send. */
  canonicalArguments: string | null;
  /** What `onApprovalRequired` returned. */
  approval?: Record<string, unknown>;
  /**
   * The row is already `running` under this lease token, with its `execution_started` event:
   * an allowed call is claimed by the attempt's own statement (a read) or transaction (the
   * rest), so no other attempt can slip in between decision and claim.
   */
  leaseToken?: string;
  /** The snapshot the decision was made on (execution takes its connection rows from it). */
  snapshot: AccessSnapshot;
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
 * A retry with the same idempotency identity finds the first row (locked by the upsert, so
 * what it reads is the row's current state): a recorded success comes back as `replayed`
 * (never executed twice); a call held by a live lease is `in_progress`; one whose lease
 * expired is made `outcome_unknown` here and then; an earlier attempt that may have run
 * upstream is `outcome_unknown`; any other earlier outcome (denied, limited, deferred, failed
 * before reaching the upstream) is decided afresh. Every one of these writes its audit event,
 * so `attempts` on the ledger equals the row's `decision` + `replayed` events.
 */
export async function recordAttempt(db: Db, input: AttemptInput): Promise<AttemptResult> {
  const { context } = input;
  markStage("decide:snapshot");
  const snapshot = await getAccessSnapshot(db, context.companyId, input.accessVersion);
  const canonical = canonicalOrNull(input.arguments);
  const parsedArgs: unknown = canonical === null ? null : JSON.parse(canonical);
  const argsHash = sha256Hex(canonical ?? "\u0000unrepresentable");
  const request: AccessRequest = {
    purpose: "call",
    context,
    target: input.catalogEntryId ? { catalogEntryId: input.catalogEntryId } : { toolName: input.toolName },
    schemaless: input.schemaless,
    // Arguments JSON cannot represent are refused by the engine's content validation.
    arguments: canonical === null ? "\u0000unrepresentable" : parsedArgs,
    approvalVerified: input.approvalVerified,
    runtime: input.runtime,
    now: input.now.toISOString(),
  };
  let decision = decide(snapshot, request);
  // Text PostgreSQL cannot store (NUL, unpaired surrogates) in the tool name, the arguments or
  // the idempotency key: the attempt is still recorded (its hash, a storable summary), refused.
  const unstorable = findUnstorable({
    tool: input.toolName,
    arguments: input.arguments,
    idempotencyKey: input.idempotencyKey ?? null,
  });
  if (unstorable) decision = unstorableDecision(decision, unstorableMessage(unstorable));
  // Every value of the company's secrets is redacted from the summary like secret shapes,
  // whichever tool was named (known or not): loaded once per access snapshot.
  markStage("decide:redaction");
  const { known } = await companyRedaction(db, snapshot);
  const argsSummary = summarize(parsedArgs ?? {}, decision.redactionPlan.arguments, known);
  // The raw key never reaches a record (it may carry a secret): the ledger keeps its HMAC
  // under the company's ledger key, and the idempotency identity is built from that.
  markStage("decide:ledger_key");
  const keyDigest =
    input.idempotencyKey == null
      ? null
      : idempotencyKeyDigest(await companyLedgerKey(db, context.companyId), input.idempotencyKey);
  const start: InvocationStart = {
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
    // The name as the caller sent it, which for an unknown tool may carry anything.
    toolName: recordedText(input.toolName, known),
    argsHash,
    argsSummary: argsSummary.summary,
    risk: decision.target?.risk ?? null,
    idempotencyKey: keyDigest,
    repeatable: repeatableTarget(snapshot, decision),
  };
  const identity = idempotencyIdentity(start);
  const value0 = decisionValue(decision);
  if (
    identity === null &&
    !decision.trustRuleId &&
    decision.rateLimits.length === 0 &&
    value0 !== "approval_required"
  ) {
    markStage("decide:record");
    return recordFreshAttempt(db, input, start, decision, argsSummary.redactions, canonical, snapshot);
  }
  if (input.unverifiedSession) throw new SessionNotLive();
  markStage("decide:transaction");

  return db.transaction(async (tx) => {
    markStage("decide:transaction_begun");
    const { invocation, created } = await openInvocation(tx, start);
    markStage("decide:invocation_open");
    const base = {
      ...eventBase(input, start, invocation.id),
      argsSummary: argsSummary.summary,
      redactions: argsSummary.redactions,
    };

    if (!created) {
      const refusal = (reasonCode: string): ToolEventInput => ({
        ...base,
        eventType: "decision",
        decision: "deny",
        reasonCode,
      });
      const answer = (outcome: AttemptOutcome): AttemptResult => ({
        invocation,
        decision,
        outcome,
        canonicalArguments: canonical,
        snapshot,
      });
      if (invocation.executionStatus === "succeeded") {
        await recordToolEvents(tx, [
          { ...base, eventType: "replayed", decision: "allow", reasonCode: "replayed" },
        ]);
        return answer("replayed");
      }
      if (invocation.executionStatus === "running") {
        // The claim-time lease check: a lease nobody renewed is swept here (audited).
        if (!(await expireLeaseIfPast(tx, context.companyId, invocation.id))) {
          await recordToolEvents(tx, [refusal("invocation_in_progress")]);
          return answer("in_progress");
        }
        await recordToolEvents(tx, [refusal("invocation_outcome_unknown")]);
        return answer("outcome_unknown");
      }
      if (outcomeUnknown(invocation)) {
        await recordToolEvents(tx, [refusal("invocation_outcome_unknown")]);
        return answer("outcome_unknown");
      }
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
    // An allowed call is claimed in the same transaction, under the row lock the upsert took.
    const leaseToken =
      value === "allow" && decision.target
        ? await claimExecution(tx, context.companyId, invocation.id, decision.target.risk)
        : null;
    if (leaseToken) {
      await recordToolEvents(tx, [
        {
          ...eventBase(input, start, invocation.id),
          eventType: "execution_started",
          decision: "allow",
          reasonCode: "allowed",
          trustRuleId: decision.trustRuleId,
        },
      ]);
    }
    return {
      invocation: { ...invocation, decision: value, reasonCode: decision.reasonCode },
      decision,
      outcome: value,
      canonicalArguments: canonical,
      approval,
      leaseToken: leaseToken ?? undefined,
      snapshot,
    };
  });
}

/** Whether an admin marked the decided tool repeatable (as of the decision's snapshot). */
function repeatableTarget(snapshot: AccessSnapshot, decision: Decision): boolean {
  const id = decision.target?.catalogEntryId;
  return id ? compileSnapshot(snapshot).entries.get(id)?.repeatable === true : false;
}

const redactionBySnapshot = new WeakMap<AccessSnapshot, Promise<CompanyRedaction>>();

/** A company's secret values and their spellings, for redacting records and results. */
export interface CompanyRedaction {
  values: readonly string[];
  known: KnownSecrets;
}

/**
 * The company's secret values, per access snapshot: creating, versioning, binding and revoking
 * a secret bump the access version, so a snapshot never holds a stale set. Argument summaries
 * (here) and guarded results (gateway/execute.ts) redact all of them, whatever tool was named.
 */
export function companyRedaction(db: Db, snapshot: AccessSnapshot): Promise<CompanyRedaction> {
  let set = redactionBySnapshot.get(snapshot);
  if (!set) {
    set = companySecretValuesForRedaction(db, snapshot.companyId).then((values) => ({
      values,
      known: knownSecrets(values),
    }));
    redactionBySnapshot.set(snapshot, set);
  }
  return set;
}

/** The decision for an attempt whose input cannot be stored: refused whatever policies say. */
function unstorableDecision(d: Decision, why: string): Decision {
  return {
    ...d,
    allowed: false,
    reasonCode: "arguments_unstorable",
    effects: ["block"],
    explanation: [...d.explanation, why],
    rateLimits: [],
    rateLimitState: null,
    trustRuleId: null,
    retryAfterMs: null,
    approvalExpiresInSeconds: null,
  };
}

/** What every audit event of an attempt says about who called what (the ledger row's facts). */
function eventBase(
  input: AttemptInput,
  start: InvocationStart,
  invocationId: string,
): Omit<ToolEventInput, "eventType"> {
  return {
    companyId: start.companyId,
    actorType: input.actorType,
    actorId: input.actorId,
    invocationId,
    runId: start.runId ?? null,
    issueId: start.issueId ?? null,
    agentId: start.agentId ?? null,
    projectId: input.context.projectId ?? null,
    routineId: input.context.routineId ?? null,
    sessionId: start.sessionId ?? null,
    applicationId: start.applicationId ?? null,
    connectionId: start.connectionId ?? null,
    catalogEntryId: start.catalogEntryId ?? null,
    toolName: start.toolName,
    risk: start.risk ?? null,
    argsHash: start.argsHash,
  };
}

/**
 * The common case in one statement: a call without an idempotency identity (a read, or a
 * refusal of a tool that resolves to nothing) and with no rate limit or trust rule to consume
 * is necessarily a new row, so its decision is known before anything is written. The ledger
 * row (already `running` when allowed) and its audit events (`decision`, plus
 * `execution_started` when allowed) are inserted by one statement — atomic without an explicit
 * transaction, one round trip and one commit instead of the general path's six statements.
 * If the audit insert fails, the ledger row is not written either, and the call is refused.
 */
async function recordFreshAttempt(
  db: Db,
  input: AttemptInput,
  start: InvocationStart,
  decision: Decision,
  redactions: string[],
  canonical: string | null,
  snapshot: AccessSnapshot,
): Promise<AttemptResult> {
  const value = decisionValue(decision);
  const allowed = value === "allow";
  const id = randomUUID();
  const now = new Date();
  // Inserted already running: its lease is set from this process's clock (renewals and the
  // sweeper use the database's; the first renewal comes after a third of the lease).
  const lease = allowed
    ? { ...newLease(), leaseExpiresAt: new Date(now.getTime() + leaseMs()) }
    : { leaseHost: null, leasePid: null, leaseBootId: null, leaseToken: null, leaseExpiresAt: null };
  const row = {
    ...invocationValues(start, null),
    ...lease,
    id,
    decision: value,
    reasonCode: decision.reasonCode,
    matchedPolicyIds: decision.matchedPolicyIds.slice(0, 50),
    executionStatus: allowed ? "running" : STATUS_FOR[value],
    startedAt: allowed ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  const base = eventBase(input, start, id);
  const events: ToolEventInput[] = [
    {
      ...base,
      eventType: "decision",
      decision: value,
      reasonCode: decision.reasonCode,
      matchedPolicyIds: decision.matchedPolicyIds,
      argsSummary: start.argsSummary,
      redactions,
    },
  ];
  if (allowed)
    events.push({ ...base, eventType: "execution_started", decision: "allow", reasonCode: "allowed" });
  await insertInvocationWithEvents(db, row, toolEventRows(events), input.unverifiedSession);
  const invocation: Invocation = {
    ...row,
    idempotencyKey: row.idempotencyKey,
    approvalState: "none",
    resultHash: null,
    resultSize: null,
    resultSummary: null,
    errorCode: null,
    latencyMs: null,
    runtimeSlotId: null,
    attempts: 1,
    completedAt: null,
    resultEncrypted: null,
  };
  return {
    invocation,
    decision,
    outcome: value,
    canonicalArguments: canonical,
    leaseToken: lease.leaseToken ?? undefined,
    snapshot,
  };
}
