import type { UpstreamResult, UpstreamTarget } from "../connectors";
import { recordAttempt } from "../ledger/record-attempt";
import { runtimeCapacity } from "../runtime";
import { execContextOf, executeInvocation } from "./execute";
import { agentText } from "./mcp-describe";
import { GatewayRpcError } from "./mcp-errors";
import type { McpMethodContext } from "./mcp-methods";
import { attemptRefusal, type ToolResult } from "./outcome";

/**
 * A governed request that is not `tools/call` — `resources/read`, `prompts/get`,
 * `resources/subscribe`, `completion/complete` — through the same steps as a call: one ledger
 * row and its audit events, the one `decide` on the resolved catalog entry (with `args`
 * checked against its input schema: a prompt's arguments), then the upstream request, its
 * answer guarded (content guard, secrets, policy redaction) and bounded like a tool result.
 *
 * `run` returns the upstream answer wrapped as a tool result (`content` / `structuredContent`)
 * and `unwrap` turns the guarded one back. A refusal the agent may learn about (rate limit,
 * approval, upstream failure) is a JSON-RPC error with the refusal's `code` in `data`; a hidden
 * entry has already been answered by the caller as unknown.
 */
export async function governedRequest<T>(
  ctx: McpMethodContext,
  input: {
    catalogEntryId: string;
    /** The ledger's label for the call (`<slug>__<name>`). */
    label: string;
    args: Record<string, unknown>;
    schemaless?: boolean;
    run: (upstream: UpstreamTarget) => Promise<UpstreamResult>;
    unwrap: (guarded: ToolResult) => T;
    /** What a hidden or unknown entry answers (the same error as one that does not exist). */
    hidden: () => GatewayRpcError;
  },
): Promise<T> {
  const { db, gw } = ctx;
  const attempt = await recordAttempt(db, {
    actorType: "gateway_session",
    actorId: gw.sessionId,
    context: { ...gw, sessionValid: true },
    sessionId: gw.sessionId,
    toolName: input.label,
    catalogEntryId: input.catalogEntryId,
    arguments: input.args,
    schemaless: input.schemaless,
    now: new Date(),
    runtime: runtimeCapacity(gw.companyId),
    accessVersion: gw.accessVersion,
  });
  if (attempt.outcome === "approval_required") throw approvalUnsupported(attempt.invocation.id);
  if (attempt.outcome !== "allow") {
    const r = attemptRefusal(attempt);
    if (r.code === "tool_denied") throw input.hidden();
    throw refusalError(r);
  }
  const outcome = await executeInvocation(
    db,
    execContextOf(gw),
    attempt.invocation,
    attempt.decision,
    attempt.canonicalArguments!,
    { leaseToken: attempt.leaseToken, snapshot: attempt.snapshot, operation: input.run },
  );
  if (!outcome.ok) throw refusalError(outcome);
  return input.unwrap(outcome.result);
}

/**
 * A policy that requires approval, met by a request that is not a tool call: refused, not held.
 * Approval exists to review a side effect before it happens and to run the reviewed call once;
 * a read (`resources/read`, `prompts/get`, `completion/complete`, a subscription) has no side
 * effect to review, and its answer — what a person would approve the agent to learn — is only
 * known after it ran, so a card on the issue thread could only show the URI or prompt name and
 * a later re-run could return different content. The ledger keeps the `approval_required`
 * decision; the agent gets `approval_unsupported` at once instead of waiting for a card that
 * never comes (docs/gateway.md "Resources and prompts").
 */
function approvalUnsupported(invocationId: string): GatewayRpcError {
  return refusalError({
    code: "approval_unsupported",
    message:
      "a policy requires approval for this request, but approvals apply to tool calls only; an administrator can allow or hide this resource or prompt instead",
    invocationId,
  });
}

/** A refusal as a JSON-RPC error: the upstream's own error when it sent one, else -32603 with our code. */
export function refusalError(r: {
  code: string;
  message: string;
  invocationId?: string;
  retryAfterMs?: number | null;
  rpcError?: { code: number; message: string; data?: unknown };
  details?: unknown;
}): GatewayRpcError {
  // Upstream text the agent reads: through the same guard as descriptions (injection spans,
  // invisible characters), already scrubbed of the connection's credentials and bounded.
  if (r.rpcError)
    return new GatewayRpcError(
      r.rpcError.code,
      agentText(r.rpcError.message, 500) ?? "the upstream refused the request",
      r.rpcError.data,
    );
  // Invalid prompt arguments are the caller's mistake: -32602 (readable message, issues in data).
  const code = r.code === "arguments_invalid" ? -32602 : -32603;
  return new GatewayRpcError(code, `${r.code}: ${r.message}`, {
    code: r.code,
    ...(r.invocationId ? { invocationId: r.invocationId } : {}),
    ...(r.retryAfterMs != null ? { retryAfterMs: r.retryAfterMs } : {}),
    ...(r.details ? { details: r.details } : {}),
  });
}
