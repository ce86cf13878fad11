import { z } from "zod";
import { GATEWAY_OUTCOME_CODES } from "../contracts/values";
import { isServiceError } from "../errors";
import { ERRORS, type ErrorCode } from "../errors/codes";
import type { CurrentExecution } from "../ledger/invocations";
import type { AttemptResult } from "../ledger/record-attempt";
import type { EncryptedSecret } from "../secrets/local-provider";
import { keptResultOf } from "../secrets/replay-result";

/**
 * The governed call's contract: what an agent sends, what it gets back, and the one mapping of
 * an outcome onto each adapter (the REST routes and the MCP endpoint: `outcome-adapters.ts`). Every refusal code the
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
  /** The upstream's result `_meta` (bounded, guarded; never the gateway's own keys). */
  _meta?: Record<string, unknown>;
}

/**
 * Every refusal code of a governed call. Their HTTP statuses come from the one error catalogue
 * (server/errors/codes.ts), so the REST answer, the MCP result and the docs cannot disagree.
 */
const OUTCOME_CODE_LIST = GATEWAY_OUTCOME_CODES satisfies readonly ErrorCode[];
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
      /**
       * A replay only: why the recorded result came back instead of a new call, for the model
       * to read (`replayNotice`). REST sends it beside `result`; MCP adds it as a text item.
       */
      notice?: string;
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
      /** The upstream's own JSON-RPC error (code, scrubbed message, bounded data), when it sent one. */
      rpcError?: { code: number; message: string; data?: unknown };
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

/**
 * Why a call was answered from the ledger: an identical call of a write in the same run (no
 * key: the implicit identity), the same explicit idempotency key, or an approval that ran.
 */
export type ReplayReason = "identical_call" | "idempotency_key" | "approved_call";

const NOTICE_PREFIX = "[Paperclip] ";

/**
 * The sentence a model reads on a replayed result (docs/access.md, "When a call is replayed").
 * `_meta["io.paperclip/replayed"]` says the same to programs, but models are not shown `_meta`:
 * without this a polling tool or a deliberate repeat would return stale output silently.
 */
export function replayNotice(why: ReplayReason): string {
  switch (why) {
    case "identical_call":
      return `${NOTICE_PREFIX}This is the recorded result of an identical earlier call (same tool and arguments in this run), replayed without calling the tool again: the tool counts as a write, so an identical call is not run twice. To run it again, call it with a new idempotency key (only if running it twice is intended); an admin can mark the tool repeatable.`;
    case "idempotency_key":
      return `${NOTICE_PREFIX}This is the recorded result of an earlier call with the same idempotency key and arguments, replayed without calling the tool again. To run it again, call it with a new idempotency key (only if running it twice is intended).`;
    case "approved_call":
      return `${NOTICE_PREFIX}This is the recorded result of the approved call, which already ran; it was replayed without calling the tool again. Running it again needs a new call (and a new approval).`;
  }
}

/**
 * The answer to a replayed call (same idempotency identity, or an executed approval): the first
 * answer exactly — its `content`, `structuredContent` and artifact reference — marked as
 * replayed (`replayed: true`; over MCP in `_meta`) and with a `notice` saying so for the model.
 * Rows recorded before results were kept answer with their recorded summary. `why` defaults to
 * what the row says: an explicit key was given (its digest is kept) or not.
 */
export function replayedOutcome(
  inv: {
    id: string;
    companyId: string;
    executionStatus: string;
    resultSummary?: unknown;
    resultEncrypted?: EncryptedSecret | null;
    idempotencyKey?: string | null;
  },
  why: ReplayReason = inv.idempotencyKey ? "idempotency_key" : "identical_call",
): GatewayCallOutcome {
  const kept = keptResultOf({
    id: inv.id,
    companyId: inv.companyId,
    resultEncrypted: inv.resultEncrypted ?? null,
  });
  const notice = replayNotice(why);
  if (kept) {
    return {
      ok: true,
      invocationId: inv.id,
      replayed: true,
      notice,
      result: kept.result,
      ...(kept.truncated ? { truncated: true } : {}),
      ...(kept.artifactId ? { artifactId: kept.artifactId } : {}),
    };
  }
  return {
    ok: true,
    invocationId: inv.id,
    replayed: true,
    notice,
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

/** What an agent is told when an earlier attempt of the same write may have run upstream. */
export const outcomeUnknownRefusal = (invocationId: string): Refusal =>
  ledgerAnswer("outcome_unknown", invocationId);

/** What an agent is told while the same write executes under a live lease. */
export const inProgressRefusal = (invocationId: string): Refusal => ledgerAnswer("running", invocationId);

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
      return inProgressRefusal(invocationId);
    case "outcome_unknown":
      return outcomeUnknownRefusal(invocationId);
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

/**
 * The answer for an execution that could not be claimed, decided from the row as it is now
 * (`currentExecution`): still held by a live lease → in progress; succeeded → its replay;
 * anything else (a lost lease, a failure mid-call) → outcome unknown.
 */
export function unclaimedRefusal(row: CurrentExecution, why?: ReplayReason): GatewayCallOutcome {
  if (row.leaseLive) return inProgressRefusal(row.id);
  if (row.executionStatus === "succeeded") return replayedOutcome(row, why);
  return outcomeUnknownRefusal(row.id);
}

/** The error code an execution failure is recorded under (anything unexpected: `upstream_error`). */
export const failureCode = (err: unknown): string => (isServiceError(err) ? err.code : "upstream_error");

interface LedgerAnswer {
  /** The row's `execution_status` for this outcome. */
  executionStatus: string;
  /** The code the agent is told (HTTP status from the catalogue; over MCP an `isError` result with it). */
  code: OutcomeCode;
  /** Whether the answer carries `retryAfterMs` (only where retrying soon can help). */
  retryHint: boolean;
  message: string;
}

const HOST_DECIDES = "the tool's local command may not run on this host; an instance administrator decides";
const UPSTREAM_FAILED = "the upstream call failed";

/**
 * THE one table: a ledger outcome (the `error_code` an execution recorded, or the row's state
 * a retry finds) → the code the agent is told → its HTTP status (`ERRORS[code].status`) → the
 * MCP tool result (`isError: true`, `structuredContent.code`). The agent is told what the
 * ledger says; only the upstream's transport details (network guard, TLS, protocol) are told
 * as `upstream_error`, their detail staying in the ledger and the audit trail. The unit test
 * walks every row through the functions the pipeline uses.
 */
export const LEDGER_ANSWERS = {
  // ── an execution's failure (`execution_status` failed / timeout, `error_code`) ───────────
  missing_secret: {
    executionStatus: "failed",
    code: "missing_secret",
    retryHint: false,
    message: "the tool's connection is missing a credential; an admin must fix it",
  },
  // Upstream OAuth (docs/upstream-oauth.md): raised before the request goes out.
  upstream_authorization_required: {
    executionStatus: "failed",
    code: "upstream_authorization_required",
    retryHint: false,
    message: "the tool's connection must be authorised again by an admin (Reconnect); retrying does not help",
  },
  user_grant_required: {
    executionStatus: "failed",
    code: "user_grant_required",
    retryHint: false,
    message: "the tool acts as the run's responsible person, who has not linked their account",
  },
  upstream_oauth_refused: {
    executionStatus: "failed",
    code: "upstream_authorization_required",
    retryHint: false,
    message: "the tool's authorization server refused the connection's credentials; an admin must fix them",
  },
  upstream_oauth_discovery_failed: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_oauth_issuer_mismatch: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_oauth_unsupported: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  // Admin-flow codes, never raised by a call; listed so every upstream code has its answer.
  upstream_oauth_not_configured: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_oauth_state_invalid: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  runtime_deferred: {
    executionStatus: "failed",
    code: "runtime_deferred",
    retryHint: true,
    message: "no runtime capacity for this tool right now; retry later",
  },
  runtime_suppressed: {
    executionStatus: "failed",
    code: "runtime_suppressed",
    retryHint: false,
    message:
      "the tool's local server crashed repeatedly and is suppressed; an admin must restart the slot (retrying does not help)",
  },
  runtime_crashed: {
    executionStatus: "failed",
    code: "runtime_crashed",
    retryHint: false,
    message: "the tool's local server exited during the call; the call may have been partly carried out",
  },
  runtime_stopped: {
    executionStatus: "failed",
    code: "runtime_stopped",
    retryHint: false,
    message: "the tool's local server was stopped during the call",
  },
  runtime_start_failed: {
    executionStatus: "failed",
    code: "runtime_start_failed",
    retryHint: false,
    message: "the tool's local server could not be started",
  },
  runtime_unavailable: {
    executionStatus: "failed",
    code: "runtime_unavailable",
    retryHint: false,
    message: "the local runtime cannot serve this tool right now",
  },
  command_not_approved: {
    executionStatus: "failed",
    code: "command_not_approved",
    retryHint: false,
    message: HOST_DECIDES,
  },
  runtime_host_untrusted: {
    executionStatus: "failed",
    code: "runtime_host_untrusted",
    retryHint: false,
    message: HOST_DECIDES,
  },
  runtime_isolation_unavailable: {
    executionStatus: "failed",
    code: "runtime_isolation_unavailable",
    retryHint: false,
    message: HOST_DECIDES,
  },
  slot_isolation_unavailable: {
    executionStatus: "failed",
    code: "slot_isolation_unavailable",
    retryHint: false,
    message: HOST_DECIDES,
  },
  tool_input_invalid: {
    executionStatus: "failed",
    code: "arguments_invalid",
    retryHint: false,
    message: "invalid arguments",
  },
  upstream_timeout: {
    executionStatus: "timeout",
    code: "upstream_timeout",
    retryHint: false,
    message: "the upstream did not answer in time",
  },
  upstream_error: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_unreachable: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_blocked: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_requires_operator: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_cancelled: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_redirect_refused: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_too_large: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_auth_failed: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_tls_error: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  upstream_protocol_error: {
    executionStatus: "failed",
    code: "upstream_error",
    retryHint: false,
    message: UPSTREAM_FAILED,
  },
  // ── a result withheld by the content guard (the call ran: `succeeded`, `result_blocked`) ─
  result_blocked: {
    executionStatus: "succeeded",
    code: "result_blocked",
    retryHint: false,
    message:
      "the upstream result was withheld: it looked like a prompt-injection attempt (see the audit trail)",
  },
  // ── the row's state as a retry of the same write finds it ────────────────────────────────
  running: {
    executionStatus: "running",
    code: "invocation_in_progress",
    retryHint: false,
    message: "this call is executing right now; retry shortly for its outcome",
  },
  outcome_unknown: {
    executionStatus: "outcome_unknown",
    code: "invocation_outcome_unknown",
    retryHint: false,
    message:
      "an earlier attempt of this write may have run upstream (it timed out, failed mid-call or its server stopped); it is not run again. A person must resolve it in the console (done, not done, or retry once); a new idempotency key runs it anew only if running it twice is safe",
  },
} as const satisfies Record<string, LedgerAnswer>;
export type LedgerOutcome = keyof typeof LEDGER_ANSWERS;

/** The answer of one ledger outcome (`invocationId`, and the retry hint where the table says so). */
export function ledgerAnswer(
  outcome: LedgerOutcome,
  invocationId: string,
  extra: { retryAfterMs?: number; message?: string } = {},
): Refusal {
  const a: LedgerAnswer = LEDGER_ANSWERS[outcome];
  return refused(a.code, extra.message ?? a.message, {
    invocationId,
    ...(a.retryHint ? { retryAfterMs: extra.retryAfterMs ?? 1000 } : {}),
  });
}

/** What the agent is told when the upstream step failed (after the failure is recorded). */
export function executionFailure(err: unknown, invocationId: string): Refusal {
  const code = failureCode(err);
  const outcome: LedgerOutcome = Object.hasOwn(LEDGER_ANSWERS, code)
    ? (code as LedgerOutcome)
    : "upstream_error";
  const details = isServiceError(err) ? err.details : undefined;
  const retryAfterMs = Number(details?.retryAfterMs ?? 1000);
  const answer = ledgerAnswer(outcome, invocationId, {
    retryAfterMs: Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? retryAfterMs : 1000,
    // A Paperclip tool's own refusal says what was wrong with the input.
    // …and a missing personal grant says who must link it, and where.
    ...((outcome === "tool_input_invalid" || outcome === "user_grant_required") && isServiceError(err)
      ? { message: err.message }
      : {}),
  });
  // An upstream's JSON-RPC error keeps its code, a sanitised message and bounded data.
  return outcome === "upstream_error" ? { ...answer, ...upstreamRpcError(err) } : answer;
}

/** The upstream's JSON-RPC error carried by a connector failure (`mcp-http-errors.ts`). */
function upstreamRpcError(err: unknown): { rpcError?: NonNullable<Refusal["rpcError"]> } {
  const d = isServiceError(err) ? err.details : undefined;
  if (!d || typeof d.mcpCode !== "number" || !Number.isSafeInteger(d.mcpCode)) return {};
  const message = typeof d.rpcMessage === "string" ? d.rpcMessage : "the upstream refused the request";
  return { rpcError: { code: d.mcpCode, message, ...(d.rpcData !== undefined ? { data: d.rpcData } : {}) } };
}
