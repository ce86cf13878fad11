import { z } from "zod";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { logError } from "../log";
import { AuditCallsFilters, listAuditCalls } from "./audit-calls";

/** The most rows one export carries (the response says so in `x-audit-export-limit`). */
export const EXPORT_CAP = 50_000;
/** Rows read per query while streaming (keyset pagination, so memory stays flat). */
export const EXPORT_BATCH = 500;

export const AuditExportQuery = AuditCallsFilters.extend({
  format: z.enum(["csv", "jsonl"]).default("csv"),
  /** A smaller cap than the default (never a larger one). */
  limit: z.coerce.number().int().min(1).max(EXPORT_CAP).default(EXPORT_CAP),
});
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

export const CSV_COLUMNS = [
  "time",
  "invocation_id",
  "agent",
  "tool",
  "tool_title",
  "decision",
  "reason",
  "outcome",
  "error",
  "latency_ms",
  "policies",
  "profiles",
  "run_id",
  "issue",
  "events",
] as const;

/**
 * One CSV cell. A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, CR
 * first) is prefixed with `'` (OWASP "CSV injection"); cells with a comma, quote or line break
 * are quoted with doubled quotes (RFC 4180).
 */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

type Call = Awaited<ReturnType<typeof listAuditCalls>>["calls"][number];

function csvRow(c: Call): string {
  const names = (list: { id: string; name: string | null }[]) => list.map((p) => p.name ?? p.id).join("; ");
  return [
    c.createdAt.toISOString(),
    c.invocationId,
    c.agentName ?? c.agentId,
    c.toolName,
    c.toolTitle,
    c.decision,
    c.reasonCode,
    c.outcome,
    c.errorCode,
    c.latencyMs,
    names(c.policies),
    names(c.profiles),
    c.runId,
    c.issueIdentifier ?? c.issueId,
    c.events.map((e) => e.eventType).join(" "),
  ]
    .map(csvCell)
    .join(",");
}

/**
 * The grouped audit of the current filter as a download: CSV (one row per call) or JSONL (one
 * call with its events per line), streamed in keyset batches and capped at `limit` rows. The
 * events are the trail's redacted summaries; nothing else is read, so no secret can appear.
 */
export async function exportAuditCalls(
  ctx: ServiceContext,
  companyId: string,
  q: AuditExportQuery,
): Promise<Response> {
  await requireCompany(ctx, companyId, "tools:view_audit");
  const { format, limit, ...filters } = q;
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let sent = 0;
  let started = false;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          if (format === "csv") controller.enqueue(encoder.encode(`${CSV_COLUMNS.join(",")}\r\n`));
        }
        if (done) return controller.close();
        const page = await listAuditCalls(ctx, companyId, {
          ...filters,
          cursor,
          limit: Math.min(EXPORT_BATCH, limit - sent),
        });
        const rows = page.calls;
        sent += rows.length;
        const lines = rows.map((c) => (format === "csv" ? `${csvRow(c)}\r\n` : `${JSON.stringify(c)}\n`));
        if (lines.length) controller.enqueue(encoder.encode(lines.join("")));
        cursor = page.nextCursor ?? undefined;
        if (!page.nextCursor || sent >= limit) done = true;
      } catch (err) {
        logError("audit.export_failed", err, { companyId });
        controller.error(err);
      }
    },
  });
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "-");
  return new Response(stream, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${filters.kind}-${stamp}.${format}"`,
      "cache-control": "no-store",
      "x-audit-export-limit": String(limit),
    },
  });
}
