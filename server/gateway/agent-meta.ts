import { guardContent } from "../catalog/content-guard";

const METADATA_GUARD = { secretValues: [] as string[], injectionMode: "redact" as const };

/**
 * An upstream `_meta` object an agent reads (already bounded at refresh, catalog/surface.ts),
 * through the same content guard as descriptions and output schemas: secret shapes redacted,
 * injection spans and invisible characters removed from every string in it.
 */
export function agentMeta(meta: unknown): Record<string, unknown> | undefined {
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) return undefined;
  const guarded = guardContent(
    { content: [], structuredContent: meta as Record<string, unknown> },
    METADATA_GUARD,
  ).result.structuredContent;
  return guarded && typeof guarded === "object" ? (guarded as Record<string, unknown>) : undefined;
}
