"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, Fragment, type ReactNode, useId, useState } from "react";
import { type DateInput, formatDuration } from "../format";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { Field } from "../ui/Field";
import { Input } from "../ui/Input";
import { KeyValueList } from "../ui/KeyValueList";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";
import { Textarea } from "../ui/Textarea";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { isApiError, toolsAccessKeys, toolsApiPath } from "./api";
import { CatalogTable } from "./CatalogTable";
import { ConnectionStatusBadge } from "./ConnectionStatusBadge";
import { Checkbox, ConfirmBar } from "./controls";
import {
  buildTransportConfig,
  CONNECTION_LIFECYCLE,
  disabledReasonText,
  formatHeaders,
  invalidateConnections,
  PRIVATE_UPSTREAM_NOTE,
  plural,
  type TransportErrors,
  updateCachedConnection,
} from "./gateway";
import { HealthBadge } from "./HealthBadge";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { SecretBindings } from "./SecretBindings";
import { useToolsApi } from "./ToolsApiProvider";
import type {
  CatalogRefreshResult,
  Connection,
  ConnectionCatalogEntry,
  ConnectionTestResult,
  ConnectionUpdateInput,
} from "./types";

export type { Connection } from "./types";

export interface ConnectionDetailProps {
  companyId: string;
  /** Seeds the `toolsAccessKeys.connection(companyId, id)` query. */
  connection: Connection;
  /** Without it every control is hidden. */
  canEdit: boolean;
  /** Shows a "Close" button. */
  onClose?: () => void;
  /** Link to the page where secrets are created (shown when there is none to bind). */
  secretsHref?: string;
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
  className?: string;
}

/** Renders `code` spans for the backtick-quoted parts of a server message. */
export function ServerText({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never reorder
          <code key={index} className="rounded bg-black/5 px-1 font-mono text-[0.85em]">
            {part}
          </code>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never reorder
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

function missingOf(error: unknown): string[] {
  if (!isApiError(error) || error.code !== "connection_not_ready") return [];
  const raw = error.details?.missing;
  return Array.isArray(raw) ? raw.filter((m): m is string => typeof m === "string") : [];
}

function When({ value, now, never }: { value: string | null; now?: DateInput; never: string }) {
  return value ? <RelativeTime value={value} now={now} /> : <span className="text-zinc-500">{never}</span>;
}

type Pending = "test" | "refresh" | "enable" | "disable" | "archive" | null;

/**
 * One connection: lifecycle actions (test, refresh catalog, enable, disable, archive), health,
 * transport settings, the catalog to review and the bound secrets.
 */
export function ConnectionDetail({
  companyId,
  connection: initial,
  canEdit,
  onClose,
  secretsHref,
  now,
  className,
}: ConnectionDetailProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const base = toolsApiPath(companyId, `/connections/${encodeURIComponent(initial.id)}`);
  const query = useQuery({
    queryKey: toolsAccessKeys.connection(companyId, initial.id),
    queryFn: ({ signal }) => api<Connection>(base, { signal }),
    initialData: initial,
  });
  const connection = query.data;
  const [confirming, setConfirming] = useState<"disable" | "archive" | null>(null);
  const [reason, setReason] = useState("");
  const [lastTest, setLastTest] = useState<Omit<ConnectionTestResult, "connection"> | null>(null);
  const [lastRefresh, setLastRefresh] = useState<Omit<CatalogRefreshResult, "entries"> | null>(null);

  const applyConnection = (next: Connection) => {
    updateCachedConnection(client, companyId, next);
    return invalidateConnections(client, companyId);
  };

  const test = useMutation({
    mutationFn: () => api<ConnectionTestResult>(`${base}/test`, { method: "POST" }),
    onSuccess: ({ connection: next, ...result }) => {
      setLastTest(result);
      return applyConnection(next);
    },
  });
  const refresh = useMutation({
    mutationFn: () => api<CatalogRefreshResult>(`${base}/catalog/refresh`, { method: "POST" }),
    onSuccess: ({ entries, ...summary }) => {
      client.setQueryData<ConnectionCatalogEntry[]>(
        toolsAccessKeys.connectionCatalog(companyId, initial.id),
        entries,
      );
      setLastRefresh(summary);
      return invalidateConnections(client, companyId);
    },
  });
  const enable = useMutation({
    mutationFn: () => api<Connection>(`${base}/enable`, { method: "POST" }),
    onSuccess: applyConnection,
  });
  const disable = useMutation({
    mutationFn: (body: { reason?: string }) => api<Connection>(`${base}/disable`, { method: "POST", body }),
    onSuccess: (next) => {
      setConfirming(null);
      setReason("");
      return applyConnection(next);
    },
  });
  const archive = useMutation({
    mutationFn: () => api<Connection>(`${base}/archive`, { method: "POST" }),
    onSuccess: (next) => {
      setConfirming(null);
      return applyConnection(next);
    },
  });
  const all = [test, refresh, enable, disable, archive];
  const pending: Pending = test.isPending
    ? "test"
    : refresh.isPending
      ? "refresh"
      : enable.isPending
        ? "enable"
        : disable.isPending
          ? "disable"
          : archive.isPending
            ? "archive"
            : null;
  const busy = pending !== null;

  /** Only the latest action's outcome is shown. */
  function run(action: () => void) {
    for (const m of all) m.reset();
    setLastTest(null);
    setLastRefresh(null);
    action();
  }

  const archived = connection.status === "archived";
  const canAct = canEdit && !archived;
  const canEnable = connection.status === "draft" || connection.status === "disabled";
  const missing = missingOf(enable.error);
  const reasonText = connection.status === "disabled" ? disabledReasonText(connection.disabledReason) : null;

  return (
    <div
      className={cn("space-y-6", className)}
      data-testid="connection-detail"
      data-connection-id={connection.id}
      data-status={connection.status}
    >
      <Card>
        <CardHeader
          title={
            <span className="flex flex-wrap items-center gap-2">
              <span data-testid="connection-detail-name">{connection.name}</span>
              <ConnectionStatusBadge status={connection.status} />
              <HealthBadge health={connection.healthStatus} />
            </span>
          }
          description={
            <span className="flex flex-wrap items-center gap-2">
              <span>{connection.application.name}</span>
              <code className="font-mono text-xs">{connection.application.slug}__*</code>
              <ApplicationTypeBadge type={connection.application.type} />
            </span>
          }
          actions={
            onClose ? (
              <Button variant="ghost" size="sm" onClick={onClose}>
                Close
              </Button>
            ) : null
          }
        >
          {connection.status === "draft" || connection.status === "disabled" ? (
            <p className="text-sm text-zinc-600" data-testid="connection-lifecycle">
              {CONNECTION_LIFECYCLE}
            </p>
          ) : null}
        </CardHeader>
        <CardBody className="space-y-4">
          {archived ? (
            <p className="text-sm text-zinc-600" data-testid="connection-archived">
              This connection is archived: it exposes no tools and cannot come back. Archiving is final.
            </p>
          ) : null}
          {reasonText ? (
            <Alert tone="warning" title="Disabled" data-testid="connection-disabled-reason">
              {reasonText}
            </Alert>
          ) : null}
          {connection.status === "draft" || connection.status === "disabled" ? (
            <Readiness connection={connection} />
          ) : null}
          {!canEdit ? (
            <ReadOnlyNote data-testid="connection-read-only">
              You can view this connection but not change it.
            </ReadOnlyNote>
          ) : null}
          {canAct ? (
            <div className="flex flex-wrap gap-2">
              <PendingButton
                pending={pending === "test"}
                pendingLabel="Testing…"
                variant="secondary"
                size="sm"
                disabled={busy}
                onClick={() => run(() => test.mutate())}
                data-testid="connection-test"
              >
                Test
              </PendingButton>
              <PendingButton
                pending={pending === "refresh"}
                pendingLabel="Refreshing…"
                variant="secondary"
                size="sm"
                disabled={busy}
                onClick={() => run(() => refresh.mutate())}
                data-testid="connection-refresh"
              >
                Refresh catalog
              </PendingButton>
              {canEnable ? (
                <PendingButton
                  pending={pending === "enable"}
                  pendingLabel="Enabling…"
                  size="sm"
                  disabled={busy}
                  onClick={() => run(() => enable.mutate())}
                  data-testid="connection-enable"
                >
                  Enable
                </PendingButton>
              ) : null}
              {connection.status === "active" ? (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  onClick={() => run(() => setConfirming("disable"))}
                  data-testid="connection-disable"
                >
                  Disable
                </Button>
              ) : null}
              <Button
                variant="ghost"
                size="sm"
                className="text-red-700 hover:bg-red-50 hover:text-red-800"
                disabled={busy}
                onClick={() => run(() => setConfirming("archive"))}
                data-testid="connection-archive"
              >
                Archive
              </Button>
            </div>
          ) : null}
          {confirming === "disable" ? (
            <form
              className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3"
              aria-labelledby={`${id}-disable-title`}
              data-testid="connection-disable-form"
              onSubmit={(event: FormEvent<HTMLFormElement>) => {
                event.preventDefault();
                const r = reason.trim();
                disable.mutate(r ? { reason: r } : {});
              }}
            >
              <p id={`${id}-disable-title`} className="text-sm text-amber-900">
                Disable “{connection.name}”? Agents lose its tools at once; enable it again when ready.
              </p>
              <Field id={`${id}-reason`} label="Reason (optional)" hint="Shown to other admins.">
                {(control) => (
                  <Input
                    {...control}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                    maxLength={500}
                    placeholder="e.g. upstream maintenance"
                    data-testid="connection-disable-reason"
                  />
                )}
              </Field>
              <div className="flex justify-end gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setConfirming(null)}
                  disabled={disable.isPending}
                >
                  Cancel
                </Button>
                <PendingButton
                  pending={disable.isPending}
                  pendingLabel="Disabling…"
                  type="submit"
                  size="sm"
                  data-testid="connection-disable-confirm"
                >
                  Disable connection
                </PendingButton>
              </div>
            </form>
          ) : null}
          {confirming === "archive" ? (
            <ConfirmBar
              confirmLabel="Archive connection"
              pending={archive.isPending}
              onCancel={() => setConfirming(null)}
              onConfirm={() => archive.mutate()}
              data-testid="connection-archive-bar"
            >
              Archive “{connection.name}”? Agents lose its tools and it cannot be enabled again. Archiving is
              final.
            </ConfirmBar>
          ) : null}
          <ApiErrorAlert error={test.error} title="Could not test the connection" />
          <ApiErrorAlert error={refresh.error} title="Could not refresh the catalog" />
          <ApiErrorAlert
            error={enable.error}
            title={
              missing.length > 0 ? "The connection is not ready to enable" : "Could not enable the connection"
            }
            data-testid="connection-enable-error"
            actions={
              missing.length > 0 ? (
                <div className="text-sm" data-testid="connection-not-ready">
                  <p className="font-medium">Still needed:</p>
                  <ul className="mt-1 list-disc space-y-0.5 pl-5">
                    {missing.map((m) => (
                      <li key={m}>
                        <ServerText text={m} />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null
            }
          />
          <ApiErrorAlert error={disable.error} title="Could not disable the connection" />
          <ApiErrorAlert error={archive.error} title="Could not archive the connection" />
          {lastRefresh ? (
            <Alert
              tone={lastRefresh.quarantined > 0 ? "warning" : "success"}
              title="Catalog refreshed"
              data-testid="connection-refresh-result"
            >
              {lastRefresh.added} added, {lastRefresh.changed} changed, {lastRefresh.unchanged} unchanged,{" "}
              {lastRefresh.removed} removed.
              {lastRefresh.quarantined > 0
                ? ` ${plural(lastRefresh.quarantined, "tool is", "tools are")} quarantined: review them in the catalog below.`
                : ""}
            </Alert>
          ) : null}
          {enable.isSuccess ? (
            <Alert tone="success" data-testid="connection-enabled">
              Enabled. Agents whose profiles include this application can now use its approved tools.
            </Alert>
          ) : null}
        </CardBody>
      </Card>

      <div className="grid items-start gap-6 xl:grid-cols-2">
        <HealthCard connection={connection} lastTest={lastTest} now={now} />
        <SettingsCard companyId={companyId} connection={connection} canEdit={canAct} now={now} />
      </div>

      <CatalogTable companyId={companyId} connectionId={connection.id} canEdit={canAct} now={now} />

      <SecretBindings
        companyId={companyId}
        connectionId={connection.id}
        applicationType={connection.application.type}
        canEdit={canAct}
        secretsHref={secretsHref}
      />
    </div>
  );
}

function Readiness({ connection }: { connection: Connection }) {
  const steps: { label: ReactNode; done: boolean }[] = [
    { label: "Health check passes (Test)", done: connection.healthStatus === "ok" },
    { label: "Catalog refreshed", done: connection.catalogRefreshedAt !== null },
    {
      label: "Catalog reviewed (approve or disable its quarantined tools)",
      done: connection.catalogReviewedAt !== null,
    },
  ];
  return (
    <div data-testid="connection-readiness">
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

function HealthCard({
  connection,
  lastTest,
  now,
}: {
  connection: Connection;
  lastTest: Omit<ConnectionTestResult, "connection"> | null;
  now?: DateInput;
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

function SettingsCard({
  companyId,
  connection,
  canEdit,
  now,
}: {
  companyId: string;
  connection: Connection;
  canEdit: boolean;
  now?: DateInput;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const update = useMutation({
    mutationFn: (body: ConnectionUpdateInput) =>
      api<Connection>(toolsApiPath(companyId, `/connections/${encodeURIComponent(connection.id)}`), {
        method: "PATCH",
        body,
      }),
    onSuccess: (next) => {
      updateCachedConnection(client, companyId, next);
      setEditing(false);
      return invalidateConnections(client, companyId);
    },
  });
  const config = connection.transportConfig;
  const type = connection.application.type;
  const headers = Object.entries(config.headers ?? {});

  return (
    <Card data-testid="connection-settings">
      <CardHeader
        title="Settings"
        titleAs="h3"
        description="Transport settings. Credentials never go here: bind a secret instead."
        actions={
          canEdit && !editing ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                update.reset();
                setEditing(true);
              }}
              data-testid="connection-edit"
            >
              Edit
            </Button>
          ) : null
        }
      />
      <CardBody className="space-y-3">
        {editing ? (
          <ConnectionSettingsForm
            connection={connection}
            pending={update.isPending}
            error={update.error}
            onCancel={() => setEditing(false)}
            onSubmit={(body) => update.mutate(body)}
          />
        ) : (
          <KeyValueList
            items={[
              ...(type === "mcp_http"
                ? [
                    {
                      label: "URL",
                      value: config.url ? (
                        <code className="font-mono text-xs break-all" data-testid="connection-url">
                          {config.url}
                        </code>
                      ) : null,
                    },
                  ]
                : []),
              ...(type === "paperclip_plugin"
                ? [
                    {
                      label: "Plugin",
                      value: config.pluginId ? (
                        <code className="font-mono text-xs">{config.pluginId}</code>
                      ) : null,
                    },
                  ]
                : []),
              ...(type === "mcp_stdio"
                ? [
                    {
                      label: "Command template",
                      value: connection.stdioTemplateId ? (
                        <code className="font-mono text-xs">{connection.stdioTemplateId}</code>
                      ) : null,
                    },
                  ]
                : []),
              {
                label: "Timeout",
                value: config.timeoutMs ? formatDuration(config.timeoutMs) : "Server default",
              },
              ...(config.maxResultBytes
                ? [{ label: "Max result", value: `${Math.round(config.maxResultBytes / 1024)} KB` }]
                : []),
              {
                label: "Headers",
                value:
                  headers.length > 0 ? (
                    <ul className="space-y-0.5" data-testid="connection-headers">
                      {headers.map(([name, value]) => (
                        <li key={name} className="font-mono text-xs">
                          {name}: {value}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <span className="text-zinc-500">None</span>
                  ),
              },
              {
                label: "Auto-approve reads",
                value: connection.autoApproveReadTools
                  ? "Yes: new read-only tools activate without review"
                  : "No",
              },
              {
                label: "Catalog refreshed",
                value: <When value={connection.catalogRefreshedAt} now={now} never="Never" />,
              },
              {
                label: "Catalog reviewed",
                value: <When value={connection.catalogReviewedAt} now={now} never="Never" />,
              },
              {
                label: "Last used",
                value: <When value={connection.lastUsedAt} now={now} never="Never used" />,
              },
              { label: "Created", value: <RelativeTime value={connection.createdAt} now={now} /> },
            ]}
          />
        )}
      </CardBody>
    </Card>
  );
}

function ConnectionSettingsForm({
  connection,
  pending,
  error,
  onCancel,
  onSubmit,
}: {
  connection: Connection;
  pending: boolean;
  error: unknown;
  onCancel: () => void;
  onSubmit: (body: ConnectionUpdateInput) => void;
}) {
  const id = useId();
  const type = connection.application.type;
  const config = connection.transportConfig;
  const [name, setName] = useState(connection.name);
  const [url, setUrl] = useState(config.url ?? "");
  const [pluginId, setPluginId] = useState(config.pluginId ?? "");
  const [timeout, setTimeoutText] = useState(config.timeoutMs ? String(config.timeoutMs) : "");
  const [headers, setHeaders] = useState(formatHeaders(config.headers));
  const [autoApprove, setAutoApprove] = useState(connection.autoApproveReadTools);
  const [errors, setErrors] = useState<TransportErrors>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const built = buildTransportConfig(type, { url, pluginId, timeout, headers }, config);
    const next: TransportErrors = built.ok ? {} : { ...built.errors };
    if (!name.trim()) next.name = "Give the connection a name.";
    setErrors(next);
    if (!built.ok || Object.keys(next).length > 0) return;
    const body: ConnectionUpdateInput = {};
    if (name.trim() !== connection.name) body.name = name.trim();
    if (JSON.stringify(built.value) !== JSON.stringify(config)) body.transportConfig = built.value;
    if (autoApprove !== connection.autoApproveReadTools) body.autoApproveReadTools = autoApprove;
    if (Object.keys(body).length === 0) {
      onCancel();
      return;
    }
    onSubmit(body);
  }

  const isSecretError = isApiError(error) && error.code === "inline_secret";

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Edit connection settings">
      <Field id={`${id}-name`} label="Name" required error={errors.name}>
        {(control) => (
          <Input {...control} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        )}
      </Field>
      {type === "mcp_http" ? (
        <Field id={`${id}-url`} label="URL" required error={errors.url}>
          {(control) => (
            <Input
              {...control}
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              className="font-mono"
              spellCheck={false}
              data-testid="connection-edit-url"
            />
          )}
        </Field>
      ) : null}
      {type === "paperclip_plugin" ? (
        <Field id={`${id}-plugin`} label="Plugin id" required error={errors.pluginId}>
          {(control) => (
            <Input
              {...control}
              value={pluginId}
              onChange={(e) => setPluginId(e.target.value)}
              className="font-mono"
              maxLength={48}
            />
          )}
        </Field>
      ) : null}
      <Field
        id={`${id}-timeout`}
        label="Timeout (ms)"
        hint="Empty for the server default."
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
          />
        )}
      </Field>
      {type === "mcp_http" ? (
        <>
          <Field
            id={`${id}-headers`}
            label="Non-secret headers"
            hint="One per line as Name: value. Tokens belong in a bound secret."
            error={errors.headers}
          >
            {(control) => (
              <Textarea
                {...control}
                rows={3}
                value={headers}
                onChange={(e) => setHeaders(e.target.value)}
                className="font-mono"
                spellCheck={false}
                data-testid="connection-edit-headers"
              />
            )}
          </Field>
          <p className="text-sm text-zinc-600" data-testid="private-upstream-note">
            {PRIVATE_UPSTREAM_NOTE}.
          </p>
        </>
      ) : null}
      <Checkbox
        label="Auto-approve read tools"
        description="New read-only tools found on refresh become active without review. Write and destructive tools always wait for review."
        checked={autoApprove}
        onChange={(e) => setAutoApprove(e.target.checked)}
      />
      {connection.status === "active" ? (
        <p className="text-sm text-amber-800">
          Changing the URL, headers or timeout takes this connection out of service until it is tested and
          enabled again.
        </p>
      ) : null}
      <ApiErrorAlert
        error={error}
        title={isSecretError ? "These settings hold a credential" : "Could not save the settings"}
        actions={
          isSecretError ? (
            <p className="text-sm">
              Create a company secret for it and bind it to this connection under Secrets.
            </p>
          ) : null
        }
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <PendingButton
          pending={pending}
          pendingLabel="Saving…"
          type="submit"
          size="sm"
          data-testid="connection-edit-submit"
        >
          Save settings
        </PendingButton>
      </div>
    </form>
  );
}
