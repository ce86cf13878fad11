"use client";

import type { ReactNode } from "react";
import { type DateInput, formatDuration } from "../format";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { KeyValueList } from "../ui/KeyValueList";
import { RelativeTime } from "../ui/RelativeTime";
import { HealthBadge } from "./badges";
import { operatorCanAllow, PrivateUpstreamHint } from "./PrivateUpstreamHint";
import type { Connection, ConnectionTestResult } from "./types";

/** A relative time, or `never` when there is none. */
export function When({ value, now, never }: { value: string | null; now?: DateInput; never: string }) {
  return value ? <RelativeTime value={value} now={now} /> : <span className="text-zinc-500">{never}</span>;
}

function readinessSteps(connection: Connection): { label: ReactNode; done: boolean }[] {
  return [
    { label: "Health check passes (Test)", done: connection.healthStatus === "ok" },
    { label: "Catalog refreshed", done: connection.catalogRefreshedAt !== null },
    {
      label: "Catalog reviewed (approve or disable its quarantined tools)",
      done: connection.catalogReviewedAt !== null,
    },
  ];
}

/** The three readiness steps are done: Enable becomes the primary action. */
export function connectionReady(connection: Connection): boolean {
  return readinessSteps(connection).every((step) => step.done);
}

/** The three steps a connection needs before it can be enabled. */
export function Readiness({ connection, id }: { connection: Connection; id?: string }) {
  const steps = readinessSteps(connection);
  return (
    <div id={id} data-testid="connection-readiness">
      <p className="text-sm font-medium text-zinc-800">Before it can be enabled</p>
      <ul className="mt-1 space-y-0.5 text-sm">
        {steps.map((step, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            key={index}
            className={cn("flex items-center gap-2", step.done ? "text-emerald-800" : "text-zinc-600")}
            data-done={step.done}
          >
            <span aria-hidden="true" className="w-4 text-center">
              {step.done ? "✓" : "○"}
            </span>
            <span>
              {step.label}
              <span className="sr-only">{step.done ? ": done" : ": not yet"}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The result of the last Test. */
export function HealthCard({
  connection,
  lastTest,
  now,
  instanceSettingsHref,
}: {
  connection: Connection;
  lastTest: Omit<ConnectionTestResult, "connection"> | null;
  now?: DateInput;
  /** Instance settings, when the viewer is an instance admin. */
  instanceSettingsHref?: string | null;
}) {
  return (
    <Card data-testid="connection-health" data-health={connection.healthStatus}>
      <CardHeader title="Health" titleAs="h3" description="The result of the last Test." />
      <CardBody className="space-y-3">
        <KeyValueList
          items={[
            { label: "Status", value: <HealthBadge health={connection.healthStatus} /> },
            {
              label: "Last check",
              value: <When value={connection.healthCheckedAt} now={now} never="Never tested" />,
            },
            ...(lastTest
              ? [
                  { label: "Latency", value: formatDuration(lastTest.latencyMs) },
                  {
                    label: "Tools found",
                    value: lastTest.toolCount === null ? null : String(lastTest.toolCount),
                  },
                ]
              : []),
          ]}
        />
        {connection.healthError ? (
          <p
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 font-mono text-xs break-words text-red-900"
            data-testid="connection-health-error"
          >
            <span className="sr-only">Error: </span>
            {connection.healthError}
          </p>
        ) : null}
        {operatorCanAllow(null, connection.healthError) ? (
          <PrivateUpstreamHint instanceSettingsHref={instanceSettingsHref} />
        ) : null}
        {connection.healthStatus === "missing_secret" ? (
          <p className="text-sm text-red-800">
            A bound secret is missing or revoked. Bind an active secret below, then test again.
          </p>
        ) : null}
        {connection.healthStatus === "unknown" ? (
          <p className="text-sm text-zinc-600">Not tested since it was created or its settings changed.</p>
        ) : null}
      </CardBody>
    </Card>
  );
}
