"use client";

import { codeLabel, EVENT_TYPE_LABELS } from "@/components/labels";
import { formatAbsolute, humanize } from "../format";
import { Badge } from "../ui/Badge";
import { CodeBlock } from "../ui/CodeBlock";
import { CodeLabel } from "../ui/CodeLabel";
import { KeyValueList } from "../ui/KeyValueList";
import { InvocationArtifacts } from "./InvocationArtifacts";
import type { AuditEvent } from "./types";
import { toJson } from "./view-helpers";

/** An event's details; `policyNames` (id → name, company-scoped by the server) names the matched policies. */
export function AuditEventDetails({
  event,
  companyId,
  policyNames,
}: {
  event: AuditEvent;
  companyId?: string;
  policyNames?: ReadonlyMap<string, string | null>;
}) {
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
      <KeyValueList
        className="self-start rounded-md border border-zinc-200 bg-white px-3"
        items={[
          {
            label: "Event",
            value: (
              <>
                <CodeLabel label={codeLabel(EVENT_TYPE_LABELS, event.eventType)} code={event.eventType} /> · #
                {event.seq}
              </>
            ),
          },
          { label: "At", value: formatAbsolute(event.createdAt) },
          { label: "Actor", value: humanize(event.actorType) },
          {
            label: "Matched policies",
            value: event.matchedPolicyIds.length ? (
              <span className="flex flex-col text-xs">
                {event.matchedPolicyIds.map((pid) => (
                  <PolicyName key={pid} id={pid} name={policyNames?.get(pid) ?? null} />
                ))}
              </span>
            ) : (
              "None"
            ),
          },
          {
            label: "Error",
            value: event.errorClass ? <code className="font-mono text-xs">{event.errorClass}</code> : null,
          },
        ]}
      />
      <div className="min-w-0 space-y-3">
        {event.redactions.length > 0 ? (
          <div
            className="flex flex-wrap items-center gap-1.5 text-sm text-zinc-700"
            data-testid="audit-redactions"
          >
            <span>Redacted fields:</span>
            {event.redactions.map((path) => (
              <Badge key={path} tone="warning" title="This field's value was removed">
                <span className="font-mono">{path}</span>
              </Badge>
            ))}
          </div>
        ) : null}
        {event.argsSummary ? (
          <CodeBlock code={toJson(event.argsSummary)} language="json" title="Arguments (summary)" />
        ) : (
          <p className="text-sm text-zinc-500">No arguments recorded.</p>
        )}
        {event.resultSummary ? (
          <CodeBlock code={toJson(event.resultSummary)} language="json" title="Result (summary)" />
        ) : (
          <p className="text-sm text-zinc-500">No result recorded.</p>
        )}
        {companyId && event.invocationId && event.reasonCode === "result_truncated" ? (
          <InvocationArtifacts companyId={companyId} invocationId={event.invocationId} />
        ) : null}
      </div>
    </div>
  );
}

/** A policy by name; an id the company does not know (deleted, or not this company's) says so. */
export function PolicyName({ id, name }: { id: string; name: string | null }) {
  return name ? (
    <span title={id} data-testid="audit-policy-name">
      {name}
    </span>
  ) : (
    <span className="text-zinc-500" title={id} data-testid="audit-policy-unknown">
      Unknown policy <code className="font-mono">{id.slice(0, 8)}</code>
    </span>
  );
}
