/**
 * What a person reviewing a catalog tool should be warned about: prompt injection or tool-call
 * shaped text in its upstream metadata (the content guard's own detection, in `flag` mode) and a
 * "read-only" claim beside a write or destructive risk class. Pure; computed on the server each
 * time the catalog is served, so the warning follows the current detection rules and the stored
 * (already sanitised, bounded) text — the browser only shows it.
 */
import type { CatalogFinding, CatalogFindingKind } from "@/server/contracts/api/catalog";
import { guardText } from "./content-guard";

export interface ReviewedTool {
  title?: string | null;
  description?: string | null;
  inputSchema?: Record<string, unknown> | null;
  annotations?: Record<string, unknown> | null;
  /** The effective risk (an admin's override, else the classified one). */
  risk: string;
}

/** Findings per tool (the UI lists them; more would only repeat the point). */
export const MAX_REVIEW_FINDINGS = 20;

// Words an upstream uses to claim a tool changes nothing. Bounded alternation, linear.
const READ_ONLY_WORDS =
  /\b(?:read[\s-]?only|does\s+not\s+(?:modify|change|write|delete)|no\s+side[\s-]effects|harmless|safe\s+to\s+call)\b/i;

/** The input schema as text (parameter descriptions are metadata a model reads too), bounded. */
function schemaText(schema: Record<string, unknown> | null | undefined): string {
  if (!schema) return "";
  try {
    return JSON.stringify(schema).slice(0, 64 * 1024);
  } catch {
    return "";
  }
}

/**
 * Warnings for one catalog tool, at most {@link MAX_REVIEW_FINDINGS}. `field` names where it was
 * found (`title`, `description`, `inputSchema`, `annotations.readOnlyHint`).
 */
export function reviewFindings(tool: ReviewedTool): CatalogFinding[] {
  const out: CatalogFinding[] = [];
  const scan = (field: string, text: string | null | undefined) => {
    if (!text) return;
    const { findings } = guardText(text, { secretValues: [], injectionMode: "flag" });
    for (const f of findings) {
      const kind: CatalogFindingKind | null =
        f.kind === "injection" ||
        f.kind === "tool_call_shape" ||
        f.kind === "invisible" ||
        f.kind === "secret"
          ? f.kind
          : null;
      if (kind) out.push({ kind, field, detail: f.detail });
    }
  };
  scan("title", tool.title);
  scan("description", tool.description);
  scan("inputSchema", schemaText(tool.inputSchema));

  if (tool.risk === "write" || tool.risk === "destructive") {
    if (tool.annotations?.readOnlyHint === true) {
      out.push({
        kind: "read_only_claim",
        field: "annotations.readOnlyHint",
        detail: `the server says read-only (readOnlyHint), but the tool is classified ${tool.risk}`,
      });
    }
    if (tool.annotations?.destructiveHint === false && tool.risk === "destructive") {
      out.push({
        kind: "read_only_claim",
        field: "annotations.destructiveHint",
        detail:
          "the server says not destructive (destructiveHint: false), but the tool is classified destructive",
      });
    }
    const words = READ_ONLY_WORDS.exec(`${tool.title ?? ""} ${tool.description ?? ""}`);
    if (words) {
      out.push({
        kind: "read_only_claim",
        field: "description",
        detail: `the description says "${words[0]}", but the tool is classified ${tool.risk}`,
      });
    }
  }
  return out.slice(0, MAX_REVIEW_FINDINGS);
}
