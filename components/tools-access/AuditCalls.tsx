"use client";

import { type InfiniteData, useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useEffect, useId, useMemo, useRef, useState } from "react";
import {
  codeLabel,
  DECISION_LABELS,
  DECISIONS,
  EVENT_TYPE_LABELS,
  EVENT_TYPES,
  OUTCOME_LABELS,
  REASON_LABELS,
} from "@/components/labels";
import { EXECUTION_STATUSES } from "@/server/contracts/values";
import { type DateInput, formatDuration } from "../format";
import { Badge, type BadgeTone } from "../ui/Badge";
import { Button, buttonStyles } from "../ui/Button";
import { CodeLabel } from "../ui/CodeLabel";
import { cn, focusRing } from "../ui/cn";
import { InputField, namedOptions, SelectField, valueOptions } from "../ui/FieldControls";
import { RelativeTime } from "../ui/RelativeTime";
import { TableSkeleton } from "../ui/Skeleton";
import { Spinner } from "../ui/Spinner";
import { FullRow, Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { useDebounced } from "../use-debounced";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { AuditEventDetails, PolicyName } from "./AuditEventDetails";
import { toolsAccessKeys, toolsApiPath, withQuery } from "./api";
import { type AuditParams, useAuditParams } from "./audit-params";
import { callsQuery, callsQueryKey, fromLocalInput, toLocalInput } from "./audit-query";
import { DecisionBadge } from "./badges";
import { useToolsApi } from "./ToolsApiProvider";
import type { AuditCall, AuditCallsPage, NamedRef } from "./types";

export const AUDIT_CALLS_EMPTY_TEXT = {
  title: "No tool calls recorded yet.",
  body: "Calls agents make through the gateway appear here, one row per call.",
} as const;

/** The cap the export answers with (`x-audit-export-limit`); docs/access.md says the same. */
export const AUDIT_EXPORT_LIMIT = 50_000;

const OUTCOME_TONES: Partial<Record<string, BadgeTone>> = {
  succeeded: "success",
  failed: "danger",
  timeout: "danger",
  denied: "danger",
  outcome_unknown: "warning",
  awaiting_approval: "warning",
  deferred: "warning",
  running: "info",
  pending: "info",
};

const linkClass = cn("rounded text-accent-700 hover:underline", focusRing);

export interface AuditCallsProps {
  companyId: string;
  /** `calls`: one row per invocation; `other`: events without one (discovery, sweeps). */
  kind: "calls" | "other";
  agents: NamedRef[];
  /** The first page the server rendered for `initialKey`'s filters. */
  initial?: { key: string; page: AuditCallsPage };
  scope?: { runId?: string; issueId?: string };
  pageSize?: number;
  now?: DateInput;
}

/** The grouped audit: one row per governed call, its events folded inside; filters in the URL. */
export function AuditCalls({ companyId, kind, agents, initial, scope, pageSize, now }: AuditCallsProps) {
  const api = useToolsApi();
  const id = useId();
  const [params, setParams] = useAuditParams();
  const query = callsQuery(params, kind, scope);
  const key = callsQueryKey(query);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const initialData: InfiniteData<AuditCallsPage, string | null> | undefined =
    initial && initial.key === key ? { pages: [initial.page], pageParams: [null] } : undefined;

  const result = useInfiniteQuery({
    queryKey: [...toolsAccessKeys.auditAll(companyId), "calls", key],
    queryFn: ({ pageParam, signal }) =>
      api<AuditCallsPage>(
        withQuery(toolsApiPath(companyId, "/audit/calls"), { ...query, cursor: pageParam, limit: pageSize }),
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    initialData,
  });

  const calls = useMemo(() => {
    const seen = new Set<string>();
    const out: AuditCall[] = [];
    for (const page of result.data?.pages ?? [])
      for (const c of page.calls) {
        if (seen.has(c.id)) continue;
        seen.add(c.id);
        out.push(c);
      }
    return out;
  }, [result.data]);

  const filtered = Boolean(
    params.from ||
      params.to ||
      params.agent ||
      params.tool ||
      params.decision ||
      params.outcome ||
      params.event,
  );
  const exportHref = (format: "csv" | "jsonl") =>
    withQuery(toolsApiPath(companyId, "/audit/export"), { ...query, format });

  function toggle(callId: string) {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(callId)) next.delete(callId);
      else next.add(callId);
      return next;
    });
  }

  const clear = () =>
    void setParams({
      from: null,
      to: null,
      agent: null,
      tool: null,
      decision: null,
      outcome: null,
      event: null,
    });

  return (
    <div className="space-y-4" data-testid="audit-calls" data-kind={kind}>
      <AuditCallsFilters
        id={id}
        kind={kind}
        agents={agents}
        params={params}
        setParams={(patch) => void setParams(patch)}
        onClear={clear}
        filtered={filtered}
        onRefresh={() => void result.refetch()}
        refreshing={result.isFetching}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-zinc-600">
          Export the current filter: at most {AUDIT_EXPORT_LIMIT.toLocaleString("en-US")} rows, redacted as
          shown.
        </p>
        <div className="flex gap-2">
          <a
            href={exportHref("csv")}
            download
            className={buttonStyles({ variant: "secondary", size: "sm" })}
            data-testid="audit-export-csv"
          >
            Export CSV
          </a>
          <a
            href={exportHref("jsonl")}
            download
            className={buttonStyles({ variant: "secondary", size: "sm" })}
            data-testid="audit-export-jsonl"
          >
            Export JSONL
          </a>
        </div>
      </div>

      <div aria-live="polite" className="sr-only">
        {result.isFetching
          ? "Loading tool calls…"
          : `${calls.length} ${kind === "calls" ? "calls" : "events"} shown`}
      </div>

      <ApiErrorAlert
        error={result.error}
        title="Could not load the audit log"
        retry={() => void result.refetch()}
      />

      {result.isPending ? (
        <TableSkeleton rows={5} columns={7} label="Loading tool calls…" />
      ) : calls.length === 0 ? (
        result.isError ? null : filtered ? (
          <div
            className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-10 text-center text-sm text-zinc-600"
            data-testid="audit-empty-filtered"
          >
            <p>Nothing matches these filters.</p>
            <Button variant="secondary" size="sm" className="mt-4" onClick={clear}>
              Clear filters
            </Button>
          </div>
        ) : (
          <div
            className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-12 text-center"
            data-testid="audit-empty"
          >
            <p className="mx-auto max-w-prose text-sm text-zinc-600">
              <span className="block text-base font-semibold text-zinc-900">
                {kind === "calls" ? AUDIT_CALLS_EMPTY_TEXT.title : "No other events recorded."}
              </span>{" "}
              {kind === "calls"
                ? AUDIT_CALLS_EMPTY_TEXT.body
                : "Tool listings and maintenance events that belong to no single call appear here."}
            </p>
          </div>
        )
      ) : (
        <Table data-testid="audit-calls-table" aria-busy={result.isFetching || undefined}>
          <caption className="sr-only">
            {kind === "calls" ? "Tool calls" : "Other events"}, newest first
          </caption>
          <THead>
            <TR>
              <TH>When</TH>
              <TH>Agent</TH>
              <TH>Tool</TH>
              <TH>Decision</TH>
              <TH>{kind === "calls" ? "Outcome" : "Event"}</TH>
              <TH className="text-right">Duration</TH>
              <TH>Policies · profile</TH>
              <TH>
                <span className="sr-only">Events</span>
              </TH>
            </TR>
          </THead>
          <TBody>
            {calls.map((c) => {
              const open = expanded.has(c.id);
              const detailsId = `${id}-events-${c.id}`;
              return (
                <Fragment key={c.id}>
                  <TR
                    data-testid="audit-call-row"
                    data-call-id={c.id}
                    data-decision={c.decision ?? undefined}
                    data-outcome={c.outcome ?? undefined}
                    className={cn(open && "bg-zinc-50")}
                  >
                    <TD className="whitespace-nowrap">
                      <RelativeTime value={c.createdAt} now={now} className="text-zinc-900" />
                      <CallContext companyId={companyId} call={c} />
                    </TD>
                    <TD className="whitespace-nowrap">
                      {c.agentName ?? (
                        <span className="text-zinc-500">{c.agentId ? "Unknown agent" : "—"}</span>
                      )}
                    </TD>
                    <TD>
                      {c.toolName ? (
                        <span className="flex flex-col">
                          {c.toolTitle ? <span className="text-zinc-900">{c.toolTitle}</span> : null}
                          <code className="font-mono text-xs text-zinc-600" data-testid="audit-call-tool">
                            {c.toolName}
                          </code>
                        </span>
                      ) : (
                        <span className="text-zinc-500">—</span>
                      )}
                    </TD>
                    <TD>
                      {c.decision ? (
                        <span title={c.decision} data-code={c.decision}>
                          <DecisionBadge decision={c.decision} />
                        </span>
                      ) : (
                        <span className="text-zinc-500">—</span>
                      )}
                      {c.reasonCode ? (
                        <CodeLabel
                          label={codeLabel(REASON_LABELS, c.reasonCode)}
                          code={c.reasonCode}
                          className="mt-1 block text-xs text-zinc-600"
                        />
                      ) : null}
                    </TD>
                    <TD>
                      {kind === "calls" && c.outcome ? (
                        <Badge tone={OUTCOME_TONES[c.outcome] ?? "neutral"} data-outcome={c.outcome}>
                          <CodeLabel label={codeLabel(OUTCOME_LABELS, c.outcome)} code={c.outcome} />
                        </Badge>
                      ) : kind === "other" && c.events[0] ? (
                        <CodeLabel
                          label={codeLabel(EVENT_TYPE_LABELS, c.events[0].eventType)}
                          code={c.events[0].eventType}
                        />
                      ) : (
                        <span className="text-zinc-500">—</span>
                      )}
                      {c.errorCode ? (
                        <CodeLabel
                          label={codeLabel(REASON_LABELS, c.errorCode)}
                          code={c.errorCode}
                          className="mt-1 block text-xs text-zinc-600"
                        />
                      ) : null}
                    </TD>
                    <TD className="text-right whitespace-nowrap tabular-nums text-xs">
                      {c.latencyMs === null ? "—" : formatDuration(c.latencyMs)}
                    </TD>
                    <TD className="text-xs">
                      {c.policies.length ? (
                        <span className="flex flex-col">
                          {c.policies.map((p) => (
                            <PolicyName key={p.id} id={p.id} name={p.name} />
                          ))}
                        </span>
                      ) : (
                        <span className="text-zinc-500">No policy</span>
                      )}
                      {c.profiles.length ? (
                        <span className="mt-1 block text-zinc-600" data-testid="audit-call-profiles">
                          Profile: {c.profiles.map((p) => p.name ?? p.id.slice(0, 8)).join(", ")}
                        </span>
                      ) : null}
                    </TD>
                    <TD className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-expanded={open}
                        aria-controls={detailsId}
                        onClick={() => toggle(c.id)}
                        data-testid="audit-call-toggle"
                      >
                        {open ? "Hide" : `${c.events.length} event${c.events.length === 1 ? "" : "s"}`}
                        <span className="sr-only"> of the {c.toolName ?? "event"} call</span>
                      </Button>
                    </TD>
                  </TR>
                  {open ? (
                    <FullRow
                      id={detailsId}
                      className="bg-zinc-50"
                      data-testid="audit-call-events"
                      colSpan={8}
                      cellClassName="px-4 pt-1 pb-4"
                    >
                      <CallEvents call={c} companyId={companyId} />
                    </FullRow>
                  ) : null}
                </Fragment>
              );
            })}
          </TBody>
        </Table>
      )}

      {result.hasNextPage ? (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void result.fetchNextPage()}
            disabled={result.isFetchingNextPage}
            aria-busy={result.isFetchingNextPage || undefined}
            data-testid="audit-load-more"
          >
            {result.isFetchingNextPage ? (
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

function CallContext({ companyId, call }: { companyId: string; call: AuditCall }) {
  return (
    <span className="block text-xs">
      {call.runId ? (
        <Link
          href={`/c/${encodeURIComponent(companyId)}/runs/${encodeURIComponent(call.runId)}`}
          className={cn(linkClass, "font-mono")}
          data-testid="audit-run-link"
        >
          Run {call.runId.slice(0, 8)}
        </Link>
      ) : null}
      {call.issueId ? (
        <Link
          href={`/c/${encodeURIComponent(companyId)}/issues/${encodeURIComponent(call.issueIdentifier ?? call.issueId)}`}
          className={cn(linkClass, "ml-2 font-mono")}
          data-testid="audit-issue-link"
        >
          {call.issueIdentifier ?? `Issue ${call.issueId.slice(0, 8)}`}
        </Link>
      ) : null}
    </span>
  );
}

/** The call's events in the order they happened, each with its redacted details. */
function CallEvents({ call, companyId }: { call: AuditCall; companyId: string }) {
  const names = useMemo(() => new Map(call.policies.map((p) => [p.id, p.name])), [call.policies]);
  return (
    <ol className="space-y-3" aria-label="Events of this call, oldest first">
      {call.events.map((e) => (
        <li
          key={e.id}
          className="rounded-md border border-zinc-200 bg-white p-3"
          data-testid="audit-call-event"
          data-event-type={e.eventType}
        >
          <p className="mb-2 flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium text-zinc-900">
              <CodeLabel label={codeLabel(EVENT_TYPE_LABELS, e.eventType)} code={e.eventType} />
            </span>
            {e.decision ? (
              <span title={e.decision} data-code={e.decision}>
                <DecisionBadge decision={e.decision} />
              </span>
            ) : null}
            {e.reasonCode ? (
              <CodeLabel
                label={codeLabel(REASON_LABELS, e.reasonCode)}
                code={e.reasonCode}
                className="text-xs text-zinc-600"
              />
            ) : null}
            {e.latencyMs !== null ? (
              <span className="text-xs text-zinc-500 tabular-nums">{formatDuration(e.latencyMs)}</span>
            ) : null}
          </p>
          <AuditEventDetails event={e} companyId={companyId} policyNames={names} />
        </li>
      ))}
    </ol>
  );
}

type FilterPatch = Partial<
  Pick<AuditParams, "from" | "to" | "agent" | "tool" | "decision" | "outcome" | "event">
>;

/** Filters of the grouped audit; each change goes straight into the URL (`?decision=deny`). */
function AuditCallsFilters({
  id,
  kind,
  agents,
  params,
  setParams,
  onClear,
  filtered,
  onRefresh,
  refreshing,
}: {
  id: string;
  kind: "calls" | "other";
  agents: NamedRef[];
  params: AuditParams;
  setParams: (patch: FilterPatch) => void;
  onClear: () => void;
  filtered: boolean;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  // The tool name is typed: the URL follows 300 ms after the last key.
  const [tool, setTool] = useState(params.tool ?? "");
  const debouncedTool = useDebounced(tool, 300);
  // Only what the person typed goes to the URL (once settled); a URL change (Clear, Back)
  // comes back into the field. The ref keeps the two from echoing each other.
  const pushed = useRef(debouncedTool);
  useEffect(() => {
    if (pushed.current === debouncedTool) return;
    pushed.current = debouncedTool;
    setParams({ tool: debouncedTool.trim() ? debouncedTool : null });
  }, [debouncedTool, setParams]);
  useEffect(() => {
    const fromUrl = params.tool ?? "";
    if (fromUrl !== pushed.current.trim()) {
      pushed.current = fromUrl;
      setTool(fromUrl);
    }
  }, [params.tool]);
  return (
    <search aria-label="Filter the audit">
      <form
        onSubmit={(e) => e.preventDefault()}
        className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-4"
      >
        <InputField
          id={`${id}-from`}
          label="From"
          type="datetime-local"
          value={toLocalInput(params.from)}
          onValueChange={(v) => setParams({ from: fromLocalInput(v) })}
          data-testid="audit-filter-from"
        />
        <InputField
          id={`${id}-to`}
          label="To"
          type="datetime-local"
          value={toLocalInput(params.to)}
          onValueChange={(v) => setParams({ to: fromLocalInput(v) })}
          data-testid="audit-filter-to"
        />
        <SelectField
          id={`${id}-agent`}
          label="Agent"
          value={params.agent ?? ""}
          onValueChange={(v) => setParams({ agent: v || null })}
          placeholder="All agents"
          options={namedOptions(agents)}
          data-testid="audit-filter-agent"
        />
        <InputField
          id={`${id}-tool`}
          label="Tool"
          type="search"
          value={tool}
          onValueChange={setTool}
          placeholder="github__create_issue"
          autoComplete="off"
          spellCheck={false}
          data-testid="audit-filter-tool"
        />
        <SelectField
          id={`${id}-decision`}
          label="Decision"
          value={params.decision ?? ""}
          onValueChange={(v) => setParams({ decision: (v || null) as FilterPatch["decision"] })}
          placeholder="Any decision"
          options={valueOptions(DECISIONS, DECISION_LABELS)}
          data-testid="audit-filter-decision"
        />
        {kind === "calls" ? (
          <SelectField
            id={`${id}-outcome`}
            label="Outcome"
            value={params.outcome ?? ""}
            onValueChange={(v) => setParams({ outcome: (v || null) as FilterPatch["outcome"] })}
            placeholder="Any outcome"
            options={valueOptions(EXECUTION_STATUSES, (s) => codeLabel(OUTCOME_LABELS, s))}
            data-testid="audit-filter-outcome"
          />
        ) : null}
        <SelectField
          id={`${id}-event`}
          label={kind === "calls" ? "Has event" : "Event"}
          value={params.event ?? ""}
          onValueChange={(v) => setParams({ event: (v || null) as FilterPatch["event"] })}
          placeholder="Any event"
          options={valueOptions(EVENT_TYPES, EVENT_TYPE_LABELS)}
          data-testid="audit-filter-event-type"
        />
        <div className="flex items-end gap-2">
          <Button variant="secondary" onClick={onRefresh} disabled={refreshing} data-testid="audit-refresh">
            Refresh
          </Button>
          {filtered ? (
            <Button variant="ghost" onClick={onClear} data-testid="audit-clear-filters">
              Clear
            </Button>
          ) : null}
        </div>
      </form>
    </search>
  );
}
