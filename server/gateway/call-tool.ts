import type { Db } from "@/db/client";
import { createActionRequestInTx } from "../approvals/action-requests";
import { consumeApprovalForAgent } from "../approvals/execute-approved";
import { SessionNotLive } from "../ledger/hot-statements";
import { recordAttempt } from "../ledger/record-attempt";
import { markStage, trackCall } from "../lifecycle/drain";
import { runtimeCapacity } from "../runtime";
import { execContextOf, executeInvocation } from "./execute";
import {
  attemptRefusal,
  type GatewayCallInput,
  type GatewayCallOutcome,
  refused,
  replayedOutcome,
} from "./outcome";
import type { LiveCall } from "./relay/live";
import { type GatewayContext, verifiedGatewayContext } from "./sessions";

export { MAX_RESULT_DEPTH } from "./guard-result";
export { GatewayCallInput, type GatewayCallOutcome, type ToolResult } from "./outcome";

/**
 * The governed call (docs/architecture.md "The governed call"), as an orchestrator of its
 * steps: a retry carrying an approval consumes it (`approvals/execute-approved.ts`); otherwise
 * the ledger and decision (`ledger/record-attempt.ts`), an action request and issue-thread card
 * when approval is required (in the same transaction, `approvals/action-requests.ts`), then
 * execution of an allowed call (`execute.ts`: upstream, `guard-result.ts`,
 * `ledger/record-outcome.ts`). Every outcome is mapped onto REST and MCP by `outcome.ts`.
 */
export async function gatewayCallTool(
  db: Db,
  gw: GatewayContext,
  input: GatewayCallInput,
  now = new Date(),
  /** MCP only: the request `_meta` to forward upstream (`forwardedMeta` in mcp-tools.ts). */
  requestMeta?: Record<string, unknown>,
  live?: LiveCall,
): Promise<GatewayCallOutcome> {
  // While the process drains (SIGTERM) a new call is refused before anything is written or
  // run (`server_draining`, retryable elsewhere); one admitted here is waited for.
  return trackCall(() => callOnce(db, gw, input, now, requestMeta, live), input.tool);
}

async function callOnce(
  db: Db,
  gw: GatewayContext,
  input: GatewayCallInput,
  now: Date,
  requestMeta: Record<string, unknown> | undefined,
  live: LiveCall | undefined,
): Promise<GatewayCallOutcome> {
  if (input.approvedActionRequestId)
    return consumeApprovalForAgent(db, await verifiedGatewayContext(gw), input, now);
  try {
    return await governedCall(db, gw, input, now, requestMeta, live);
  } catch (err) {
    // A cached session that the first ledger write could not verify (revoked, expired, run
    // ended, access changed), or that reached a path needing a verified one: nothing was
    // written. Read the session again (a dead one is refused there, 401) and start over.
    if (!(err instanceof SessionNotLive) || !gw.unverified) throw err;
    return governedCall(db, await gw.unverified.reauthenticate(), input, new Date(), requestMeta, live);
  }
}

async function governedCall(
  db: Db,
  gw: GatewayContext,
  input: GatewayCallInput,
  now: Date,
  requestMeta: Record<string, unknown> | undefined,
  live: LiveCall | undefined,
): Promise<GatewayCallOutcome> {
  markStage("verify_session");
  if (gw.unverified && gw.accessVersion === undefined) gw = await verifiedGatewayContext(gw);
  markStage("decide");
  const { unverified: _unverified, ...context } = gw;
  const attempt = await recordAttempt(db, {
    actorType: "gateway_session",
    actorId: gw.sessionId,
    context: { ...context, sessionValid: true },
    sessionId: gw.sessionId,
    toolName: input.tool,
    arguments: input.arguments,
    idempotencyKey: input.idempotencyKey ?? null,
    now,
    // Local (stdio) tools defer when no runtime slot can be had (in-memory, no I/O).
    runtime: runtimeCapacity(gw.companyId),
    accessVersion: gw.accessVersion,
    ...(gw.unverified && gw.accessVersion !== undefined
      ? { unverifiedSession: { sessionId: gw.sessionId, accessVersion: gw.accessVersion } }
      : {}),
    onApprovalRequired: (tx, a) =>
      createActionRequestInTx(tx, gw, a.invocation, a.decision, a.canonicalArguments, now),
  });
  const inv = attempt.invocation;
  if (attempt.outcome === "replayed") return replayedOutcome(inv);
  if (attempt.outcome === "approval_required") {
    const a = attempt.approval as
      | { pathMissing?: boolean; actionRequestId?: string; expiresAt?: string; issueUrl?: string }
      | undefined;
    if (!a || a.pathMissing) {
      return refused(
        "approval_path_missing",
        "this call needs a person's approval, and this run has no issue thread to ask on; it was not run",
        { invocationId: inv.id },
      );
    }
    return refused(
      "approval_required",
      `a person must approve this call on the issue thread; then retry with approvedActionRequestId ${a.actionRequestId}`,
      {
        invocationId: inv.id,
        actionRequestId: a.actionRequestId ?? null,
        expiresAt: a.expiresAt,
        issueUrl: a.issueUrl,
      },
    );
  }
  if (attempt.outcome !== "allow") return attemptRefusal(attempt);
  markStage("execute");
  const { resultJson: _json, ...outcome } = await executeInvocation(
    db,
    execContextOf(gw),
    inv,
    attempt.decision,
    attempt.canonicalArguments!,
    { leaseToken: attempt.leaseToken, snapshot: attempt.snapshot, requestMeta, live },
  );
  return outcome;
}
