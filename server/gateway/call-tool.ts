import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { toolConnections, toolResultArtifacts } from "@/db/schema";
import { executionTargetOf } from "../access/snapshot";
import type { AccessSnapshot, Decision } from "../access/types";
import { consumeApprovalForAgent, createActionRequestInTx } from "../approvals/action-requests";
import { recordToolEvents, type ToolEventInput, toolEventRows } from "../audit/record-event";
import { REDACTED, redactPaths, summarize } from "../audit/summarize";
import { type ContentFinding, guardContent, type InjectionMode } from "../catalog/content-guard";
import { watchToolListChanges } from "../catalog/watch";
import { callUpstreamTool, type UpstreamResult, upstreamTargetFor } from "../connectors";
import { jsonShapeProblem } from "../core/json-shape";
import { ERRORS, type ErrorCode, isServiceError, ServiceError } from "../errors";
import { sha256Hex } from "../ledger/canonical";
import { completeInvocationWithEvent } from "../ledger/hot-statements";
import { claimExecution, completeInvocation } from "../ledger/invocations";
import { type AttemptResult, recordAttempt } from "../ledger/record-attempt";
import { logError } from "../log";
import { runtimeCapacity } from "../runtime";
import { loadConnection } from "../tools/connections";
import type { GatewayContext } from "./sessions";

/** The deepest upstream result accepted (deeper: `upstream_error`, never a crash). */
export const MAX_RESULT_DEPTH = 128;

export const GatewayCallInput = z.object({
  tool: z.string().min(1).max(200),
  arguments: z.unknown().optional(),
  idempotencyKey: z.string().min(1).max(200).optional(),
  approvedActionRequestId: z.uuid().optional(),
});
export type GatewayCallInput = z.infer<typeof GatewayCallInput>;

export interface ToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type GatewayCallOutcome =
  | {
      ok: true;
      invocationId: string;
      replayed: boolean;
      result: ToolResult;
      truncated?: boolean;
      artifactId?: string | null;
    }
  | {
      ok: false;
      status: number;
      code: ErrorCode;
      message: string;
      invocationId?: string;
      actionRequestId?: string | null;
      retryAfterMs?: number | null;
      expiresAt?: string;
      issueUrl?: string;
      /** For `arguments_invalid`: the validator's findings (JSON Pointer + message). */
      details?: { issues: { path: string; message: string }[] };
    };

/**
 * The refusal an agent sees. Hidden and non-existent tools answer identically (`tool_denied`,
 * same message), so a direct call learns nothing about tools outside the profile.
 */
function refusal(a: AttemptResult): GatewayCallOutcome {
  const d = a.decision;
  const invocationId = a.invocation.id;
  switch (a.outcome) {
    case "approval_required":
      return {
        ok: false,
        status: ERRORS.approval_required.status,
        code: "approval_required",
        message: "a person must approve this call before it can run",
        invocationId,
        actionRequestId: null,
      };
    case "rate_limited":
      return {
        ok: false,
        status: ERRORS.rate_limited.status,
        code: "rate_limited",
        message: `rate limit reached; retry in ${d.retryAfterMs ?? 1000} ms`,
        invocationId,
        retryAfterMs: d.retryAfterMs ?? 1000,
      };
    case "deferred":
      return {
        ok: false,
        status: ERRORS.runtime_deferred.status,
        code: "runtime_deferred",
        message: "no runtime capacity for this tool right now; retry later",
        invocationId,
        retryAfterMs: d.retryAfterMs ?? 1000,
      };
    case "in_progress":
      return {
        ok: false,
        status: ERRORS.invocation_in_progress.status,
        code: "invocation_in_progress",
        message: "this call is already executing",
        invocationId,
      };
    default:
      if (d.reasonCode === "arguments_unstorable") {
        return {
          ok: false,
          status: ERRORS.invalid_request.status,
          code: "invalid_request",
          message: d.explanation.at(-1) ?? "the call holds text that cannot be stored",
          invocationId,
        };
      }
      if (d.reasonCode === "arguments_invalid") {
        return {
          ok: false,
          status: ERRORS.arguments_invalid.status,
          code: "arguments_invalid",
          message: d.explanation.at(-1) ?? "invalid arguments",
          invocationId,
          ...(d.argumentIssues ? { details: { issues: d.argumentIssues } } : {}),
        };
      }
      return {
        ok: false,
        status: ERRORS.tool_denied.status,
        code: "tool_denied",
        message: "this tool is not available to this session",
        invocationId,
      };
  }
}

/** Replaces every released secret value anywhere in a result (its serialized form). */
function scrubSecrets(json: string, secrets: string[]): string {
  let out = json;
  for (const s of secrets) {
    if (s.length < 4) continue;
    const encoded = JSON.stringify(s).slice(1, -1); // the value as it appears inside a JSON string
    out = out.split(encoded).join(REDACTED);
  }
  return out;
}

interface Guarded {
  result: ToolResult;
  json: string;
  bytes: number;
  truncated: boolean;
  fullJson: string | null;
  findings: ContentFinding[];
  blocked: boolean;
}

/**
 * Guards a result before anyone sees it: policy redaction pointers on structured content, the
 * content guard (secret-shaped values and the connection's own released secrets redacted,
 * invisible characters stripped, prompt-injection spans removed), and the size bound (beyond
 * it, a truncated result plus a stored artifact — both guarded).
 */
function guardResult(
  up: UpstreamResult,
  decision: Decision,
  secrets: string[],
  maxBytes: number,
  injectionMode: InjectionMode = "redact",
): Guarded {
  const policy = (r: ToolResult): ToolResult => ({
    content: Array.isArray(r?.content) ? r.content : [],
    ...(r?.structuredContent
      ? {
          structuredContent: redactPaths(r.structuredContent, decision.redactionPlan.result) as Record<
            string,
            unknown
          >,
        }
      : {}),
    ...(r?.isError ? { isError: true } : {}),
  });
  const opts = { secretValues: secrets, injectionMode };
  const g = guardContent(policy(up.result as ToolResult), opts);
  let full: ReturnType<typeof guardContent> | null = null;
  if (up.fullJson) {
    let parsed: ToolResult;
    try {
      parsed = JSON.parse(up.fullJson) as ToolResult;
    } catch {
      parsed = { content: [] };
    }
    full = guardContent(policy(parsed), opts);
  }
  const findings = (full ?? g).findings;
  const blocked = g.blocked || (full?.blocked ?? false);
  const json = scrubSecrets(JSON.stringify(g.result), secrets);
  const fullJson = full ? scrubSecrets(JSON.stringify(full.result), secrets) : null;
  const bytes = Buffer.byteLength(fullJson ?? json, "utf8");
  if (bytes <= maxBytes && !fullJson) {
    return {
      result: JSON.parse(json) as ToolResult,
      json,
      bytes,
      truncated: false,
      fullJson: null,
      findings,
      blocked,
    };
  }
  const preview = (fullJson ?? json).slice(0, Math.min(4096, maxBytes));
  const truncated: ToolResult = {
    content: [
      {
        type: "text",
        text: `The result was ${bytes} bytes, above this connection's limit of ${maxBytes}; it is stored as an artifact. First bytes:\n${preview}`,
      },
    ],
    structuredContent: { truncated: true, bytes, limit: maxBytes },
  };
  return {
    result: truncated,
    json: JSON.stringify(truncated),
    bytes,
    truncated: true,
    fullJson: fullJson ?? json,
    findings,
    blocked,
  };
}

const CONNECTION_USE_INTERVAL_MS = 60_000;
type UseHolder = typeof globalThis & { __paperclipConnectionUse?: Map<string, number> };
/**
 * Whether this process should record a use of the connection now: `last_used_at` is an
 * operator hint, written at most once a minute per connection and process, so that calls do
 * not queue on the connection row's lock.
 */
function connectionUseDue(connectionId: string, now = Date.now()): boolean {
  const g = globalThis as UseHolder;
  g.__paperclipConnectionUse ??= new Map();
  const last = g.__paperclipConnectionUse.get(connectionId);
  if (last !== undefined && now - last < CONNECTION_USE_INTERVAL_MS) return false;
  if (g.__paperclipConnectionUse.size > 10_000) g.__paperclipConnectionUse.clear();
  g.__paperclipConnectionUse.set(connectionId, now);
  return true;
}

/** Who executes and in which run context (a gateway session, or a person running an approval). */
export interface ExecContext {
  companyId: string;
  agentId: string;
  runId: string;
  issueId: string | null;
  projectId: string | null;
  routineId: string | null;
  sessionId: string | null;
  actorType: ToolEventInput["actorType"];
  actorId: string;
}

export type ExecOutcome = GatewayCallOutcome & { resultJson?: string };

export function execContextOf(gw: GatewayContext): ExecContext {
  return { ...gw, actorType: "gateway_session", actorId: gw.sessionId };
}

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
    /** The ledger row is already `running` with its `execution_started` event (a fresh read). */
    claimed?: boolean;
    /** The snapshot the decision was made on: its connection rows are used when present. */
    snapshot?: AccessSnapshot;
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

  const claimed =
    opts.claimed ||
    (await db.transaction(async (tx) => {
      if (!(await claimExecution(tx, ex.companyId, inv.id, target.risk, { approved: opts.approved })))
        return false;
      await recordToolEvents(tx, [
        {
          ...base,
          eventType: "execution_started",
          decision: "allow",
          reasonCode: opts.approved ? "approved" : "allowed",
        },
      ]);
      return true;
    }));
  if (!claimed) {
    return inv.executionStatus === "running"
      ? {
          ok: false,
          status: ERRORS.invocation_in_progress.status,
          code: "invocation_in_progress",
          message: "this call is already executing",
          invocationId: inv.id,
        }
      : {
          ok: false,
          status: ERRORS.invocation_outcome_unknown.status,
          code: "invocation_outcome_unknown",
          message:
            "an earlier attempt of this call may have run upstream; it is not run again (check the invocation)",
          invocationId: inv.id,
        };
  }

  const started = performance.now();
  const finish = async (
    status: "succeeded" | "failed" | "timeout",
    event: ToolEventInput["eventType"],
    extra: { errorCode?: string; guarded?: Guarded } = {},
  ) => {
    const latencyMs = Math.round(performance.now() - started);
    const g = extra.guarded;
    const resultSummary = g
      ? summarize(g.result.structuredContent ?? { content: g.result.content }, d.redactionPlan.result)
      : null;
    const resultHash = g ? sha256Hex(g.fullJson ?? g.json) : null;
    let artifactId: string | null = null;
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
    const resultEvent: ToolEventInput = {
      ...base,
      eventType: event,
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
    if (connectionUseDue(target.connectionId)) {
      // At most once a minute per connection and process: a hot connection row must not
      // serialise calls (the condition also skips the write when another replica just did it).
      await db
        .update(toolConnections)
        .set({ lastUsedAt: sql`now()` })
        .where(
          and(
            eq(toolConnections.companyId, ex.companyId),
            eq(toolConnections.id, target.connectionId),
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
        inv.id,
        { ...recorded, executionStatus },
        eventRow!,
      );
      return null;
    }
    await db.transaction(async (tx) => {
      if (g?.truncated && g.fullJson) {
        const [a] = await tx
          .insert(toolResultArtifacts)
          .values({
            companyId: ex.companyId,
            invocationId: inv.id,
            content: g.fullJson,
            bytes: g.bytes,
            sha256: resultHash!,
          })
          .returning({ id: toolResultArtifacts.id });
        artifactId = a!.id;
      }
      await completeInvocation(tx, ex.companyId, inv.id, {
        ...outcome,
        resultSummary: outcome.resultSummary ? { ...outcome.resultSummary, artifactId } : null,
      });
      await recordToolEvents(tx, [resultEvent]);
    });
    return artifactId;
  };

  try {
    const cached = opts.snapshot ? executionTargetOf(opts.snapshot, target.connectionId) : null;
    // A connection deleted between decision and execution fails the call (not_found).
    const row = cached ?? (await loadConnection(db, ex.companyId, target.connectionId));
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
    const toolName = target.toolName.slice(target.toolName.indexOf("__") + 2);
    const args = JSON.parse(canonicalArguments) as Record<string, unknown>;
    const up = await callUpstreamTool(upstream, toolName, args, {
      db,
      companyId: ex.companyId,
      agentId: ex.agentId,
      runId: ex.runId,
      issueId: ex.issueId,
    });
    // Results are untrusted JSON: bounded in depth before anything recursive walks them.
    if (jsonShapeProblem(up.result, { maxDepth: MAX_RESULT_DEPTH, maxNodes: 2_000_000 }))
      throw new ServiceError(
        "upstream_error",
        `the upstream result nests deeper than ${MAX_RESULT_DEPTH} levels`,
      );
    const guarded = guardResult(up, d, upstream.secretValues, upstream.maxResultBytes);
    if (guarded.blocked) {
      // The call ran upstream (its effects happened); only the result is withheld.
      await finish("succeeded", "result_returned", { guarded, errorCode: "result_blocked" });
      return {
        ok: false,
        status: ERRORS.result_blocked.status,
        code: "result_blocked",
        message:
          "the upstream result was withheld: it looked like a prompt-injection attempt (see the audit trail)",
        invocationId: inv.id,
      };
    }
    const artifactId = await finish("succeeded", "result_returned", { guarded });
    return {
      ok: true,
      invocationId: inv.id,
      replayed: false,
      result: guarded.result,
      truncated: guarded.truncated,
      artifactId,
      resultJson: guarded.json,
    };
  } catch (err) {
    const code = isServiceError(err) ? err.code : "upstream_error";
    if (!isServiceError(err)) logError("gateway.call_failed", err, { invocationId: inv.id });
    const timeout = code === "upstream_timeout";
    await finish(timeout ? "timeout" : "failed", timeout ? "timeout" : "execution_failed", {
      errorCode: code,
    });
    if (code === "missing_secret") {
      return {
        ok: false,
        status: ERRORS[code].status,
        code,
        message: "the tool's connection is missing a credential; an admin must fix it",
        invocationId: inv.id,
      };
    }
    if (code === "runtime_deferred" || code === "runtime_suppressed") {
      const retryAfterMs = isServiceError(err) ? Number(err.details?.retryAfterMs ?? 1000) : 1000;
      return {
        ok: false,
        status: ERRORS.runtime_deferred.status,
        code: "runtime_deferred",
        message:
          code === "runtime_suppressed"
            ? "the tool's local runtime is suppressed after repeated crashes; an admin must restart it"
            : "no runtime capacity for this tool right now; retry later",
        invocationId: inv.id,
        retryAfterMs,
      };
    }
    if (
      code === "command_not_approved" ||
      code === "runtime_host_untrusted" ||
      code === "runtime_isolation_unavailable"
    ) {
      // The host operator's decision (docs/runtime.md), not an upstream failure: refused, not 5xx.
      return {
        ok: false,
        status: ERRORS[code].status,
        code,
        message: "the tool's local command may not run on this host; an instance administrator decides",
        invocationId: inv.id,
      };
    }
    if (code === "tool_input_invalid") {
      return {
        ok: false,
        status: ERRORS.arguments_invalid.status,
        code: "arguments_invalid",
        message: isServiceError(err) ? err.message : "invalid arguments",
        invocationId: inv.id,
      };
    }
    return {
      ok: false,
      status: ERRORS[timeout ? "upstream_timeout" : "upstream_error"].status,
      code: timeout ? "upstream_timeout" : "upstream_error",
      message: timeout ? "the upstream did not answer in time" : "the upstream call failed",
      invocationId: inv.id,
    };
  }
}

/**
 * The governed call (docs/architecture.md "The governed call"): ledger and decision
 * (recordAttempt), an action request and issue-thread card when approval is required (in the
 * same transaction), then execution for an allowed call.
 */
export async function gatewayCallTool(
  db: Db,
  gw: GatewayContext,
  input: GatewayCallInput,
  now = new Date(),
): Promise<GatewayCallOutcome> {
  if (input.approvedActionRequestId) return consumeApprovalForAgent(db, gw, input, now);
  const attempt = await recordAttempt(db, {
    actorType: "gateway_session",
    actorId: gw.sessionId,
    context: { ...gw, sessionValid: true },
    sessionId: gw.sessionId,
    toolName: input.tool,
    arguments: input.arguments,
    idempotencyKey: input.idempotencyKey ?? null,
    now,
    // Local (stdio) tools defer when no runtime slot can be had (in-memory, no I/O).
    runtime: runtimeCapacity(gw.companyId),
    accessVersion: gw.accessVersion,
    onApprovalRequired: (tx, a) =>
      createActionRequestInTx(tx, gw, a.invocation, a.decision, a.canonicalArguments, now),
  });
  const inv = attempt.invocation;
  if (attempt.outcome === "replayed") {
    return {
      ok: true,
      invocationId: inv.id,
      replayed: true,
      result: {
        content: [
          {
            type: "text",
            text: "This call already ran; this is its recorded outcome (replayed, not executed again).",
          },
        ],
        structuredContent: {
          replayed: true,
          invocationId: inv.id,
          executionStatus: inv.executionStatus,
          result: inv.resultSummary ?? null,
        },
      },
    };
  }
  if (attempt.outcome === "approval_required") {
    const a = attempt.approval as
      | { pathMissing?: boolean; actionRequestId?: string; expiresAt?: string; issueUrl?: string }
      | undefined;
    if (!a || a.pathMissing) {
      return {
        ok: false,
        status: ERRORS.approval_path_missing.status,
        code: "approval_path_missing",
        message:
          "this call needs a person's approval, and this run has no issue thread to ask on; it was not run",
        invocationId: inv.id,
      };
    }
    return {
      ok: false,
      status: ERRORS.approval_required.status,
      code: "approval_required",
      message: `a person must approve this call on the issue thread; then retry with approvedActionRequestId ${a.actionRequestId}`,
      invocationId: inv.id,
      actionRequestId: a.actionRequestId ?? null,
      expiresAt: a.expiresAt,
      issueUrl: a.issueUrl,
    };
  }
  if (attempt.outcome !== "allow") return refusal(attempt);
  const { resultJson: _json, ...outcome } = await executeInvocation(
    db,
    execContextOf(gw),
    inv,
    attempt.decision,
    attempt.canonicalArguments!,
    { claimed: attempt.claimed, snapshot: attempt.snapshot },
  );
  return outcome;
}
