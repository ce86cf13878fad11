"use client";

import { type InfiniteData, useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useEffect, useId, useMemo, useState } from "react";
import { type DateInput, formatDuration, humanize } from "../format";
import { Button } from "../ui/Button";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { TableSkeleton } from "../ui/Skeleton";
import { Spinner } from "../ui/Spinner";
import { FullRow, Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { AuditEventDetails } from "./AuditEventDetails";
import { AuditFilterBar, type AuditFilterInput, NO_FILTERS } from "./AuditFilterBar";
import { normalizeAuditFilters, toolsAccessKeys, toolsApiPath, withQuery } from "./api";
import { DecisionBadge, RiskBadge } from "./badges";
import { useToolsApi } from "./ToolsApiProvider";
import type { AuditEvent, AuditFilters, AuditPage, NamedRef } from "./types";

export { AUDIT_EVENT_TYPES } from "./AuditFilterBar";
export type { AuditEvent } from "./types";

export const AUDIT_EMPTY_TEXT = {
  title: "No tool calls recorded yet.",
  body: "Calls agents make through the gateway appear here.",
} as const;

export interface AuditTimelineProps {
  companyId: string;
  /** Server-rendered first page for the unfiltered view. */
  initialEvents: AuditEvent[];
  initialCursor: string | null;
  /** For the agent filter. */
  agents: NamedRef[];
  /** Page size sent as `limit`; the server's default when omitted. */
  pageSize?: number;
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
  /** Fixed filters from the URL (e.g. a run's transcript links here with its run id). */
  scope?: Pick<AuditFilters, "runId" | "issueId">;
  className?: string;
}

const TOOL_FILTER_DELAY_MS = 300;

/** `value`, once it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

const byteFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** "512 B", "1.5 KB", "2.3 MB" */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${byteFormat.format(bytes / 1024)} KB`;
  return `${byteFormat.format(bytes / (1024 * 1024))} MB`;
}

const linkClass = cn("rounded text-accent-700 hover:underline", focusRing);

/** Searchable timeline of gateway events (`GET /audit`), newest first, with expandable details. */
export function AuditTimeline({
  companyId,
  scope,
  initialEvents,
  initialCursor,
  agents,
  pageSize,
  now,
  className,
}: AuditTimelineProps) {
  const api = useToolsApi();
  const id = useId();
  const [input, setInput] = useState<AuditFilterInput>(NO_FILTERS);
  const { agentId, tool, decision, eventType } = input;
  const debouncedTool = useDebounced(tool, TOOL_FILTER_DELAY_MS);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const filters: AuditFilters = normalizeAuditFilters({
    ...scope,
    agentId,
    tool: debouncedTool,
    decision: decision || undefined,
    eventType,
  });
  // The server-rendered first page already honours the scope; only user filters refetch.
  const filtered = Object.keys(filters).length > Object.keys(normalizeAuditFilters(scope ?? {})).length;
  const initialData: InfiniteData<AuditPage, string | null> | undefined = filtered
    ? undefined
    : { pages: [{ events: initialEvents, nextCursor: initialCursor }], pageParams: [null] };

  const query = useInfiniteQuery({
    queryKey: toolsAccessKeys.audit(companyId, filters),
    queryFn: ({ pageParam, signal }) =>
      api<AuditPage>(
        withQuery(toolsApiPath(companyId, "/audit"), {
          agentId: filters.agentId,
          runId: filters.runId,
          issueId: filters.issueId,
          tool: filters.tool,
          decision: filters.decision,
          eventType: filters.eventType,
          cursor: pageParam,
          limit: pageSize,
        }),
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    initialData,
  });

  const events = useMemo(() => {
    const seen = new Set<string>();
    const out: AuditEvent[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const event of page.events) {
        if (seen.has(event.id)) continue;
        seen.add(event.id);
        out.push(event);
      }
    }
    return out;
  }, [query.data]);

  const agentNames = useMemo(() => new Map(agents.map((a) => [a.id, a.name])), [agents]);

  function toggle(eventId: string) {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(eventId)) next.delete(eventId);
      else next.add(eventId);
      return next;
    });
  }

  function clearFilters() {
    setInput(NO_FILTERS);
  }

  return (
    <div className={cn("space-y-4", className)} data-testid="audit-timeline">
      <AuditFilterBar
        id={id}
        agents={agents}
        values={input}
        onChange={(patch) => setInput((prev) => ({ ...prev, ...patch }))}
        onClear={clearFilters}
        onRefresh={() => void query.refetch()}
        refreshing={query.isFetching}
      />

      <div aria-live="polite" className="sr-only">
        {query.isFetching ? "Loading tool calls…" : `${events.length} events shown`}
      </div>

      <ApiErrorAlert
        error={query.error}
        title="Could not load the audit log"
        retry={() => void query.refetch()}
      />

      {query.isPending ? (
        <TableSkeleton rows={5} columns={7} label="Loading tool calls…" />
      ) : events.length === 0 ? (
        query.isError ? null : filtered ? (
          <div
            className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-10 text-center text-sm text-zinc-600"
            data-testid="audit-empty-filtered"
          >
            <p>No events match these filters.</p>
            <Button variant="secondary" size="sm" className="mt-4" onClick={clearFilters}>
              Clear filters
            </Button>
          </div>
        ) : (
          <div
            className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-12 text-center"
            data-testid="audit-empty"
          >
            <p className="mx-auto max-w-prose text-sm text-zinc-600">
              <span className="block text-base font-semibold text-zinc-900">{AUDIT_EMPTY_TEXT.title}</span>{" "}
              {AUDIT_EMPTY_TEXT.body}
            </p>
          </div>
        )
      ) : (
        <Table data-testid="audit-table" aria-busy={query.isFetching || undefined}>
          <caption className="sr-only">Tool calls, newest first</caption>
          <THead>
            <TR>
              <TH>When</TH>
              <TH>Decision</TH>
              <TH>Tool</TH>
              <TH>Agent</TH>
              <TH>Context</TH>
              <TH className="text-right">Latency · size</TH>
              <TH>
                <span className="sr-only">Details</span>
              </TH>
            </TR>
          </THead>
          <TBody>
            {events.map((event) => {
              const open = expanded.has(event.id);
              const detailsId = `${id}-details-${event.id}`;
              const agentName =
                event.agentName ?? (event.agentId ? agentNames.get(event.agentId) : null) ?? null;
              return (
                <Fragment key={event.id}>
                  <TR
                    data-testid="audit-row"
                    data-event-id={event.id}
                    data-event-type={event.eventType}
                    data-decision={event.decision ?? undefined}
                    className={cn(open && "bg-zinc-50")}
                  >
                    <TD className="whitespace-nowrap">
                      <RelativeTime value={event.createdAt} now={now} className="text-zinc-900" />
                      <span className="block text-xs text-zinc-500">{humanize(event.eventType)}</span>
                    </TD>
                    <TD>
                      {event.decision ? (
                        <DecisionBadge decision={event.decision} />
                      ) : (
                        <span className="text-zinc-500">—</span>
                      )}
                      {event.reasonCode ? (
                        <code
                          className="mt-1 block font-mono text-xs text-zinc-600"
                          data-testid="audit-reason"
                        >
                          {event.reasonCode}
                        </code>
                      ) : null}
                    </TD>
                    <TD>
                      {event.toolName ? (
                        <span className="flex flex-wrap items-center gap-2">
                          <code className="font-mono text-xs text-zinc-900">{event.toolName}</code>
                          {event.risk ? <RiskBadge risk={event.risk} /> : null}
                        </span>
                      ) : (
                        <span className="text-zinc-500">—</span>
                      )}
                    </TD>
                    <TD className="whitespace-nowrap">
                      {agentName ?? (
                        <span className="text-zinc-500">{event.agentId ? "Unknown agent" : "—"}</span>
                      )}
                    </TD>
                    <TD className="whitespace-nowrap text-xs">
                      {event.runId ? (
                        <Link
                          href={`/c/${encodeURIComponent(companyId)}/runs/${encodeURIComponent(event.runId)}`}
                          className={cn(linkClass, "font-mono")}
                          data-testid="audit-run-link"
                        >
                          Run {event.runId.slice(0, 8)}
                        </Link>
                      ) : null}
                      {event.issueId ? (
                        <Link
                          href={`/c/${encodeURIComponent(companyId)}/issues/${encodeURIComponent(event.issueId)}`}
                          className={cn(linkClass, "block font-mono")}
                          data-testid="audit-issue-link"
                        >
                          {event.issueIdentifier ?? `Issue ${event.issueId.slice(0, 8)}`}
                        </Link>
                      ) : null}
                      {!event.runId && !event.issueId ? <span className="text-zinc-500">—</span> : null}
                    </TD>
                    <TD className="text-right whitespace-nowrap tabular-nums text-xs">
                      <span className="block">
                        {event.latencyMs === null ? "—" : formatDuration(event.latencyMs)}
                      </span>
                      <span className="block text-zinc-500">
                        {event.resultSize === null ? "" : formatBytes(event.resultSize)}
                      </span>
                    </TD>
                    <TD className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-expanded={open}
                        aria-controls={detailsId}
                        onClick={() => toggle(event.id)}
                        data-testid="audit-row-toggle"
                      >
                        {open ? "Hide" : "Details"}
                        <span className="sr-only"> for event {event.seq}</span>
                      </Button>
                    </TD>
                  </TR>
                  {open ? (
                    <FullRow
                      id={detailsId}
                      className="bg-zinc-50"
                      data-testid="audit-row-details"
                      colSpan={7}
                      cellClassName="px-4 pt-1 pb-4"
                    >
                      <AuditEventDetails event={event} companyId={companyId} />
                    </FullRow>
                  ) : null}
                </Fragment>
              );
            })}
          </TBody>
        </Table>
      )}

      {query.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            aria-busy={query.isFetchingNextPage || undefined}
            data-testid="audit-load-more"
          >
            {query.isFetchingNextPage ? (
              <>
                <Spinner size="sm" label="" aria-hidden="true" className="text-current" />
                Loading…
              </>
            ) : (
              "Load more"
            )}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
