"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useState } from "react";
import { RISK_LABELS, RISKS } from "@/components/labels";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { cn } from "../ui/cn";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationCreateForm } from "./ApplicationCreateForm";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { ConfirmRow } from "./controls";
import { CONNECTION_STATUS_LABELS, connectionsHref, invalidateConnections } from "./gateway";
import { useCompanyList } from "./hooks";
import { applicationsList } from "./lists";
import { ResourceListCard } from "./ResourceListCard";
import { useToolsApi } from "./ToolsApiProvider";
import type { Application, ApplicationRecord, ConnectionStatus } from "./types";
import { linkClass } from "./view-helpers";

export { APPLICATION_SLUG_PATTERN, suggestSlug } from "./ApplicationCreateForm";
export type { Application } from "./types";

export interface ApplicationsManagerProps {
  companyId: string;
  /** Without it the table is read-only. */
  canEdit: boolean;
  /** Server-rendered `GET /applications`; seeds the `toolsAccessKeys.applications(companyId)` query. */
  initialApplications: Application[];
  className?: string;
}

const CONNECTION_ORDER: readonly ConnectionStatus[] = ["active", "draft", "disabled", "archived"];

/** Registered applications with their connection and tool counts; create and archive. */
export function ApplicationsManager({
  companyId,
  canEdit,
  initialApplications,
  className,
}: ApplicationsManagerProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const key = toolsAccessKeys.applications(companyId);
  const query = useCompanyList(applicationsList, companyId, initialApplications);
  const applications = query.data;
  const [confirmArchive, setConfirmArchive] = useState<string | null>(null);

  const archive = useMutation({
    mutationFn: (id: string) =>
      api<ApplicationRecord>(toolsApiPath(companyId, `/applications/${encodeURIComponent(id)}`), {
        method: "PATCH",
        body: { status: "archived" },
      }),
    onSuccess: (updated) => {
      client.setQueryData<Application[]>(key, (old) =>
        old?.map((a) => (a.id === updated.id ? { ...a, ...updated } : a)),
      );
      setConfirmArchive(null);
      return invalidateConnections(client, companyId);
    },
  });

  const columns = canEdit ? 7 : 6;

  return (
    <ResourceListCard
      testId="applications-manager"
      className={className}
      title="Applications"
      description="The tool servers registered for this company. Each one reaches agents through connections you test, review and enable."
      query={query}
      noun="applications"
      canEdit={canEdit}
      readOnly={{ note: "You can view applications but not change them.", testId: "applications-read-only" }}
      notices={<ApiErrorAlert error={archive.error} title="Could not archive the application" />}
      isEmpty={applications.length === 0}
      empty={{
        title: "No applications yet",
        description:
          "Register a tool server to start. Agents see no tools until an application has an enabled connection, a reviewed catalog and a profile that includes it.",
        testId: "applications-empty",
      }}
      footer={canEdit ? <ApplicationCreateForm companyId={companyId} /> : null}
    >
      <Table stacked data-testid="app-table">
        <caption className="sr-only">Applications</caption>
        <HeaderRow columns={["Name", "Slug", "Type", "Status", "Connections", "Tools"]} actions={canEdit} />
        <TBody>
          {applications.map((app) => {
            const archived = app.status === "archived";
            return (
              <Fragment key={app.id}>
                <TR
                  data-testid="app-row"
                  data-application-id={app.id}
                  data-slug={app.slug}
                  data-status={app.status}
                  className={cn(archived && "text-zinc-500")}
                >
                  <TD data-label="Name" className="min-w-44">
                    <Link
                      href={connectionsHref(companyId, { applicationId: app.id })}
                      className={linkClass}
                      data-testid="app-connections-link"
                    >
                      {app.name}
                      <span className="sr-only">: show connections</span>
                    </Link>
                    {app.description ? (
                      <span className="block text-xs text-zinc-500">{app.description}</span>
                    ) : null}
                  </TD>
                  <TD data-label="Slug">
                    <code className="font-mono text-xs whitespace-nowrap text-zinc-800">{app.slug}</code>
                  </TD>
                  <TD data-label="Type">
                    <ApplicationTypeBadge type={app.type} />
                  </TD>
                  <TD data-label="Status">
                    <Badge tone={archived ? "neutral" : "success"} data-testid="app-status">
                      {archived ? "Archived" : "Active"}
                    </Badge>
                  </TD>
                  <TD data-label="Connections" className="text-xs" data-testid="app-connections">
                    <ConnectionCounts counts={app.connections} />
                  </TD>
                  <TD data-label="Tools" className="min-w-44 text-xs" data-testid="app-tools">
                    <ToolCounts app={app} />
                  </TD>
                  {canEdit ? (
                    <TD className="text-right whitespace-nowrap">
                      {!archived ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-red-700 hover:bg-red-50 hover:text-red-800"
                          onClick={() => {
                            archive.reset();
                            setConfirmArchive(app.id);
                          }}
                          aria-label={`Archive ${app.name}`}
                          data-testid="app-archive"
                        >
                          Archive
                        </Button>
                      ) : null}
                    </TD>
                  ) : null}
                </TR>
                {confirmArchive === app.id ? (
                  <ConfirmRow
                    colSpan={columns}
                    confirmLabel="Archive application"
                    pending={archive.isPending}
                    error={archive.error}
                    onCancel={() => setConfirmArchive(null)}
                    onConfirm={() => archive.mutate(app.id)}
                    data-testid="app-archive-bar"
                  >
                    Archive “{app.name}”? Its connections are archived with it and its tools are refused.
                    Archiving is final: it cannot be undone, and the slug{" "}
                    <code className="font-mono">{app.slug}</code> stays taken.
                  </ConfirmRow>
                ) : null}
              </Fragment>
            );
          })}
        </TBody>
      </Table>
    </ResourceListCard>
  );
}

function ConnectionCounts({ counts }: { counts: Application["connections"] }) {
  const parts = CONNECTION_ORDER.flatMap((status) => {
    const n = counts[status] ?? 0;
    return n > 0 ? [{ status, n }] : [];
  });
  if (parts.length === 0) return <span className="text-zinc-500">None</span>;
  return (
    <span className="flex flex-col gap-0.5">
      {parts.map(({ status, n }) => (
        <span key={status} data-connection-status={status}>
          <span className="tabular-nums font-medium text-zinc-900">{n}</span>{" "}
          {CONNECTION_STATUS_LABELS[status].toLowerCase()}
        </span>
      ))}
    </span>
  );
}

function ToolCounts({ app }: { app: Application }) {
  const { total, quarantined, byRisk } = app.tools;
  if (total === 0) return <span className="text-zinc-500">No tools yet</span>;
  return (
    <span className="flex flex-col gap-1">
      <span>
        <span className="tabular-nums font-medium text-zinc-900">{total}</span>{" "}
        {total === 1 ? "tool" : "tools"}
      </span>
      <span className="whitespace-nowrap text-zinc-500" data-testid="app-tools-by-risk">
        {RISKS.map((risk) => `${byRisk[risk] ?? 0} ${RISK_LABELS[risk].toLowerCase()}`).join(" · ")}
      </span>
      {quarantined > 0 ? (
        <span>
          <Badge tone="warning" dot data-testid="app-quarantined">
            Quarantined: {quarantined}
          </Badge>
        </span>
      ) : null}
    </span>
  );
}
