"use client";

import { formatAbsolute, humanize } from "../format";
import { Badge } from "../ui/Badge";
import { CodeBlock } from "../ui/CodeBlock";
import { KeyValueList } from "../ui/KeyValueList";
import { InvocationArtifacts } from "./InvocationArtifacts";
import type { AuditEvent } from "./types";
import { toJson } from "./view-helpers";

export function AuditEventDetails({ event, companyId }: { event: AuditEvent; companyId?: string }) {
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
      <KeyValueList
        className="self-start rounded-md border border-zinc-200 bg-white px-3"
        items={[
          { label: "Event", value: `${humanize(event.eventType)} · #${event.seq}` },
          { label: "At", value: formatAbsolute(event.createdAt) },
          { label: "Actor", value: humanize(event.actorType) },
          {
            label: "Matched policies",
            value: event.matchedPolicyIds.length ? (
              <span className="flex flex-col font-mono text-xs">
                {event.matchedPolicyIds.map((pid) => (
                  <span key={pid}>{pid}</span>
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
