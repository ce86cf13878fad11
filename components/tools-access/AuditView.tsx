"use client";

import { useId } from "react";
import type { DateInput } from "../format";
import { cn, focusRing } from "../ui/cn";
import { AdminChanges } from "./AdminChanges";
import { AuditCalls } from "./AuditCalls";
import { AUDIT_TABS, type AuditTab, useAuditParams } from "./audit-params";
import type { AdminChangesPage, AuditCallsPage, NamedRef } from "./types";

const TAB_LABELS: Record<AuditTab, string> = {
  calls: "Tool calls",
  other: "Other events",
  admin: "Admin changes",
};

export interface AuditViewProps {
  companyId: string;
  agents: NamedRef[];
  /** Server-rendered first pages: the calls (for the filters in `key`) and the admin changes. */
  initialCalls?: { key: string; page: AuditCallsPage };
  initialAdmin?: AdminChangesPage;
  scope?: { runId?: string; issueId?: string };
  pageSize?: number;
  now?: DateInput;
}

/** The audit page: tool calls (one row each), other events, admin changes; the tab is `?tab=`. */
export function AuditView({
  companyId,
  agents,
  initialCalls,
  initialAdmin,
  scope,
  pageSize,
  now,
}: AuditViewProps) {
  const id = useId();
  const [{ tab }, setParams] = useAuditParams();
  return (
    <div className="space-y-4">
      <div
        role="tablist"
        aria-label="Audit views"
        className="flex gap-1 overflow-x-auto border-b border-zinc-200"
      >
        {AUDIT_TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`${id}-tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`${id}-panel`}
            onClick={() => void setParams({ tab: t === "calls" ? null : t })}
            data-testid={`audit-tab-${t}`}
            className={cn(
              "-mb-px inline-flex shrink-0 items-center rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap",
              focusRing,
              tab === t
                ? "border-accent-600 text-accent-700"
                : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900",
            )}
          >
            {TAB_LABELS[t]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`}>
        {tab === "admin" ? (
          <AdminChanges companyId={companyId} initialPage={initialAdmin} now={now} />
        ) : (
          <AuditCalls
            key={tab}
            companyId={companyId}
            kind={tab}
            agents={agents}
            initial={tab === "calls" ? initialCalls : undefined}
            scope={scope}
            pageSize={pageSize}
            now={now}
          />
        )}
      </div>
    </div>
  );
}
