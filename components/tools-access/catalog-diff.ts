/**
 * Catalog review helpers for the browser: the tool-version diff (shared with the server, which
 * is pure and browser-safe), a reviewed-version reader and a bounded line diff.
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

// Line diff

export type LineDiffRow = { kind: "same" | "added" | "removed"; text: string };

/** Lines compared per side (LCS table ≤ 500 × 500 cells); beyond it the rest is one change. */
const MAX_DIFF_LINES = 500;

/**
 * Line-level diff of two texts, for the old-against-new view of a description. Written by hand
 * (the `diff` package is not a dependency): common prefix and suffix lines, then an LCS over the
 * middle, bounded by {@link MAX_DIFF_LINES} per side. Word diffs of prose interleave old and new
 * words into something neither version says; whole lines side by side stay readable.
 */
export function diffLines(before: string, after: string): LineDiffRow[] {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const rows: LineDiffRow[] = a.slice(0, start).map((text) => ({ kind: "same", text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length > MAX_DIFF_LINES || midB.length > MAX_DIFF_LINES) {
    for (const text of midA) rows.push({ kind: "removed", text });
    for (const text of midB) rows.push({ kind: "added", text });
  } else {
    const n = midA.length;
    const m = midB.length;
    const lcs = new Uint16Array((n + 1) * (m + 1));
    const at = (i: number, j: number) => lcs[i * (m + 1) + j] ?? 0;
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * (m + 1) + j] =
          midA[i] === midB[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        rows.push({ kind: "same", text: midA[i] ?? "" });
        i++;
        j++;
      } else if (at(i + 1, j) >= at(i, j + 1)) {
        rows.push({ kind: "removed", text: midA[i++] ?? "" });
      } else {
        rows.push({ kind: "added", text: midB[j++] ?? "" });
      }
    }
    while (i < n) rows.push({ kind: "removed", text: midA[i++] ?? "" });
    while (j < m) rows.push({ kind: "added", text: midB[j++] ?? "" });
  }
  for (const text of a.slice(endA)) rows.push({ kind: "same", text });
  return rows;
}
