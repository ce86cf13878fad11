"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import type { DateInput } from "../format";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { Field } from "../ui/Field";
import { Input } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";
import { Select } from "../ui/Select";
import { Textarea } from "../ui/Textarea";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { isApiError, toolsAccessKeys, toolsApiPath, withQuery } from "./api";
import { ConnectionDetail } from "./ConnectionDetail";
import { ConnectionStatusBadge } from "./ConnectionStatusBadge";
import { Checkbox } from "./controls";
import {
  APPLICATION_TYPE_LABELS,
  applicationsHref,
  buildTransportConfig,
  CONNECTION_LIFECYCLE,
  connectionsHref,
  invalidateConnections,
  PRIVATE_UPSTREAM_NOTE,
  plural,
  type TransportErrors,
} from "./gateway";
import { HealthBadge } from "./HealthBadge";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { useToolsApi } from "./ToolsApiProvider";
import type { ApplicationChoice, Connection, ConnectionCreateInput, ConnectionsResponse } from "./types";

export type { ApplicationChoice, Connection } from "./types";

export interface ConnectionsManagerProps {
  companyId: string;
  /** Without it the list and detail are read-only. */
  canEdit: boolean;
  /**
   * Server-rendered `GET /connections` (with `?applicationId=` when `applicationId` is set); seeds
   * the `toolsAccessKeys.connections(companyId, applicationId)` query.
   */
  initialConnections: Connection[];
  /** Active applications to create connections for. */
  applications: ApplicationChoice[];
  /** Connection to open first (e.g. from `?connection=`). */
  selectedId?: string | null;
  /** Lists only this application's connections (e.g. from `?applicationId=`). */
  applicationId?: string | null;
  /** Link to the page where secrets are created. */
  secretsHref?: string;
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
  className?: string;
}

const linkClass = cn("rounded font-medium text-accent-700 hover:underline", focusRing);

/** Connections of the company (or of one application): list, create, and the selected one's detail. */
export function ConnectionsManager({
  companyId,
  canEdit,
  initialConnections,
  applications,
  selectedId: initialSelectedId = null,
  applicationId = null,
  secretsHref,
  now,
  className,
}: ConnectionsManagerProps) {
  const api = useToolsApi();
  const query = useQuery({
    queryKey: toolsAccessKeys.connections(companyId, applicationId),
    queryFn: async ({ signal }) =>
      (
        await api<ConnectionsResponse>(
          withQuery(toolsApiPath(companyId, "/connections"), { applicationId }),
          { signal },
        )
      ).connections,
    initialData: initialConnections,
  });
  const connections = query.data;
  const [selectedId, setSelectedId] = useState<string | null>(initialSelectedId);
  const selected = connections.find((c) => c.id === selectedId) ?? null;
  const filterApp = applicationId
    ? (applications.find((a) => a.id === applicationId) ??
      connections.find((c) => c.applicationId === applicationId)?.application ??
      null)
    : null;

  return (
    <div className={cn("space-y-4", className)} data-testid="connections-manager">
      <ApiErrorAlert
        error={query.error}
        title="Could not refresh the connections"
        retry={() => void query.refetch()}
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <div className="space-y-4">
          <Card>
            <CardHeader
              title="Connections"
              description={CONNECTION_LIFECYCLE}
              refreshing={query.isFetching ? "Refreshing connections" : undefined}
            >
              {applicationId ? (
                <p className="text-sm text-zinc-700" data-testid="connections-filter">
                  Showing {filterApp ? `“${filterApp.name}”` : "one application"} only.{" "}
                  <Link href={connectionsHref(companyId)} className={linkClass}>
                    Show all
                  </Link>
                </p>
              ) : null}
            </CardHeader>
            {connections.length === 0 ? (
              <CardBody>
                <EmptyState
                  headingAs="h3"
                  className="py-8"
                  title="No connections yet"
                  description="A connection tells the gateway how to reach an application. It starts as a Draft and exposes nothing until it is tested, its catalog reviewed, and it is enabled."
                  data-testid="connections-empty"
                />
              </CardBody>
            ) : (
              <ul className="divide-y divide-zinc-100" aria-label="Connections" data-testid="connection-list">
                {connections.map((connection) => (
                  <li key={connection.id}>
                    <ConnectionRow
                      connection={connection}
                      active={connection.id === selected?.id}
                      now={now}
                      onSelect={() => setSelectedId(connection.id)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </Card>
          {canEdit ? (
            <ConnectionCreateForm
              companyId={companyId}
              applications={applications}
              applicationId={applicationId}
              onCreated={(connection) => setSelectedId(connection.id)}
            />
          ) : (
            <ReadOnlyNote data-testid="connections-read-only">
              You can view connections but not change them.
            </ReadOnlyNote>
          )}
        </div>
        <div>
          {selected ? (
            <ConnectionDetail
              key={selected.id}
              companyId={companyId}
              connection={selected}
              canEdit={canEdit}
              secretsHref={secretsHref}
              now={now}
              onClose={() => setSelectedId(null)}
            />
          ) : connections.length > 0 ? (
            <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center text-sm text-zinc-600">
              Select a connection to test it, review its catalog, bind secrets and enable it.
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}

function ConnectionRow({
  connection,
  active,
  now,
  onSelect,
}: {
  connection: Connection;
  active: boolean;
  now?: DateInput;
  onSelect: () => void;
}) {
  const catalog = connection.catalog ?? {};
  const total = Object.values(catalog).reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const quarantined = catalog.quarantined ?? 0;
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={active ? "true" : undefined}
      data-testid="connection-row"
      data-connection-id={connection.id}
      data-status={connection.status}
      data-health={connection.healthStatus}
      className={cn(
        "block w-full space-y-1 px-5 py-3 text-left transition-colors",
        focusRing,
        "focus-visible:-outline-offset-2",
        active ? "bg-accent-50" : "hover:bg-zinc-50",
      )}
    >
      <span className="flex items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium text-zinc-900">{connection.name}</span>
        <ConnectionStatusBadge status={connection.status} />
      </span>
      <span className="block text-xs text-zinc-600">
        {connection.application.name} ·{" "}
        {APPLICATION_TYPE_LABELS[connection.application.type] ?? connection.application.type}
      </span>
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500">
        <HealthBadge health={connection.healthStatus} />
        <span data-testid="connection-catalog-counts">
          {total === 0
            ? "No tools yet"
            : `${plural(catalog.active ?? 0, "active tool", "active tools")} of ${total}`}
        </span>
        {quarantined > 0 ? (
          <Badge tone="warning" dot data-testid="connection-quarantined">
            Quarantined: {quarantined}
          </Badge>
        ) : null}
        <span>
          {connection.lastUsedAt ? (
            <>
              Used <RelativeTime value={connection.lastUsedAt} now={now} />
            </>
          ) : (
            "Never used"
          )}
        </span>
      </span>
    </button>
  );
}

function ConnectionCreateForm({
  companyId,
  applications,
  applicationId,
  onCreated,
}: {
  companyId: string;
  applications: ApplicationChoice[];
  applicationId: string | null;
  onCreated: (connection: Connection) => void;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const [appId, setAppId] = useState(
    applicationId && applications.some((a) => a.id === applicationId)
      ? applicationId
      : applications.length === 1
        ? (applications[0]?.id ?? "")
        : "",
  );
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [pluginId, setPluginId] = useState("");
  const [templateId, setTemplateId] = useState("");
  const [timeout, setTimeoutText] = useState("");
  const [headers, setHeaders] = useState("");
  const [autoApprove, setAutoApprove] = useState(false);
  const [errors, setErrors] = useState<TransportErrors & { application?: string; template?: string }>({});
  const app = applications.find((a) => a.id === appId) ?? null;

  const create = useMutation({
    mutationFn: (body: ConnectionCreateInput) =>
      api<Connection>(toolsApiPath(companyId, "/connections"), { method: "POST", body }),
    onSuccess: (connection) => {
      const withCounts: Connection = { ...connection, catalog: connection.catalog ?? {} };
      for (const key of [
        toolsAccessKeys.connections(companyId, null),
        toolsAccessKeys.connections(companyId, connection.applicationId),
      ]) {
        client.setQueryData<Connection[]>(key, (old) =>
          old && !old.some((c) => c.id === connection.id) ? [...old, withCounts] : old,
        );
      }
      setName("");
      setUrl("");
      setPluginId("");
      setTemplateId("");
      setTimeoutText("");
      setHeaders("");
      setAutoApprove(false);
      onCreated(withCounts);
      return invalidateConnections(client, companyId);
    },
  });

  if (applications.length === 0) {
    return (
      <Card>
        <CardHeader title="New connection" titleAs="h3" />
        <CardBody>
          <p className="text-sm text-zinc-600" data-testid="connection-create-no-apps">
            Register an application first; connections belong to one.{" "}
            <Link href={applicationsHref(companyId)} className={linkClass}>
              Go to Applications
            </Link>
          </p>
        </CardBody>
      </Card>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!app) {
      setErrors({ application: "Choose an application." });
      return;
    }
    const built = buildTransportConfig(app.type, { url, pluginId, timeout, headers });
    const next: TransportErrors & { application?: string; template?: string } = built.ok ? {} : built.errors;
    if (!name.trim()) next.name = "Give the connection a name.";
    if (app.type === "mcp_stdio" && !templateId.trim())
      next.template = "Enter the id of an admin-made command template.";
    setErrors(next);
    if (!built.ok || Object.keys(next).length > 0) return;
    const body: ConnectionCreateInput = {
      applicationId: app.id,
      name: name.trim(),
      transportConfig: built.value,
      autoApproveReadTools: autoApprove,
    };
    if (app.type === "mcp_stdio") body.stdioTemplateId = templateId.trim();
    create.mutate(body);
  }

  const inlineSecret = isApiError(create.error) && create.error.code === "inline_secret";

  return (
    <Card>
      <CardHeader
        title="New connection"
        titleAs="h3"
        description="It starts as a Draft and exposes nothing until you test it, review its catalog and enable it."
      />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-3" aria-label="Create a connection">
          <Field
            id={`${id}-application`}
            label="Application"
            required
            error={errors.application}
            hint={app ? <ApplicationTypeBadge type={app.type} /> : undefined}
          >
            {(control) => (
              <Select
                {...control}
                value={appId}
                onChange={(e) => {
                  setAppId(e.target.value);
                  setErrors({});
                }}
                data-testid="connection-create-application"
              >
                <option value="">Choose an application…</option>
                {applications.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.slug})
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field id={`${id}-name`} label="Name" required error={errors.name}>
            {(control) => (
              <Input
                {...control}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. acme-robotics org"
                maxLength={100}
                data-testid="connection-create-name"
              />
            )}
          </Field>
          {app?.type === "mcp_http" ? (
            <Field id={`${id}-url`} label="URL" required error={errors.url} hint="The MCP endpoint, http(s).">
              {(control) => (
                <Input
                  {...control}
                  type="url"
                  value={url}
                  onChange={(e) => setUrl(e.target.value)}
                  placeholder="https://mcp.example.com/mcp"
                  className="font-mono"
                  spellCheck={false}
                  autoComplete="off"
                  data-testid="connection-create-url"
                />
              )}
            </Field>
          ) : null}
          {app?.type === "paperclip_plugin" ? (
            <Field id={`${id}-plugin`} label="Plugin id" required error={errors.pluginId}>
              {(control) => (
                <Input
                  {...control}
                  value={pluginId}
                  onChange={(e) => setPluginId(e.target.value)}
                  placeholder="e.g. text-utils"
                  className="font-mono"
                  maxLength={48}
                  spellCheck={false}
                  data-testid="connection-create-plugin"
                />
              )}
            </Field>
          ) : null}
          {app?.type === "mcp_stdio" ? (
            <Field
              id={`${id}-template`}
              label="Command template id"
              required
              error={errors.template}
              hint="Local servers start only from a command template an admin made; agents never supply commands."
            >
              {(control) => (
                <Input
                  {...control}
                  value={templateId}
                  onChange={(e) => setTemplateId(e.target.value)}
                  className="font-mono"
                  spellCheck={false}
                  data-testid="connection-create-template"
                />
              )}
            </Field>
          ) : null}
          {app ? (
            <Field
              id={`${id}-timeout`}
              label="Timeout (ms)"
              hint="Optional; empty for the server default."
              error={errors.timeout}
            >
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={100}
                  max={120000}
                  value={timeout}
                  onChange={(e) => setTimeoutText(e.target.value)}
                  placeholder="30000"
                  data-testid="connection-create-timeout"
                />
              )}
            </Field>
          ) : null}
          {app?.type === "mcp_http" ? (
            <Field
              id={`${id}-headers`}
              label="Non-secret headers"
              hint="Optional, one per line as Name: value. Tokens belong in a bound secret."
              error={errors.headers}
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={2}
                  value={headers}
                  onChange={(e) => setHeaders(e.target.value)}
                  placeholder="X-Region: eu"
                  className="font-mono"
                  spellCheck={false}
                  data-testid="connection-create-headers"
                />
              )}
            </Field>
          ) : null}
          {app?.type === "mcp_http" ? (
            <p className="text-sm text-zinc-600" data-testid="private-upstream-note">
              {PRIVATE_UPSTREAM_NOTE}.
            </p>
          ) : null}
          {app ? (
            <Checkbox
              label="Auto-approve read tools"
              description="New read-only tools found on refresh become active without review. Write and destructive tools always wait for review."
              checked={autoApprove}
              onChange={(e) => setAutoApprove(e.target.checked)}
              data-testid="connection-create-auto-approve"
            />
          ) : null}
          <ApiErrorAlert
            error={create.error}
            title={inlineSecret ? "These settings hold a credential" : "Could not create the connection"}
            actions={
              inlineSecret ? (
                <p className="text-sm">
                  Create the connection without it, then bind a company secret to it under Secrets.
                </p>
              ) : null
            }
          />
          <div className="flex justify-end">
            <PendingButton
              pending={create.isPending}
              pendingLabel="Creating…"
              type="submit"
              size="sm"
              data-testid="connection-create-submit"
            >
              Create draft connection
            </PendingButton>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
