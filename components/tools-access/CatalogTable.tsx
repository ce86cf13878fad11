"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import type { DateInput } from "../format";
import { ActionButtons } from "../ui/ActionButtons";
import { Badge } from "../ui/Badge";
import { CodeBlock } from "../ui/CodeBlock";
import { cn, focusRing } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { RiskBadge } from "./badges";
import { CatalogDiff } from "./CatalogDiff";
import { toToolVersion } from "./catalog-diff";
import { Checkbox } from "./controls";
import { CATALOG_STATUS_LABELS, invalidateConnections, plural } from "./gateway";
import { useSeededQuery } from "./hooks";
import { LongText } from "./LongText";
import { QuarantineBadge } from "./QuarantineBadge";
import { QueryCard } from "./QueryCard";
import { useToolsApi } from "./ToolsApiProvider";
import type {
  CatalogEntryStatus,
  CatalogReviewAction,
  CatalogReviewInput,
  CatalogReviewResult,
  ConnectionCatalogEntry,
  ConnectionCatalogResponse,
} from "./types";

export interface CatalogTableProps {
  companyId: string;
  connectionId: string;
  /** Without it there are no checkboxes and no review buttons. */
  canEdit: boolean;
  /** Seeds the `toolsAccessKeys.connectionCatalog(companyId, connectionId)` query. */
  initialEntries?: ConnectionCatalogEntry[];
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
  className?: string;
}

/** What "repeatable" means, for the column header and the card's note (docs/access.md). */
export const REPEAT_HELP =
  "A write or destructive tool is not run twice for an identical call (same arguments) in the same run: the second call gets the first result again, marked as replayed. Mark a tool repeatable when calling it again is meant to do something again (polling, status checks, deliberate repeats): each call then runs, and only a call that repeats an explicit idempotency key is replayed.";

const STATUS_ORDER: readonly CatalogEntryStatus[] = ["active", "quarantined", "disabled", "removed"];

/** Entries a person can approve or disable: new or changed tools, and disabled ones. */
export function isReviewable(entry: ConnectionCatalogEntry): boolean {
  return entry.status === "quarantined" || entry.status === "disabled";
}

function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/**
 * The tools a connection offers (`GET /connections/:id/catalog`) with their risk and review
 * state. Quarantined and disabled tools can be selected and approved or disabled in bulk.
 */
export function CatalogTable({
  companyId,
  connectionId,
  canEdit,
  initialEntries,
  now,
  className,
}: CatalogTableProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const key = toolsAccessKeys.connectionCatalog(companyId, connectionId);
  const path = toolsApiPath(companyId, `/connections/${encodeURIComponent(connectionId)}/catalog`);
  const query = useSeededQuery(key, path, (r: ConnectionCatalogResponse) => r.entries, initialEntries);
  const entries = query.data ?? [];
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const review = useMutation({
    mutationFn: (input: CatalogReviewInput & { action: CatalogReviewAction }) =>
      api<CatalogReviewResult>(`${path}/review`, { method: "POST", body: { entries: input.entries } }),
    onSuccess: (result) => {
      client.setQueryData<ConnectionCatalogEntry[]>(key, result.entries);
      setSelected(new Set());
      return invalidateConnections(client, companyId);
    },
  });

  const repeat = useMutation({
    mutationFn: (input: { entryId: string; repeatable: boolean }) =>
      api<ConnectionCatalogEntry>(`${path}/${encodeURIComponent(input.entryId)}/repeatable`, {
        method: "POST",
        body: { repeatable: input.repeatable },
      }),
    onSuccess: (entry) => {
      client.setQueryData<ConnectionCatalogEntry[]>(key, (old) =>
        old?.map((e) => (e.id === entry.id ? { ...e, ...entry } : e)),
      );
    },
  });

  const reviewable = entries.filter(isReviewable);
  // Entries may change under the selection (a refresh, another person's review).
  const chosen = reviewable.filter((e) => selected.has(e.id));
  const allChosen = reviewable.length > 0 && chosen.length === reviewable.length;
  const counts = STATUS_ORDER.flatMap((status) => {
    const n = entries.filter((e) => e.status === status).length;
    return n > 0 ? [`${n} ${CATALOG_STATUS_LABELS[status].toLowerCase()}`] : [];
  });
  const quarantined = entries.filter((e) => e.status === "quarantined").length;

  function toggle(entryId: string, on: boolean) {
    setSelected((old) => {
      const next = new Set(old);
      if (on) next.add(entryId);
      else next.delete(entryId);
      return next;
    });
  }

  function toggleDiff(entryId: string) {
    setExpanded((old) => {
      const next = new Set(old);
      if (next.has(entryId)) next.delete(entryId);
      else next.add(entryId);
      return next;
    });
  }

  function submit(action: CatalogReviewAction) {
    if (chosen.length === 0) return;
    review.mutate({ action, entries: chosen.map((e) => ({ id: e.id, action })) });
  }

  const showSelect = canEdit && reviewable.length > 0;
  const pendingAction = review.isPending ? review.variables?.action : undefined;

  return (
    <QueryCard
      testId="catalog-table"
      className={className}
      title="Catalog"
      description="The tools this connection offers. New write and destructive tools, and any tool that changed upstream, stay quarantined until a person approves them."
      query={query}
      refreshing="Refreshing the catalog"
      loadError="Could not load the catalog"
      notices={
        <>
          {entries.length > 0 ? (
            <p className="text-sm text-zinc-600" data-testid="catalog-summary">
              {plural(entries.length, "tool", "tools")}: {counts.join(" · ")}.
              {quarantined > 0 ? (
                <span className="font-medium text-amber-800">
                  {" "}
                  {plural(quarantined, "tool waits", "tools wait")} for review.
                </span>
              ) : null}
            </p>
          ) : null}
          {entries.some((e) => (e.riskOverride ?? e.risk) !== "read") ? (
            <p className="text-xs text-zinc-500" data-testid="catalog-repeat-help">
              {REPEAT_HELP}
            </p>
          ) : null}
          {showSelect ? (
            <div
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-2.5"
              role="toolbar"
              aria-label="Review selected tools"
            >
              <Checkbox
                label={`Select all ${reviewable.length} needing review`}
                checked={allChosen}
                onChange={(event) =>
                  setSelected(event.target.checked ? new Set(reviewable.map((e) => e.id)) : new Set())
                }
                data-testid="catalog-select-all"
              />
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm text-zinc-600" aria-live="polite">
                  {chosen.length} selected
                </span>
                <ActionButtons
                  actions={[
                    {
                      label: "Approve selected",
                      pending: pendingAction === "approve",
                      pendingLabel: "Approving…",
                      disabled: chosen.length === 0 || review.isPending,
                      onClick: () => submit("approve"),
                      "data-testid": "catalog-approve",
                    },
                    {
                      label: "Disable selected",
                      pending: pendingAction === "disable",
                      pendingLabel: "Disabling…",
                      variant: "secondary",
                      disabled: chosen.length === 0 || review.isPending,
                      onClick: () => submit("disable"),
                      "data-testid": "catalog-disable",
                    },
                  ]}
                />
              </div>
            </div>
          ) : null}
          <ApiErrorAlert error={review.error} title="Could not review the selected tools" />
          <ApiErrorAlert error={repeat.error} title="Could not change whether the tool is repeatable" />
        </>
      }
      skeleton={{ rows: 3, columns: 6, label: "Loading the catalog…" }}
      isEmpty={entries.length === 0}
      empty={
        <p
          className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600"
          data-testid="catalog-empty"
        >
          No tools yet. Test the connection, then refresh the catalog to discover its tools.
        </p>
      }
    >
      <Table>
        <caption className="sr-only">Tools of this connection</caption>
        <THead>
          <TR>
            {showSelect ? (
              <TH>
                <span className="sr-only">Select</span>
              </TH>
            ) : null}
            <TH>Tool</TH>
            <TH>Risk</TH>
            <TH>
              <span title={REPEAT_HELP}>Repeat calls</span>
            </TH>
            <TH>Status</TH>
            <TH>First seen</TH>
            <TH>Last seen</TH>
          </TR>
        </THead>
        <TBody>
          {entries.map((entry) => {
            const risk = entry.riskOverride ?? entry.risk;
            const diffOpen = entry.status === "quarantined" && expanded.has(entry.id);
            const diffId = `catalog-diff-${entry.id}`;
            return (
              <Fragment key={entry.id}>
                <TR
                  data-testid="catalog-row"
                  data-entry-id={entry.id}
                  data-name={entry.name}
                  data-status={entry.status}
                  className={cn(entry.status === "removed" && "text-zinc-500")}
                >
                  {showSelect ? (
                    <TD className="w-10 align-top">
                      {isReviewable(entry) ? (
                        <Checkbox
                          label={<span className="sr-only">Select {entry.name}</span>}
                          checked={selected.has(entry.id)}
                          onChange={(event) => toggle(entry.id, event.target.checked)}
                          disabled={review.isPending}
                          data-testid="catalog-select"
                        />
                      ) : null}
                    </TD>
                  ) : null}
                  <TD className="min-w-56 align-top">
                    <code className="font-mono text-sm font-medium text-zinc-900">{entry.name}</code>
                    {entry.title ? <span className="block text-xs text-zinc-700">{entry.title}</span> : null}
                    {entry.description ? (
                      <LongText
                        text={entry.description}
                        className="mt-0.5 [&>p]:text-xs [&>p]:text-zinc-500"
                        testId="catalog-description"
                      />
                    ) : null}
                    {(entry.findings?.length ?? 0) > 0 ? (
                      <Badge tone="danger" className="mt-1" data-testid="catalog-findings-badge">
                        {plural(entry.findings?.length ?? 0, "warning", "warnings")} for the reviewer
                      </Badge>
                    ) : null}
                    {entry.inputSchema ? (
                      <details className="mt-1 text-xs">
                        <summary
                          className={cn("cursor-pointer rounded text-accent-700 hover:underline", focusRing)}
                        >
                          Input schema<span className="sr-only"> of {entry.name}</span>
                        </summary>
                        <CodeBlock
                          code={toJson(entry.inputSchema)}
                          language="json"
                          title={`${entry.name} input schema`}
                          className="mt-2 max-w-xl"
                          data-testid={`catalog-schema-${entry.name}`}
                        />
                      </details>
                    ) : null}
                  </TD>
                  <TD className="align-top">
                    <RiskBadge risk={risk} />
                    {entry.riskOverride ? (
                      <span className="mt-0.5 block text-xs text-zinc-500">set by an admin</span>
                    ) : null}
                  </TD>
                  <TD className="align-top text-xs" data-testid="catalog-repeat">
                    {risk === "read" ? (
                      <span className="text-zinc-500">Always runs (a read)</span>
                    ) : canEdit && entry.status !== "removed" ? (
                      <Checkbox
                        label={
                          <span className="text-xs">
                            Repeatable<span className="sr-only"> ({entry.name})</span>
                          </span>
                        }
                        description={
                          entry.repeatable
                            ? "Every call runs; only a repeated idempotency key replays"
                            : "An identical call in the same run replays the first result"
                        }
                        checked={entry.repeatable === true}
                        disabled={repeat.isPending}
                        onChange={(event) =>
                          repeat.mutate({ entryId: entry.id, repeatable: event.currentTarget.checked })
                        }
                        data-testid="catalog-repeatable"
                      />
                    ) : entry.repeatable ? (
                      <span>Repeatable: every call runs</span>
                    ) : (
                      <span className="text-zinc-500">Identical calls replay</span>
                    )}
                  </TD>
                  <TD className="align-top">
                    {entry.status === "active" ? (
                      <Badge tone="success" data-status="active">
                        Active
                      </Badge>
                    ) : (
                      <QuarantineBadge status={entry.status} />
                    )}
                    {entry.status === "quarantined" && entry.reviewedVersion ? (
                      <span className="mt-0.5 block text-xs text-amber-800">Changed since its review</span>
                    ) : null}
                    {entry.status === "quarantined" ? (
                      <button
                        type="button"
                        className={cn(
                          "mt-1 block cursor-pointer rounded text-xs text-accent-700 hover:underline",
                          focusRing,
                        )}
                        aria-expanded={diffOpen}
                        aria-controls={diffOpen ? diffId : undefined}
                        onClick={() => toggleDiff(entry.id)}
                        data-testid="catalog-diff-toggle"
                      >
                        {diffOpen ? "Hide what changed" : "What changed"}
                        <span className="sr-only"> in {entry.name}</span>
                      </button>
                    ) : null}
                  </TD>
                  <TD className="align-top text-xs">
                    <RelativeTime value={entry.firstSeenAt} now={now} />
                  </TD>
                  <TD className="align-top text-xs">
                    <RelativeTime value={entry.lastSeenAt} now={now} />
                  </TD>
                </TR>
              </Fragment>
            );
          })}
        </TBody>
      </Table>
      {/* Below the table, not in a row of it: the table scrolls sideways in a narrow column, and a
          diff read through that window is cut off. */}
      {entries
        .filter((entry) => entry.status === "quarantined" && expanded.has(entry.id))
        .map((entry) => (
          <section
            key={entry.id}
            id={`catalog-diff-${entry.id}`}
            aria-label={`What changed in ${entry.name}`}
            className="mt-3 space-y-2 rounded-lg border border-zinc-200 bg-zinc-50/60 p-3"
            data-testid="catalog-diff-row"
            data-entry-id={entry.id}
          >
            <h4 className="text-sm font-medium text-zinc-900">
              What changed in <code className="font-mono">{entry.name}</code>
            </h4>
            <CatalogDiff
              reviewed={toToolVersion(entry.reviewedVersion, entry.name)}
              current={entry}
              findings={entry.findings}
            />
          </section>
        ))}
    </QueryCard>
  );
}
