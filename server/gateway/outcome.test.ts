import { describe, expect, it } from "vitest";
import { ServiceError } from "../errors";
import type { AttemptResult } from "../ledger/record-attempt";
import { artifactLink } from "./artifact-link";
import {
  attemptRefusal,
  executionFailure,
  type GatewayCallOutcome,
  LEDGER_ANSWERS,
  type LedgerOutcome,
  OUTCOME_CODES,
  type OutcomeCode,
  refused,
  refusedBy,
  replayedOutcome,
  replayNotice,
  unclaimedRefusal,
} from "./outcome";
import { mcpToolResult, restOutcome, restResponse } from "./outcome-adapters";

/** The statuses the REST adapters answered with before the mapping had one home (docs/gateway.md). */
const EXPECTED_STATUS: Record<OutcomeCode, number> = {
  invalid_request: 400,
  arguments_invalid: 400,
  tool_denied: 403,
  approval_path_missing: 403,
  command_not_approved: 403,
  runtime_host_untrusted: 403,
  runtime_isolation_unavailable: 403,
  slot_isolation_unavailable: 403,
  approval_not_found: 404,
  approval_required: 409,
  invocation_in_progress: 409,
  invocation_outcome_unknown: 409,
  approval_wrong_run: 409,
  approval_tool_mismatch: 409,
  approval_arguments_mismatch: 409,
  approval_signature_invalid: 409,
  approval_expired: 409,
  approval_schema_changed: 409,
  approval_no_longer_allowed: 409,
  approval_declined: 409,
  approval_superseded: 409,
  approval_consumed: 409,
  approval_pending: 409,
  approval_invalid: 409,
  rate_limited: 429,
  upstream_error: 502,
  result_blocked: 502,
  missing_secret: 503,
  upstream_authorization_required: 409,
  user_grant_required: 409,
  runtime_deferred: 503,
  runtime_suppressed: 503,
  runtime_crashed: 502,
  runtime_stopped: 503,
  runtime_start_failed: 502,
  runtime_unavailable: 503,
  upstream_timeout: 504,
  upstream_cancelled: 499,
};

const INV = "00000000-0000-4000-8000-000000000001";

describe("one outcome mapping for REST and MCP", () => {
  it("lists exactly the expected codes", () => {
    expect(Object.keys(OUTCOME_CODES).sort()).toEqual(Object.keys(EXPECTED_STATUS).sort());
  });

  for (const code of Object.keys(OUTCOME_CODES) as OutcomeCode[]) {
    it(`maps ${code} onto REST and MCP`, async () => {
      const outcome = refused(code, `message for ${code}`, { invocationId: INV, retryAfterMs: 250 });
      expect(outcome.status).toBe(EXPECTED_STATUS[code]);

      const rest = restOutcome(outcome);
      expect(rest.status).toBe(EXPECTED_STATUS[code]);
      expect(rest.body).toEqual({
        error: { code, message: `message for ${code}`, invocationId: INV, retryAfterMs: 250 },
      });
      const res = restResponse(outcome);
      if (!(res instanceof Response)) throw new Error("a refusal is answered as a response");
      expect(res.status).toBe(EXPECTED_STATUS[code]);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual(rest.body);

      const mcp = mcpToolResult(outcome);
      const structured = { code, message: `message for ${code}`, invocationId: INV, retryAfterMs: 250 };
      expect(mcp).toEqual({
        isError: true,
        content: [{ type: "text", text: `${code}: message for ${code}` }],
        structuredContent: structured,
        _meta: { "io.paperclip/error": structured },
      });
      // A tool with an output schema: the refusal only in _meta (typescript-sdk#1943).
      expect(mcpToolResult(outcome, { declaresOutputSchema: true })).toEqual({
        isError: true,
        content: [{ type: "text", text: `${code}: message for ${code}` }],
        _meta: { "io.paperclip/error": structured },
      });
    });
  }

  it("maps a success onto REST (the outcome itself) and MCP (the result with _meta)", () => {
    const ok: GatewayCallOutcome = {
      ok: true,
      invocationId: INV,
      replayed: false,
      result: { content: [{ type: "text", text: "hi" }], structuredContent: { a: 1 } },
      truncated: true,
      artifactId: "art",
    };
    expect(restOutcome(ok)).toEqual({ status: 200, body: ok });
    expect(restResponse(ok)).toBe(ok);
    expect(mcpToolResult(ok)).toEqual({
      // A truncated result links to its stored artifact.
      content: [{ type: "text", text: "hi" }, artifactLink("art", INV)],
      structuredContent: { a: 1 },
      _meta: {
        "io.paperclip/invocationId": INV,
        "io.paperclip/replayed": false,
        "io.paperclip/artifactId": "art",
      },
    });
    const replay = replayedOutcome({
      id: INV,
      companyId: INV,
      executionStatus: "succeeded",
      resultSummary: { n: 1 },
    });
    expect(mcpToolResult(replay)._meta).toEqual({
      "io.paperclip/invocationId": INV,
      "io.paperclip/replayed": true,
    });
    // A replay says so where a model reads it: the last text item over MCP, `notice` over REST.
    expect(replay.ok && replay.notice).toBe(replayNotice("identical_call"));
    expect(restOutcome(replay).body).toMatchObject({
      replayed: true,
      notice: replayNotice("identical_call"),
    });
    expect(mcpToolResult(replay).content.at(-1)).toEqual({
      type: "text",
      text: replayNotice("identical_call"),
    });
    expect(mcpToolResult({ ...ok, replayed: true, notice: "n" }).content).toEqual([
      { type: "text", text: "hi" },
      artifactLink("art", INV),
      { type: "text", text: "n" },
    ]);
    expect(mcpToolResult({ ...ok, result: { content: [], isError: true }, artifactId: null })).toEqual({
      content: [],
      isError: true,
      _meta: { "io.paperclip/invocationId": INV, "io.paperclip/replayed": false },
    });
    // The upstream's own result _meta is kept beside the gateway's keys.
    expect(
      mcpToolResult({ ...ok, result: { content: [], _meta: { "example.com/k": 1 } } })._meta,
    ).toMatchObject({
      "example.com/k": 1,
      "io.paperclip/invocationId": INV,
    });
  });

  it("carries an action request, validator issues and no null retry onto MCP", () => {
    const issues = [{ path: "/x", message: "must be string" }];
    const outcome = refused("arguments_invalid", "bad", { details: { issues }, actionRequestId: null });
    expect(mcpToolResult(outcome).structuredContent).toEqual({
      code: "arguments_invalid",
      message: "bad",
      actionRequestId: null,
      issues,
    });
    expect(restOutcome(outcome).body).toEqual({
      error: { code: "arguments_invalid", message: "bad", details: { issues }, actionRequestId: null },
    });
  });

  it("keeps a state error's own status", () => {
    const err = new ServiceError("approval_pending", "not yet");
    expect(refusedBy(err, { actionRequestId: "r" })).toEqual({
      ok: false,
      status: 409,
      code: "approval_pending",
      message: "not yet",
      actionRequestId: "r",
    });
  });
});

describe("the refusals the pipeline produces", () => {
  const attempt = (outcome: string, decision: Record<string, unknown> = {}) =>
    ({
      invocation: { id: INV },
      outcome,
      decision: { explanation: ["why"], retryAfterMs: null, reasonCode: "tool_hidden", ...decision },
    }) as unknown as AttemptResult;

  it.each([
    ["approval_required", {}, "approval_required", 409],
    ["rate_limited", { retryAfterMs: 700 }, "rate_limited", 429],
    ["deferred", {}, "runtime_deferred", 503],
    ["in_progress", {}, "invocation_in_progress", 409],
    ["deny", { reasonCode: "arguments_unstorable" }, "invalid_request", 400],
    ["deny", { reasonCode: "arguments_invalid" }, "arguments_invalid", 400],
    ["deny", {}, "tool_denied", 403],
    ["hidden", {}, "tool_denied", 403],
  ])("an attempt that is %s (%o) is %s / %i", (outcome, decision, code, status) => {
    const r = attemptRefusal(attempt(outcome, decision));
    expect([r.code, r.status, r.invocationId]).toEqual([code, status, INV]);
  });

  it("answers hidden and denied tools identically", () => {
    expect(attemptRefusal(attempt("hidden"))).toEqual(attemptRefusal(attempt("deny")));
  });

  it.each([
    [new ServiceError("missing_secret", "x"), "missing_secret", 503],
    [new ServiceError("runtime_deferred", "x", { retryAfterMs: 40 }), "runtime_deferred", 503],
    [new ServiceError("runtime_suppressed", "x"), "runtime_suppressed", 503],
    [new ServiceError("runtime_crashed", "x"), "runtime_crashed", 502],
    [new ServiceError("command_not_approved", "x"), "command_not_approved", 403],
    [new ServiceError("runtime_host_untrusted", "x"), "runtime_host_untrusted", 403],
    [new ServiceError("runtime_isolation_unavailable", "x"), "runtime_isolation_unavailable", 403],
    [new ServiceError("slot_isolation_unavailable", "x"), "slot_isolation_unavailable", 403],
    [new ServiceError("tool_input_invalid", "bad field"), "arguments_invalid", 400],
    [new ServiceError("upstream_timeout", "x"), "upstream_timeout", 504],
    [new ServiceError("not_found", "x"), "upstream_error", 502],
    [new Error("socket hang up"), "upstream_error", 502],
  ])("an execution failing with %s is %s / %i", (err, code, status) => {
    const r = executionFailure(err, INV);
    expect([r.code, r.status, r.invocationId]).toEqual([code, status, INV]);
    expect(r.message).not.toContain("socket hang up");
  });

  it("passes a deferral's retry time and a tool's input message through", () => {
    expect(
      executionFailure(new ServiceError("runtime_deferred", "x", { retryAfterMs: 40 }), INV).retryAfterMs,
    ).toBe(40);
    expect(executionFailure(new ServiceError("tool_input_invalid", "bad field"), INV).message).toBe(
      "bad field",
    );
  });

  it("answers an execution it could not claim from the row as it is now", () => {
    const row = {
      id: INV,
      companyId: INV,
      errorCode: null,
      resultSummary: null,
      resultEncrypted: null,
      idempotencyKey: null,
    };
    const code = (o: ReturnType<typeof unclaimedRefusal>) => (o.ok ? "replayed" : o.code);
    expect(code(unclaimedRefusal({ ...row, executionStatus: "running", leaseLive: true }))).toBe(
      "invocation_in_progress",
    );
    // A running row whose lease expired is not "in progress": nobody is executing it.
    expect(code(unclaimedRefusal({ ...row, executionStatus: "running", leaseLive: false }))).toBe(
      "invocation_outcome_unknown",
    );
    expect(code(unclaimedRefusal({ ...row, executionStatus: "failed", leaseLive: false }))).toBe(
      "invocation_outcome_unknown",
    );
    expect(code(unclaimedRefusal({ ...row, executionStatus: "succeeded", leaseLive: false }))).toBe(
      "replayed",
    );
  });
});

describe("the ledger outcome → HTTP status → MCP table", () => {
  const answerOf = (outcome: LedgerOutcome) => {
    const row = {
      id: INV,
      companyId: INV,
      errorCode: null,
      resultSummary: null,
      resultEncrypted: null,
      idempotencyKey: null,
    };
    if (outcome === "running")
      return unclaimedRefusal({ ...row, executionStatus: "running", leaseLive: true });
    if (outcome === "outcome_unknown")
      return unclaimedRefusal({ ...row, executionStatus: "outcome_unknown", leaseLive: false });
    return executionFailure(new ServiceError(outcome, "x", { retryAfterMs: 250 }), INV);
  };

  for (const [outcome, row] of Object.entries(LEDGER_ANSWERS) as [
    LedgerOutcome,
    (typeof LEDGER_ANSWERS)[LedgerOutcome],
  ][]) {
    it(`${outcome} → ${row.code} ${OUTCOME_CODES[row.code]}, over MCP an isError result with that code`, () => {
      const answer = answerOf(outcome);
      if (answer.ok) throw new Error("expected a refusal");
      expect(answer.code).toBe(row.code);
      expect(answer.status).toBe(OUTCOME_CODES[row.code]);
      expect(answer.retryAfterMs !== undefined).toBe(row.retryHint);
      const mcp = mcpToolResult(answer);
      expect(mcp.isError).toBe(true);
      expect(mcp.structuredContent).toMatchObject({ code: row.code, invocationId: INV });
      expect("retryAfterMs" in (mcp.structuredContent ?? {})).toBe(row.retryHint);
      // The table's execution status is one the ledger knows.
      expect(["failed", "timeout", "succeeded", "running", "outcome_unknown"]).toContain(row.executionStatus);
    });
  }

  it("a suppressed runtime is not a deferral: no retry hint, an admin must restart the slot", () => {
    const r = executionFailure(new ServiceError("runtime_suppressed", "x", { retryAfterMs: 1000 }), INV);
    expect(r).toMatchObject({ code: "runtime_suppressed", status: 503 });
    expect(r.retryAfterMs).toBeUndefined();
    expect(r.message).toContain("an admin must restart the slot");
  });

  it("every runtime and upstream failure code of the catalogue has a row", async () => {
    const { ERRORS } = await import("../errors/codes");
    const failures = Object.keys(ERRORS).filter((c) => c.startsWith("runtime_") || c.startsWith("upstream_"));
    expect(failures.filter((c) => !(c in LEDGER_ANSWERS))).toEqual([]);
  });
});
