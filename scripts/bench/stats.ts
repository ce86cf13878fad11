/** Latency summaries and plain-text tables for `npm run bench`. */

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    count: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1]! : Number.NaN,
    mean: s.length ? sum / s.length : Number.NaN,
  };
}

export const ms = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : "–");
export const mib = (kib: number) => (kib > 0 ? `${(kib / 1024).toFixed(0)} MiB` : "–");

/** A left/right aligned text table: numbers (and "–") right-aligned, text left-aligned. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const numeric = head.map((_, i) => rows.every((r) => /^[-–+0-9.,x%× ]*$/.test(String(r[i] ?? ""))));
  const line = (r: string[]) =>
    r.map((c, i) => (numeric[i] && i > 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)]
    .map((l) => `  ${l.trimEnd()}`)
    .join("\n");
}
