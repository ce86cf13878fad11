/**
 * Catalog review helpers for the browser: the tool-version diff (shared with the server, which
 * is pure and browser-safe), a reviewed-version reader and a bounded word diff.
 */
import type { ToolVersion } from "@/server/contracts/catalog-diff";

export type {
  FieldChange,
  SchemaChanges,
  ToolVersion,
  ToolVersionDiff,
} from "@/server/contracts/catalog-diff";
// The diff itself is the server's (pure, browser-safe) implementation, so the review screen
// shows exactly what the catalog compares.
export { diffToolVersions } from "@/server/contracts/catalog-diff";

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function toToolVersion(
  value: Record<string, unknown> | null,
  fallbackName: string,
): ToolVersion | null {
  if (!isObject(value)) return null;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    name: typeof value.name === "string" ? value.name : fallbackName,
    title: text(value.title),
    description: text(value.description),
    inputSchema: isObject(value.inputSchema) ? value.inputSchema : null,
    annotations: isObject(value.annotations) ? value.annotations : null,
  };
}

// Word diff

export type DiffPart = { kind: "same" | "added" | "removed"; text: string };

/** Input compared per side; longer text is cut (and marked) before diffing. */
export const MAX_DIFF_CHARS = 4_000;
/** Token bound per side for the LCS table (≤ 1,000 × 1,000 cells). */
const MAX_DIFF_TOKENS = 1_000;

const tokens = (s: string) => s.split(/(\s+)/).filter((t) => t !== "");

/**
 * Word-level diff of two texts (whitespace kept as tokens): common prefix and suffix, then an
 * LCS over the middle. Each side is cut at {@link MAX_DIFF_CHARS}; if the middle still has too
 * many tokens it is shown as one removal and one addition.
 */
export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokens(before.slice(0, MAX_DIFF_CHARS));
  const b = tokens(after.slice(0, MAX_DIFF_CHARS));
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart["kind"], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  for (const t of a.slice(0, start)) push("same", t);
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length > MAX_DIFF_TOKENS || midB.length > MAX_DIFF_TOKENS) {
    push("removed", midA.join(""));
    push("added", midB.join(""));
  } else {
    const n = midA.length;
    const m = midB.length;
    // lcs[i][j] = LCS length of midA[i..] and midB[j..], flattened.
    const lcs = new Uint16Array((n + 1) * (m + 1));
    const at = (i: number, j: number) => lcs[i * (m + 1) + j] ?? 0;
    const tokA = (i: number) => midA[i] ?? "";
    const tokB = (j: number) => midB[j] ?? "";
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * (m + 1) + j] =
          tokA(i) === tokB(j) ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (tokA(i) === tokB(j)) {
        push("same", tokA(i));
        i++;
        j++;
      } else if (at(i + 1, j) >= at(i, j + 1)) {
        push("removed", tokA(i++));
      } else {
        push("added", tokB(j++));
      }
    }
    while (i < n) push("removed", tokA(i++));
    while (j < m) push("added", tokB(j++));
  }
  for (const t of a.slice(endA)) push("same", t);
  if (before.length > MAX_DIFF_CHARS || after.length > MAX_DIFF_CHARS) {
    push("same", " … (cut for the comparison)");
  }
  return parts.filter((p) => p.text !== "");
}
