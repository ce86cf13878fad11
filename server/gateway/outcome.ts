import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Served } from "@/server/contracts/api/common";
import type { GatewayCallResult } from "@/server/contracts/api/gateway";
import { isServiceError } from "../errors";
import { ERRORS, type ErrorCode } from "../errors/codes";
import type { AttemptResult } from "../ledger/record-attempt";

/**
 * The governed call's contract: what an agent sends, what it gets back, and the one mapping of
 * an outcome onto each adapter (the REST routes and the MCP endpoint). Every refusal code the
 * pipeline can produce is listed in `OUTCOME_CODES` with its HTTP status.
 */

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

/**
 * Every refusal code of a governed call. Their HTTP statuses come from the one error catalogue
 * (server/errors/codes.ts), so the REST answer, the MCP result and the docs cannot disagree.
 */
const OUTCOME_CODE_LIST = [
  "invalid_request",
  "arguments_invalid",
  "tool_denied",
  "approval_path_missing",
  "command_not_approved",
  "runtime_host_untrusted",
  "runtime_isolation_unavailable",
  "approval_not_found",
  "approval_required",
  "invocation_in_progress",
  "invocation_outcome_unknown",
  "approval_wrong_run",
  "approval_tool_mismatch",
  "approval_arguments_mismatch",
  "approval_signature_invalid",
  "approval_expired",
  "approval_schema_changed",
  "approval_no_longer_allowed",
  "approval_declined",
  "approval_superseded",
  "approval_consumed",
  "approval_pending",
  "approval_invalid",
  "rate_limited",
  "upstream_error",
  "result_blocked",
  "missing_secret",
  "runtime_deferred",
  "upstream_timeout",
] as const satisfies readonly ErrorCode[];
export type OutcomeCode = (typeof OUTCOME_CODE_LIST)[number];

/** Refusal code → HTTP status, read from the catalogue. */
export const OUTCOME_CODES = Object.fromEntries(OUTCOME_CODE_LIST.map((c) => [c, ERRORS[c].status])) as {
  readonly [K in OutcomeCode]: (typeof ERRORS)[K]["status"];
};

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
      code: string;
      message: string;
      invocationId?: string;
      actionRequestId?: string | null;
      retryAfterMs?: number | null;
      expiresAt?: string;
      issueUrl?: string;
      /** For `arguments_invalid`: the validator's findings (JSON Pointer + message). */
      details?: { issues: { path: string; message: string }[] };
    };

export type Refusal = Extract<GatewayCallOutcome, { ok: false }>;

/** An executed outcome plus the guarded result's JSON (for approvals to store; never sent). */
export type ExecOutcome = GatewayCallOutcome & { resultJson?: string };

/** A refusal with the status of its code. */
export function refused(
  code: OutcomeCode,
  message: string,
  extra: Omit<Refusal, "ok" | "status" | "code" | "message"> = {},
): Refusal {
  return { ok: false, status: ERRORS[code].status, code, message, ...extra };
}

/** A refusal carrying a service error's own code and status (an action request's state). */
export function refusedBy(
  err: { code: string; message: string; status: number },
  extra: Omit<Refusal, "ok" | "status" | "code" | "message"> = {},
): Refusal {
  return { ok: false, status: err.status, code: err.code, message: err.message, ...extra };
}

/** The answer to a replayed call (same idempotency key): its recorded outcome, not a new run. */
export function replayedOutcome(inv: {
  id: string;
  executionStatus: string;
  resultSummary?: unknown;
}): GatewayCallOutcome {
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

/**
 * The refusal an agent sees for a decision that did not allow the call. Hidden and
 * non-existent tools answer identically (`tool_denied`, same message), so a direct call learns
 * nothing about tools outside the profile.
 */
export function attemptRefusal(a: AttemptResult): Refusal {
  const d = a.decision;
  const invocationId = a.invocation.id;
  switch (a.outcome) {
    case "approval_required":
      return refused("approval_required", "a person must approve this call before it can run", {
        invocationId,
        actionRequestId: null,
      });
    case "rate_limited":
      return refused("rate_limited", `rate limit reached; retry in ${d.retryAfterMs ?? 1000} ms`, {
        invocationId,
        retryAfterMs: d.retryAfterMs ?? 1000,
      });
    case "deferred":
      return refused("runtime_deferred", "no runtime capacity for this tool right now; retry later", {
        invocationId,
        retryAfterMs: d.retryAfterMs ?? 1000,
      });
    case "in_progress":
      return refused("invocation_in_progress", "this call is already executing", { invocationId });
    default:
      if (d.reasonCode === "arguments_unstorable")
        return refused(
          "invalid_request",
          d.explanation.at(-1) ?? "the call holds text that cannot be stored",
          { invocationId },
        );
      if (d.reasonCode === "arguments_invalid")
        return refused("arguments_invalid", d.explanation.at(-1) ?? "invalid arguments", {
          invocationId,
          ...(d.argumentIssues ? { details: { issues: d.argumentIssues } } : {}),
        });
      return refused("tool_denied", "this tool is not available to this session", { invocationId });
  }
}

/** The refusal for an execution that could not be claimed (another attempt holds or held it). */
export function unclaimedRefusal(executionStatus: string, invocationId: string): Refusal {
  return executionStatus === "running"
    ? refused("invocation_in_progress", "this call is already executing", { invocationId })
    : refused(
        "invocation_outcome_unknown",
        "an earlier attempt of this call may have run upstream; it is not run again (check the invocation)",
        { invocationId },
      );
}

/** The error code an execution failure is recorded under (anything unexpected: `upstream_error`). */
export const failureCode = (err: unknown): string => (isServiceError(err) ? err.code : "upstream_error");

/** What the agent is told when the upstream step failed (after the failure is recorded). */
export function executionFailure(err: unknown, invocationId: string): Refusal {
  const code = failureCode(err);
  if (code === "missing_secret")
    return refused(code, "the tool's connection is missing a credential; an admin must fix it", {
      invocationId,
    });
  if (code === "runtime_deferred" || code === "runtime_suppressed") {
    const retryAfterMs = isServiceError(err) ? Number(err.details?.retryAfterMs ?? 1000) : 1000;
    return refused(
      "runtime_deferred",
      code === "runtime_suppressed"
        ? "the tool's local runtime is suppressed after repeated crashes; an admin must restart it"
        : "no runtime capacity for this tool right now; retry later",
      { invocationId, retryAfterMs },
    );
  }
  if (
    code === "command_not_approved" ||
    code === "runtime_host_untrusted" ||
    code === "runtime_isolation_unavailable"
  ) {
    // The host operator's decision (docs/runtime.md), not an upstream failure: refused, not 5xx.
    return refused(
      code,
      "the tool's local command may not run on this host; an instance administrator decides",
      { invocationId },
    );
  }
  if (code === "tool_input_invalid")
    return refused("arguments_invalid", isServiceError(err) ? err.message : "invalid arguments", {
      invocationId,
    });
  return code === "upstream_timeout"
    ? refused("upstream_timeout", "the upstream did not answer in time", { invocationId })
    : refused("upstream_error", "the upstream call failed", { invocationId });
}

/** The REST form of an outcome: 200 with the outcome, or the refusal's status with `{error}`. */
export function restOutcome(outcome: GatewayCallOutcome): { status: number; body: unknown } {
  if (outcome.ok) return { status: 200, body: outcome };
  const { ok: _ok, status, ...error } = outcome;
  return { status, body: { error } };
}

/**
 * The REST adapters' answer: a success is returned as data (the route wrapper encodes it with
 * its usual headers), a refusal as a response with its own status.
 */
export function restResponse(outcome: GatewayCallOutcome): GatewayCallOutcome | Response {
  if (outcome.ok) return outcome satisfies Served<typeof GatewayCallResult>;
  const { status, body } = restOutcome(outcome);
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}

/** The MCP form of an outcome: refusals are tool results the model can read, not protocol errors. */
export function mcpToolResult(outcome: GatewayCallOutcome): CallToolResult {
  if (outcome.ok) {
    return {
      content: outcome.result.content as CallToolResult["content"],
      ...(outcome.result.structuredContent ? { structuredContent: outcome.result.structuredContent } : {}),
      ...(outcome.result.isError ? { isError: true } : {}),
      _meta: {
        invocationId: outcome.invocationId,
        replayed: outcome.replayed,
        ...(outcome.artifactId ? { artifactId: outcome.artifactId } : {}),
      },
    };
  }
  const structured: Record<string, unknown> = { code: outcome.code, message: outcome.message };
  if (outcome.actionRequestId !== undefined) structured.actionRequestId = outcome.actionRequestId;
  if (outcome.retryAfterMs != null) structured.retryAfterMs = outcome.retryAfterMs;
  if (outcome.invocationId) structured.invocationId = outcome.invocationId;
  if (outcome.details) structured.issues = outcome.details.issues;
  return {
    isError: true,
    content: [{ type: "text", text: `${outcome.code}: ${outcome.message}` }],
    structuredContent: structured,
  };
}
