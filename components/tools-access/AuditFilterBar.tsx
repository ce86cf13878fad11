"use client";

import { humanize } from "../format";
import { Button } from "../ui/Button";
import { Field } from "../ui/Field";
import { Input } from "../ui/Input";
import { Select } from "../ui/Select";
import { DECISION_LABELS, DECISIONS } from "./labels";
import type { AuditDecision, NamedRef } from "./types";

/** Event types offered in the filter. */
export const AUDIT_EVENT_TYPES: readonly string[] = [
  "decision",
  "execution_started",
  "result_returned",
  "rate_limited",
  "approval_requested",
  "replayed",
  "outcome_unknown",
  "resolved",
];

export interface AuditFilterInput {
  agentId: string;
  tool: string;
  decision: AuditDecision | "";
  eventType: string;
}

export const NO_FILTERS: AuditFilterInput = { agentId: "", tool: "", decision: "", eventType: "" };

/** The audit timeline's filters: agent, tool, decision and event type, with refresh and clear. */
export function AuditFilterBar({
  id,
  agents,
  values,
  onChange,
  onClear,
  onRefresh,
  refreshing,
}: {
  id: string;
  agents: NamedRef[];
  values: AuditFilterInput;
  onChange: (patch: Partial<AuditFilterInput>) => void;
  onClear: () => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const anyFilterInput = Boolean(values.agentId || values.tool.trim() || values.decision || values.eventType);
  return (
    <search aria-label="Filter tool calls">
      <form
        onSubmit={(e) => e.preventDefault()}
        className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]"
      >
        <Field id={`${id}-agent`} label="Agent">
          {(control) => (
            <Select
              {...control}
              value={values.agentId}
              onChange={(e) => onChange({ agentId: e.target.value })}
              data-testid="audit-filter-agent"
            >
              <option value="">All agents</option>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field id={`${id}-tool`} label="Tool">
          {(control) => (
            <Input
              {...control}
              type="search"
              value={values.tool}
              onChange={(e) => onChange({ tool: e.target.value })}
              placeholder="github__create_issue"
              autoComplete="off"
              spellCheck={false}
              data-testid="audit-filter-tool"
            />
          )}
        </Field>
        <Field id={`${id}-decision`} label="Decision">
          {(control) => (
            <Select
              {...control}
              value={values.decision}
              onChange={(e) => onChange({ decision: e.target.value as AuditDecision | "" })}
              data-testid="audit-filter-decision"
            >
              <option value="">Any decision</option>
              {DECISIONS.map((d) => (
                <option key={d} value={d}>
                  {DECISION_LABELS[d]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field id={`${id}-event`} label="Event">
          {(control) => (
            <Select
              {...control}
              value={values.eventType}
              onChange={(e) => onChange({ eventType: e.target.value })}
              data-testid="audit-filter-event-type"
            >
              <option value="">Any event</option>
              {AUDIT_EVENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {humanize(t)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="flex items-end gap-2">
          <Button variant="secondary" onClick={onRefresh} disabled={refreshing} data-testid="audit-refresh">
            Refresh
          </Button>
          {anyFilterInput ? (
            <Button variant="ghost" onClick={onClear} data-testid="audit-clear-filters">
              Clear
            </Button>
          ) : null}
        </div>
      </form>
    </search>
  );
}
