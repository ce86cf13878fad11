import { inputSchemaValidator } from "../access/argument-schema";
import type { AccessSnapshot } from "../access/types";
import { guardContent } from "../catalog/content-guard";
import { cleanMeta } from "../catalog/surface";
import type { UpstreamResult } from "../connectors";
import { canonicalHash } from "../ledger/canonical";

/**
 * A tool result against the tool's `outputSchema` (kept at refresh, `catalog/surface.ts`): a
 * successful result of a tool that declares one must carry `structuredContent` matching it
 * (MCP 2025-11-25, server/tools "Output Schema"). Checked on the upstream's own result, before
 * redaction can change a value's type. Null when it conforms (or nothing is declared).
 */
export function outputSchemaProblem(
  snapshot: AccessSnapshot | undefined,
  catalogEntryId: string,
  up: UpstreamResult,
): string | null {
  const schema = snapshot?.catalog.find((e) => e.id === catalogEntryId)?.outputSchema;
  if (!schema || up.result.isError === true || up.fullJson) return null;
  const compiled = inputSchemaValidator(`output:${canonicalHash(schema)}`, schema);
  if (!compiled.ok) return "the tool's output schema cannot be used";
  const structured = up.result.structuredContent;
  if (!structured || typeof structured !== "object")
    return "the upstream result has no structuredContent though the tool declares an output schema";
  try {
    if (compiled.validate(structured) === true) return null;
  } catch {
    return "the upstream result could not be checked against the tool's output schema";
  }
  const first = compiled.validate.errors?.[0];
  return `the upstream result does not match the tool's output schema${first ? ` (${first.instancePath || "/"} ${first.message ?? ""})` : ""}`;
}

/** The upstream result's `_meta`: bounded, without the gateway's own keys, and guarded like content. */
export function upstreamResultMeta(
  up: UpstreamResult,
  secrets: string[],
): Record<string, unknown> | undefined {
  const meta = cleanMeta(up.result._meta);
  if (!meta) return undefined;
  const g = guardContent(
    { content: [], structuredContent: meta },
    { secretValues: secrets, injectionMode: "redact" },
  );
  return (g.result.structuredContent as Record<string, unknown> | undefined) ?? undefined;
}
