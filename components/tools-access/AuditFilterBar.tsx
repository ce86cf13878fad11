"use client";

import { DECISION_LABELS, DECISIONS } from "@/components/labels";
import { TOOL_EVENT_TYPES } from "@/server/contracts/values";
import { humanize } from "../format";
import { Button } from "../ui/Button";
import { InputField, namedOptions, SelectField, type SelectOption, valueOptions } from "../ui/FieldControls";
import type { AuditDecision, NamedRef } from "./types";

/**
 * Event types offered in the filter: exactly the server's closed set (the audit API refuses any
 * other value with 400), so a new event type appears here without a second list to forget.
 */
export const AUDIT_EVENT_TYPES: readonly string[] = TOOL_EVENT_TYPES;

export interface AuditFilterInput {
  agentId: string;
  tool: string;
  decision: AuditDecision | "";
  eventType: string;
}

export const NO_FILTERS: AuditFilterInput = { agentId: "", tool: "", decision: "", eventType: "" };

type SelectFilter = "agentId" | "decision" | "eventType";

/** The filters picked from a list: the field id suffix, label, test id and the "any" option. */
interface SelectFilterSpec {
  name: string;
  label: string;
  testId: string;
  placeholder: string;
}

const SELECT_FILTERS: Record<SelectFilter, SelectFilterSpec> = {
  agentId: { name: "agent", label: "Agent", testId: "audit-filter-agent", placeholder: "All agents" },
  decision: {
    name: "decision",
    label: "Decision",
    testId: "audit-filter-decision",
    placeholder: "Any decision",
  },
  eventType: { name: "event", label: "Event", testId: "audit-filter-event-type", placeholder: "Any event" },
};

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
  const select = (key: SelectFilter, options: SelectOption[]) => {
    const { name, label, testId, placeholder } = SELECT_FILTERS[key];
    return (
      <SelectField
        id={`${id}-${name}`}
        label={label}
        value={values[key]}
        onValueChange={(value) => onChange({ [key]: value })}
        data-testid={testId}
        placeholder={placeholder}
        options={options}
      />
    );
  };
  const anyFilterInput = Boolean(values.agentId || values.tool.trim() || values.decision || values.eventType);
  return (
    <search aria-label="Filter tool calls">
      <form
        onSubmit={(e) => e.preventDefault()}
        className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]"
      >
        {select("agentId", namedOptions(agents))}
        <InputField
          id={`${id}-tool`}
          label="Tool"
          type="search"
          value={values.tool}
          onValueChange={(tool) => onChange({ tool })}
          placeholder="github__create_issue"
          autoComplete="off"
          spellCheck={false}
          data-testid="audit-filter-tool"
        />
        {select("decision", valueOptions(DECISIONS, DECISION_LABELS))}
        {select("eventType", valueOptions(AUDIT_EVENT_TYPES, humanize))}
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
