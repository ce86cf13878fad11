"use client";

import { type InfiniteData, useInfiniteQuery } from "@tanstack/react-query";
import { Fragment, useId, useMemo, useState } from "react";
import { ACTIVITY_ENTITY_LABELS, ACTOR_TYPE_PHRASES, activityActionLabel } from "@/components/labels";
import { type DateInput, formatAbsolute, humanize } from "../format";
import { Button } from "../ui/Button";
import { CodeBlock } from "../ui/CodeBlock";
import { CodeLabel } from "../ui/CodeLabel";
import { cn } from "../ui/cn";
import { InputField } from "../ui/FieldControls";
import { RelativeTime } from "../ui/RelativeTime";
import { TableSkeleton } from "../ui/Skeleton";
import { FullRow, Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath, withQuery } from "./api";
import { useAuditParams } from "./audit-params";
import { fromLocalInput, toLocalInput } from "./audit-query";
import { useToolsApi } from "./ToolsApiProvider";
import type { AdminChange, AdminChangesPage } from "./types";
import { toJson } from "./view-helpers";

export interface AdminChangesProps {
  companyId: string;
  /** The first page the server rendered (default filters only). */
  initialPage?: AdminChangesPage;
  pageSize?: number;
  now?: DateInput;
}

function who(c: AdminChange): string {
  if (c.actorName) return c.actorName;
  const phrase = ACTOR_TYPE_PHRASES[c.actorType];
  return phrase ? phrase.charAt(0).toUpperCase() + phrase.slice(1) : humanize(c.actorType);
}

/** "Admin changes": the company's activity log, who did what to which object, newest first. */
export function AdminChanges({ companyId, initialPage, pageSize, now }: AdminChangesProps) {
  const api = useToolsApi();
  const id = useId();
  const [params, setParams] = useAuditParams();
  const query = { scope: params.scope, from: params.from ?? undefined, to: params.to ?? undefined };
  const isDefault = params.scope === "admin" && !params.from && !params.to;
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  const initialData: InfiniteData<AdminChangesPage, string | null> | undefined =
    initialPage && isDefault ? { pages: [initialPage], pageParams: [null] } : undefined;
  const result = useInfiniteQuery({
    queryKey: [...toolsAccessKeys.auditAll(companyId), "admin", query],
    queryFn: ({ pageParam, signal }) =>
      api<AdminChangesPage>(
        withQuery(toolsApiPath(companyId, "/audit/admin"), { ...query, cursor: pageParam, limit: pageSize }),
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    initialData,
  });
  const changes = useMemo(() => result.data?.pages.flatMap((p) => p.changes) ?? [], [result.data]);

  const toggle = (changeId: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(changeId)) next.delete(changeId);
      else next.add(changeId);
      return next;
    });

  return (
    <div className="space-y-4" data-testid="admin-changes">
      <search aria-label="Filter admin changes">
        <form
          onSubmit={(e) => e.preventDefault()}
          className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-3"
        >
          <InputField
            id={`${id}-from`}
            label="From"
            type="datetime-local"
            value={toLocalInput(params.from)}
            onValueChange={(v) => void setParams({ from: fromLocalInput(v) })}
            data-testid="admin-filter-from"
          />
          <InputField
            id={`${id}-to`}
            label="To"
            type="datetime-local"
            value={toLocalInput(params.to)}
            onValueChange={(v) => void setParams({ to: fromLocalInput(v) })}
            data-testid="admin-filter-to"
          />
          <label className="flex items-end gap-2 pb-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              checked={params.scope === "all"}
              onChange={(e) => void setParams({ scope: e.target.checked ? "all" : null })}
              data-testid="admin-filter-all"
              className="size-4 rounded border-zinc-300"
            />
            Include issue and run activity
          </label>
        </form>
      </search>

      <ApiErrorAlert
        error={result.error}
        title="Could not load the admin changes"
        retry={() => void result.refetch()}
      />

      {result.isPending ? (
        <TableSkeleton rows={5} columns={4} label="Loading admin changes…" />
      ) : changes.length === 0 ? (
        result.isError ? null : (
          <div
            className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-10 text-center text-sm text-zinc-600"
            data-testid="admin-changes-empty"
          >
            No administrative changes in this range.
          </div>
        )
      ) : (
        <Table data-testid="admin-changes-table" aria-busy={result.isFetching || undefined}>
          <caption className="sr-only">Administrative changes, newest first</caption>
          <THead>
            <TR>
              <TH>When</TH>
              <TH>Who</TH>
              <TH>What</TH>
              <TH>Object</TH>
              <TH>
                <span className="sr-only">Details</span>
              </TH>
            </TR>
          </THead>
          <TBody>
            {changes.map((c) => {
              const isOpen = open.has(c.id);
              const detailsId = `${id}-change-${c.id}`;
              const entity = ACTIVITY_ENTITY_LABELS[c.entityType] ?? humanize(c.entityType);
              return (
                <Fragment key={c.id}>
                  <TR
                    data-testid="admin-change-row"
                    data-action={c.action}
                    className={cn(isOpen && "bg-zinc-50")}
                  >
                    <TD className="whitespace-nowrap">
                      <RelativeTime value={c.createdAt} now={now} className="text-zinc-900" />
                      <span className="block text-xs text-zinc-500">{formatAbsolute(c.createdAt)}</span>
                    </TD>
                    <TD className="whitespace-nowrap">
                      <CodeLabel label={who(c)} code={`${c.actorType}:${c.actorId}`} />
                    </TD>
                    <TD>
                      <CodeLabel
                        label={activityActionLabel(c.action)}
                        code={c.action}
                        className="text-zinc-900"
                      />
                    </TD>
                    <TD>
                      <span className="text-zinc-600">{entity}</span>{" "}
                      {c.entityName ? (
                        <span className="font-medium text-zinc-900">{c.entityName}</span>
                      ) : c.entityId ? (
                        <code className="font-mono text-xs text-zinc-600">{c.entityId.slice(0, 8)}</code>
                      ) : null}
                    </TD>
                    <TD className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-expanded={isOpen}
                        aria-controls={detailsId}
                        onClick={() => toggle(c.id)}
                        data-testid="admin-change-toggle"
                      >
                        {isOpen ? "Hide" : "Details"}
                        <span className="sr-only"> of {activityActionLabel(c.action)}</span>
                      </Button>
                    </TD>
                  </TR>
                  {isOpen ? (
                    <FullRow id={detailsId} className="bg-zinc-50" colSpan={5} cellClassName="px-4 pt-1 pb-4">
                      <CodeBlock
                        code={toJson(c.details)}
                        language="json"
                        title="Recorded details (redacted)"
                      />
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
            data-testid="admin-load-more"
          >
            {result.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
