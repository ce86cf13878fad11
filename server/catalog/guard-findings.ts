/** Content-guard findings: what was found where, deduplicated and capped per call. */

export type ContentFindingKind = "secret" | "injection" | "invisible" | "tool_call_shape";

export interface ContentFinding {
  kind: ContentFindingKind;
  /** JSON pointer into the result (`/content/0/text`, `/structuredContent/items/3/body`). */
  path: string;
  /** What was found; never contains a secret value. */
  detail: string;
}

/** Distinct findings returned per call; the rest are summarised in one last finding. */
export const MAX_FINDINGS = 100;

export class FindingLog {
  private readonly entries = new Map<string, { finding: ContentFinding; count: number }>();
  private readonly dropped = new Map<ContentFindingKind, number>();

  add(kind: ContentFindingKind, path: string, label: string, detail: string, n = 1): void {
    const key = `${kind}\u0000${path}\u0000${label}`;
    const e = this.entries.get(key);
    if (e) {
      e.count += n;
      return;
    }
    if (this.entries.size >= MAX_FINDINGS) {
      this.dropped.set(kind, (this.dropped.get(kind) ?? 0) + n);
      return;
    }
    this.entries.set(key, { finding: { kind, path, detail }, count: n });
  }

  list(): ContentFinding[] {
    const out = [...this.entries.values()].map(({ finding, count }) =>
      count > 1 ? { ...finding, detail: `${finding.detail} (×${count})` } : finding,
    );
    for (const [kind, n] of this.dropped) {
      out.push({ kind, path: "", detail: `${n} more ${kind} findings not listed` });
    }
    return out;
  }
}
