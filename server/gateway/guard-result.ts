import type { Decision } from "../access/types";
import { REDACTED, redactPaths } from "../audit/summarize";
import { type ContentFinding, guardContent, type InjectionMode } from "../catalog/content-guard";
import type { UpstreamResult } from "../connectors";
import { jsonShapeProblem } from "../contracts/json-shape";
import { ServiceError } from "../errors";
import type { ToolResult } from "./outcome";

/** The deepest upstream result accepted (deeper: `upstream_error`, never a crash). */
export const MAX_RESULT_DEPTH = 128;

/** Replaces every released secret value anywhere in a result (its serialized form). */
export function scrubSecrets(json: string, secrets: readonly string[]): string {
  let out = json;
  for (const s of secrets) {
    if (s.length < 4) continue;
    const encoded = JSON.stringify(s).slice(1, -1); // the value as it appears inside a JSON string
    out = out.split(encoded).join(REDACTED);
  }
  return out;
}

export interface Guarded {
  result: ToolResult;
  json: string;
  bytes: number;
  truncated: boolean;
  fullJson: string | null;
  findings: ContentFinding[];
  blocked: boolean;
}

/**
 * Guards a result before anyone sees it: the depth bound (results are untrusted JSON, bounded
 * before anything recursive walks them), policy redaction pointers on structured content, the
 * content guard (secret-shaped values and the connection's own released secrets redacted,
 * invisible characters stripped, prompt-injection spans removed), and the size bound (beyond
 * it, a truncated result plus a stored artifact — both guarded).
 */
export function guardResult(
  up: UpstreamResult,
  decision: Decision,
  secrets: string[],
  maxBytes: number,
  injectionMode: InjectionMode = "redact",
): Guarded {
  if (jsonShapeProblem(up.result, { maxDepth: MAX_RESULT_DEPTH, maxNodes: 2_000_000 }))
    throw new ServiceError(
      "upstream_error",
      `the upstream result nests deeper than ${MAX_RESULT_DEPTH} levels`,
    );
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
