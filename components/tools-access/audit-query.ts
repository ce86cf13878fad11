/**
 * The audit page's URL filters as API queries; no hooks, so the page (a server component)
 * computes the same query, and its first page, as the client does.
 */

/** The filter part of the URL (`?from=&to=&agent=&tool=&decision=&outcome=&event=`). */
export interface AuditFilterParams {
  from: string | null;
  to: string | null;
  agent: string | null;
  tool: string | null;
  decision: string | null;
  outcome: string | null;
  event: string | null;
}

/** The API query (`GET /audit/calls`, `/audit/export`) of the URL's filters. */
export function callsQuery(
  p: AuditFilterParams,
  kind: "calls" | "other",
  scope: { runId?: string; issueId?: string } = {},
): Record<string, string | undefined> {
  return {
    kind,
    from: p.from ?? undefined,
    to: p.to ?? undefined,
    agentId: p.agent ?? undefined,
    tool: p.tool?.trim() || undefined,
    decision: p.decision ?? undefined,
    outcome: kind === "calls" ? (p.outcome ?? undefined) : undefined,
    eventType: p.event ?? undefined,
    runId: scope.runId,
    issueId: scope.issueId,
  };
}

/** `2026-12-03T06:00:00.000Z` → the `datetime-local` value in the viewer's zone (`2026-12-03T07:00`). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A `datetime-local` value (the viewer's zone) → an ISO instant, or null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A stable key of a calls query, to tell whether the server-rendered page still applies. */
export function callsQueryKey(query: Record<string, string | undefined>): string {
  return JSON.stringify(
    Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== "")
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
