"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardFooter, CardHeader } from "../ui/Card";
import { EmptyState } from "../ui/EmptyState";
import { SelectField } from "../ui/FieldControls";
import { PendingButton } from "../ui/PendingButton";
import { Spinner } from "../ui/Spinner";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { RiskBadge } from "./badges";
import { InstallResult, SmokeResult } from "./ExampleResults";
import { connectionsHref } from "./gateway";
import { useCompanyList } from "./hooks";
import { ListFrame } from "./ListFrame";
import { examplesList } from "./lists";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { SmokeAllPanel } from "./SmokeAllPanel";
import { TemplatesPanel } from "./TemplatesPanel";
import { useToolsApi } from "./ToolsApiProvider";
import type { Example, ExampleInstallResult, ExampleSmokeResult, NamedRef } from "./types";
import type { Template } from "./types-examples";
import { linkClass } from "./view-helpers";

export type { Example } from "./types";

export interface ExamplesPanelProps {
  companyId: string;
  /** Installing and smoke checks need the `tools:admin` capability. */
  canInstall: boolean;
  /** Server-rendered `GET /examples`; seeds the `toolsAccessKeys.examples(companyId)` query. */
  initialExamples: Example[];
  /** Agents a smoke check can run as. */
  agents: NamedRef[];
  /** Smoke results to show before any check is run (stories, or results kept across navigation). */
  initialSmokeResults?: ExampleSmokeResult[];
  /** Server-rendered `GET /templates` (the real-world templates, shown apart from the fixtures). */
  initialTemplates?: Template[];
  className?: string;
}

/** Safe fixture applications to install in one click, and smoke checks that prove the pipeline works. */
/** Where a card's tools come from when they cannot be listed before install (the server says which). */
const TOOL_SOURCE_TEXT: Record<NonNullable<Example["toolSource"]>, string> = {
  fixture: "Listed by the example's tool server when it is installed.",
  local_process: "Listed by the local process when the example is installed.",
  plugin: "Listed by the built-in plugin when the example is installed.",
  paperclip: "Paperclip's own tools for agents, listed when the example is installed.",
};

export function ExamplesPanel({
  companyId,
  canInstall,
  initialExamples,
  agents,
  initialSmokeResults = [],
  initialTemplates,
  className,
}: ExamplesPanelProps) {
  const query = useCompanyList(examplesList, companyId, initialExamples);
  const examples = query.data;

  return (
    <ListFrame testId="examples-panel" className={className} query={query} noun="examples">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-prose text-sm text-zinc-600">
          Each example installs an application, a connection (tested, reviewed and enabled), a profile bound
          to the company and its policies, the same way you would by hand. Smoke checks then make real calls
          through the gateway as an agent.
        </p>
        {query.isFetching ? <Spinner size="sm" label="Refreshing examples" /> : null}
      </div>
      {!canInstall ? (
        <ReadOnlyNote data-testid="examples-read-only">
          Installing examples and running smoke checks needs the tools admin permission.
        </ReadOnlyNote>
      ) : null}
      <SmokeAllPanel companyId={companyId} canRun={canInstall} />
      {examples.length === 0 ? (
        <EmptyState
          headingAs="h3"
          title="No examples available"
          description="This server offers no example applications."
          data-testid="examples-empty"
        />
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Examples">
          {examples.map((example) => (
            <li key={example.id} className="flex">
              <ExampleCard
                companyId={companyId}
                example={example}
                canInstall={canInstall}
                agents={agents}
                initialSmoke={initialSmokeResults.find((r) => r.example === example.id) ?? null}
              />
            </li>
          ))}
        </ul>
      )}
      <TemplatesPanel companyId={companyId} canInstall={canInstall} initialTemplates={initialTemplates} />
    </ListFrame>
  );
}

function InstalledBadge({ example }: { example: Example }) {
  if (example.installed?.status === "archived")
    return (
      <Badge tone="neutral" data-testid="example-state">
        Archived
      </Badge>
    );
  if (example.installed)
    return (
      <Badge tone="success" dot data-testid="example-state">
        Installed
      </Badge>
    );
  if (!example.available)
    return (
      <Badge tone="neutral" data-testid="example-state">
        Unavailable
      </Badge>
    );
  return (
    <Badge tone="neutral" data-testid="example-state">
      Not installed
    </Badge>
  );
}

function ExampleCard({
  companyId,
  example,
  canInstall,
  agents,
  initialSmoke,
}: {
  companyId: string;
  example: Example;
  canInstall: boolean;
  agents: NamedRef[];
  initialSmoke: ExampleSmokeResult | null;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const [agentId, setAgentId] = useState("");
  const base = toolsApiPath(companyId, `/examples/${encodeURIComponent(example.id)}`);

  const install = useMutation({
    mutationFn: () => api<ExampleInstallResult>(`${base}/install`, { method: "POST" }),
    onSuccess: (result) => {
      client.setQueryData<Example[]>(toolsAccessKeys.examples(companyId), (old) =>
        old?.map((e) =>
          e.id === example.id
            ? { ...e, installed: { applicationId: result.applicationId, status: "active" } }
            : e,
        ),
      );
      // It created an application, a connection, a profile and policies.
      return client.invalidateQueries({ queryKey: toolsAccessKeys.all(companyId) });
    },
  });
  const smoke = useMutation({
    mutationFn: (body: { agentId?: string }) =>
      api<ExampleSmokeResult>(`${base}/smoke`, { method: "POST", body }),
    // Smoke checks write audit rows.
    onSuccess: () => client.invalidateQueries({ queryKey: toolsAccessKeys.auditAll(companyId) }),
  });
  const smokeResult = smoke.data ?? (smoke.isIdle ? initialSmoke : null);
  const installed = example.installed !== null;
  const live = example.installed?.status === "active";

  return (
    <Card
      className="flex w-full flex-col"
      data-testid="example-card"
      data-example-id={example.id}
      data-installed={installed}
    >
      <CardHeader
        titleAs="h3"
        title={example.title}
        description={example.description}
        actions={<InstalledBadge example={example} />}
      >
        <span className="flex flex-wrap items-center gap-2 pt-1">
          <ApplicationTypeBadge type={example.type} />
          <code className="font-mono text-xs text-zinc-600">{example.slug}__*</code>
        </span>
      </CardHeader>
      <CardBody className="flex-1 space-y-4">
        <section aria-labelledby={`${id}-tools`}>
          <h4 id={`${id}-tools`} className="text-sm font-semibold text-zinc-900">
            Tools
          </h4>
          {example.tools.length === 0 ? (
            <p className="mt-1 text-sm text-zinc-600">
              {installed
                ? "Listed in its connection's catalog."
                : TOOL_SOURCE_TEXT[example.toolSource ?? "fixture"]}
            </p>
          ) : (
            <ul className="mt-1.5 flex flex-wrap gap-1.5" data-testid="example-tools">
              {example.tools.map((tool) => (
                <li
                  key={tool.name}
                  className="inline-flex items-center gap-1.5 rounded-md border border-zinc-200 px-2 py-1"
                >
                  <code className="font-mono text-xs text-zinc-800">{tool.name}</code>
                  <RiskBadge risk={tool.risk} />
                  {tool.status === "disabled" ? (
                    <span className="text-xs text-zinc-500">off at install</span>
                  ) : tool.status === "quarantined" ? (
                    <span className="text-xs text-zinc-500">waits for review</span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
        {example.smokeChecks.length > 0 ? (
          <section aria-labelledby={`${id}-checks`}>
            <h4 id={`${id}-checks`} className="text-sm font-semibold text-zinc-900">
              Smoke checks
            </h4>
            <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-zinc-600">
              {example.smokeChecks.map((check) => (
                <li key={check}>{check}</li>
              ))}
            </ul>
          </section>
        ) : null}
        {!example.available && !installed ? (
          <p className="text-sm text-zinc-600" data-testid="example-unavailable">
            Its fixture server is switched off on this server (
            <code className="font-mono">PAPERCLIP_EXAMPLES=off</code>
            ).
          </p>
        ) : null}
        <ApiErrorAlert error={install.error} title="Could not install the example" />
        {install.data ? <InstallResult companyId={companyId} result={install.data} /> : null}
        {installed && !install.data ? (
          <p className="text-sm text-zinc-600">
            Installed as an application.{" "}
            <Link
              href={connectionsHref(companyId, { applicationId: example.installed?.applicationId })}
              className={linkClass}
            >
              See its connections
            </Link>
          </p>
        ) : null}
        <ApiErrorAlert error={smoke.error} title="Could not run the smoke checks" />
        {smokeResult ? <SmokeResult result={smokeResult} agents={agents} /> : null}
      </CardBody>
      {canInstall && (!installed || live) ? (
        <CardFooter className="justify-between">
          {live ? (
            <form
              className="flex w-full flex-wrap items-end justify-end gap-2"
              aria-label={`Run smoke checks for ${example.title}`}
              onSubmit={(event) => {
                event.preventDefault();
                smoke.mutate(agentId ? { agentId } : {});
              }}
            >
              <SelectField
                id={`${id}-agent`}
                label="Run as"
                fieldClassName="min-w-48 flex-1"
                value={agentId}
                onChange={(e) => setAgentId(e.target.value)}
                data-testid="example-smoke-agent"
                placeholder="Any active agent"
                options={agents.map((a) => ({ value: a.id, label: a.name }))}
              />
              <PendingButton
                pending={smoke.isPending}
                pendingLabel="Running…"
                type="submit"
                size="md"
                variant="secondary"
                data-testid="example-smoke"
              >
                Run smoke checks
              </PendingButton>
            </form>
          ) : (
            <>
              <span className="text-xs text-zinc-500">
                Creates an application, connection, profile and policies.
              </span>
              <PendingButton
                pending={install.isPending}
                pendingLabel="Installing…"
                size="sm"
                disabled={!example.available}
                onClick={() => install.mutate()}
                data-testid="example-install"
              >
                Install
              </PendingButton>
            </>
          )}
        </CardFooter>
      ) : null}
    </Card>
  );
}
