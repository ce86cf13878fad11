"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { codeLabel, REASON_LABELS } from "@/components/labels";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardFooter, CardHeader } from "../ui/Card";
import { CodeLabel } from "../ui/CodeLabel";
import { InputField } from "../ui/FieldControls";
import { PendingButton } from "../ui/PendingButton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { connectionsHref } from "./gateway";
import { useToolsApi } from "./ToolsApiProvider";
import type { Template, TemplateInstallResult } from "./types-examples";
import { linkClass } from "./view-helpers";

export interface TemplatesPanelProps {
  companyId: string;
  /** Installing needs the `tools:admin` capability. */
  canInstall: boolean;
  /** Templates to show before the first fetch (stories). */
  initialTemplates?: Template[];
}

/**
 * Real-world templates (GitHub, the reference filesystem server): installable starting points,
 * not test fixtures and never smoke-tested. Each card says what it needs and its default policies.
 */
export function TemplatesPanel({ companyId, canInstall, initialTemplates }: TemplatesPanelProps) {
  const api = useToolsApi();
  const list = useQuery({
    queryKey: [...toolsAccessKeys.examples(companyId), "templates"],
    queryFn: async () =>
      (await api<{ templates: Template[] }>(toolsApiPath(companyId, "/templates"))).templates,
    ...(initialTemplates ? { initialData: initialTemplates } : {}),
  });
  const templates = list.data ?? [];
  return (
    <section aria-labelledby="templates-heading" className="space-y-3" data-testid="templates-panel">
      <div>
        <h2 id="templates-heading" className="text-base font-semibold text-zinc-900">
          Templates
        </h2>
        <p className="max-w-prose text-sm text-zinc-600">
          Real tool servers, not test fixtures. Installing creates the application, a draft connection, a
          profile of its read tools and an approval policy for its writes; you test, review and enable the
          connection once its server answers.
        </p>
      </div>
      {/* A failed refetch keeps the templates already shown. */}
      <ApiErrorAlert error={list.data ? null : list.error} title="Could not load the templates" />
      <ul className="grid gap-4 lg:grid-cols-2" aria-label="Templates">
        {templates.map((t) => (
          <li key={t.id} className="flex">
            <TemplateCard companyId={companyId} template={t} canInstall={canInstall} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function TemplateCard({
  companyId,
  template,
  canInstall,
}: {
  companyId: string;
  template: Template;
  canInstall: boolean;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const [token, setToken] = useState("");
  const [url, setUrl] = useState("");
  const install = useMutation({
    mutationFn: () =>
      api<TemplateInstallResult>(
        toolsApiPath(companyId, `/templates/${encodeURIComponent(template.id)}/install`),
        {
          method: "POST",
          body: template.needsToken ? { token } : template.needsUrl ? { url: url.trim() } : {},
        },
      ),
    onSuccess: () => {
      setToken("");
      return client.invalidateQueries({ queryKey: toolsAccessKeys.all(companyId) });
    },
  });
  const installed =
    template.installed ?? (install.data ? { applicationId: install.data.applicationId } : null);
  const health = install.data?.health;
  return (
    <Card className="flex w-full flex-col" data-testid="template-card" data-template-id={template.id}>
      <CardHeader
        titleAs="h3"
        title={template.title}
        description={template.description}
        actions={
          <Badge tone={installed ? "success" : "neutral"} data-testid="template-state">
            {installed ? "Installed" : template.available ? "Template" : "Needs the operator"}
          </Badge>
        }
      >
        <span className="flex flex-wrap items-center gap-2 pt-1">
          <ApplicationTypeBadge type={template.type} />
          <code className="font-mono text-xs text-zinc-600">{template.slug}__*</code>
        </span>
      </CardHeader>
      <CardBody className="flex-1 space-y-4">
        <section aria-labelledby={`${id}-needs`}>
          <h4 id={`${id}-needs`} className="text-sm font-semibold text-zinc-900">
            What it needs
          </h4>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-zinc-600">
            {template.needs.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby={`${id}-defaults`}>
          <h4 id={`${id}-defaults`} className="text-sm font-semibold text-zinc-900">
            Default policies
          </h4>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-zinc-600">
            {template.defaults.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </section>
        <ApiErrorAlert error={install.error} title="Could not install the template" />
        {health ? (
          <p className="text-sm text-zinc-600" data-testid="template-health">
            {health.status === "ok" ? (
              "Its server answered. Review its tools and enable the connection."
            ) : (
              <>
                Installed; its server did not answer yet:{" "}
                <CodeLabel
                  label={codeLabel(REASON_LABELS, health.code ?? health.status)}
                  code={health.code ?? health.status}
                />
                .
              </>
            )}
          </p>
        ) : null}
        {installed ? (
          <p className="text-sm text-zinc-600">
            <Link
              href={connectionsHref(companyId, { applicationId: installed.applicationId })}
              className={linkClass}
            >
              See its connection
            </Link>
          </p>
        ) : null}
      </CardBody>
      {canInstall && !installed ? (
        <CardFooter>
          <form
            className="flex w-full flex-wrap items-end justify-end gap-2"
            aria-label={`Install ${template.title}`}
            onSubmit={(event) => {
              event.preventDefault();
              install.mutate();
            }}
          >
            {template.needsUrl ? (
              <InputField
                id={`${id}-url`}
                label="MCP server URL"
                hint="Its authorization server is discovered from it; connect with OAuth afterwards."
                type="url"
                autoComplete="off"
                placeholder="https://mcp.example.com/mcp"
                fieldClassName="min-w-64 flex-1"
                value={url}
                onValueChange={setUrl}
                data-testid="template-url"
              />
            ) : null}
            {template.needsToken ? (
              <InputField
                id={`${id}-token`}
                label="Personal access token"
                hint="Stored only as an encrypted company secret."
                type="password"
                autoComplete="off"
                fieldClassName="min-w-48 flex-1"
                value={token}
                onValueChange={setToken}
                data-testid="template-token"
              />
            ) : null}
            <PendingButton
              pending={install.isPending}
              pendingLabel="Installing…"
              type="submit"
              size="md"
              disabled={
                !template.available ||
                (template.needsToken && token.trim() === "") ||
                (template.needsUrl === true && url.trim() === "")
              }
              data-testid="template-install"
            >
              Install
            </PendingButton>
          </form>
        </CardFooter>
      ) : null}
    </Card>
  );
}
