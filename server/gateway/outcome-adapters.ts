import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Served } from "@/server/contracts/api/common";
import type { GatewayCallResult } from "@/server/contracts/api/gateway";
import { PAPERCLIP_META_PREFIX } from "../catalog/surface";
import { artifactLink } from "./artifact-link";
import type { GatewayCallOutcome } from "./outcome";

/**
 * The one mapping of a governed call's outcome onto each adapter: the REST routes (status +
 * `{error}`) and the MCP endpoint (a tool result). `outcome.ts` decides the outcome itself.
 */

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

/**
 * The MCP form of an outcome: refusals are tool results the model can read, not protocol errors.
 *
 * A refusal carries its `{code, message, …}` in `_meta["io.paperclip/error"]` always, and in
 * `structuredContent` only when the tool declares no `outputSchema`: the TypeScript SDK client
 * (1.32 and earlier) checks an error result's `structuredContent` against the tool's output
 * schema too and throws `-32602 Structured content does not match` instead of returning the
 * refusal (modelcontextprotocol/typescript-sdk#1943), so an agent would never see, say, the
 * action request it must wait for. The spec asks for conforming structured results only of
 * successful calls.
 */
export function mcpToolResult(
  outcome: GatewayCallOutcome,
  tool: { declaresOutputSchema: boolean } = { declaresOutputSchema: false },
): CallToolResult {
  if (outcome.ok) {
    const content = outcome.result.content as CallToolResult["content"];
    return {
      // A truncated result links to the whole one (artifacts.ts). A replay says so last, as
      // text a model reads (models are not shown `_meta`); the recorded items come first and
      // unchanged, so a client reading `content[0]` or `structuredContent` sees the first answer.
      content: [
        ...content,
        ...(outcome.artifactId ? [artifactLink(outcome.artifactId, outcome.invocationId)] : []),
        ...(outcome.notice ? [{ type: "text" as const, text: outcome.notice }] : []),
      ],
      ...(outcome.result.structuredContent ? { structuredContent: outcome.result.structuredContent } : {}),
      ...(outcome.result.isError ? { isError: true } : {}),
      // The upstream's `_meta` is kept; the gateway's own keys are namespaced (`io.paperclip/…`).
      _meta: {
        ...(outcome.result._meta ?? {}),
        [`${PAPERCLIP_META_PREFIX}invocationId`]: outcome.invocationId,
        [`${PAPERCLIP_META_PREFIX}replayed`]: outcome.replayed,
        ...(outcome.artifactId ? { [`${PAPERCLIP_META_PREFIX}artifactId`]: outcome.artifactId } : {}),
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
    ...(tool.declaresOutputSchema ? {} : { structuredContent: structured }),
    _meta: { [`${PAPERCLIP_META_PREFIX}error`]: structured },
  };
}
