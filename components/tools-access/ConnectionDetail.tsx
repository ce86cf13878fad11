"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { DateInput } from "../format";
import { type ActionButtonSpec, ActionButtons } from "../ui/ActionButtons";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { cn } from "../ui/cn";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { isApiError, toolsAccessKeys, toolsApiPath } from "./api";
import { ConnectionStatusBadge, HealthBadge } from "./badges";
import { CatalogTable } from "./CatalogTable";
import { connectionReady, HealthCard, Readiness } from "./ConnectionHealth";
import { ConnectionRelaySettings } from "./ConnectionRelaySettings";
import { SettingsCard } from "./ConnectionSettings";
import {
  CONNECTION_LIFECYCLE,
  disabledReasonText,
  invalidateConnections,
  plural,
  updateCachedConnection,
} from "./gateway";
import { useSeededQuery } from "./hooks";
import { operatorCanAllow, PrivateUpstreamHint } from "./PrivateUpstreamHint";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { SecretBindings } from "./SecretBindings";
import { ServerText } from "./ServerText";
import { useToolsApi } from "./ToolsApiProvider";
import type {
  CatalogRefreshResult,
  Connection,
  ConnectionCatalogEntry,
  ConnectionTestResult,
  UpstreamOAuthReturn,
} from "./types";
import { UpstreamAuthorizationPanel } from "./UpstreamAuthorizationPanel";

export { ServerText } from "./ServerText";
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
  /** Instance settings, when the viewer is an instance admin (private upstreams are allowed there). */
  instanceSettingsHref?: string | null;
  /** The upstream OAuth callback's outcome, shown in the Authorization panel. */
  oauthReturn?: UpstreamOAuthReturn;
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
  className?: string;
}

function missingOf(error: unknown): string[] {
  if (!isApiError(error) || error.code !== "connection_not_ready") return [];
  const raw = error.details?.missing;
  return Array.isArray(raw) ? raw.filter((m): m is string => typeof m === "string") : [];
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
  instanceSettingsHref,
  oauthReturn = null,
  now,
  className,
}: ConnectionDetailProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const base = toolsApiPath(companyId, `/connections/${encodeURIComponent(initial.id)}`);
  const query = useSeededQuery(
    toolsAccessKeys.connection(companyId, initial.id),
    base,
    (r: Connection) => r,
    initial,
  );
  const connection = query.data;
  const [confirming, setConfirming] = useState<"disable" | "archive" | null>(null);
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
    onSuccess: applyConnection,
  });
  const archive = useMutation({
    mutationFn: () => api<Connection>(`${base}/archive`, { method: "POST" }),
    onSuccess: applyConnection,
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

  /** The button of a verb that runs at once: its own pending text, and every button waits while it runs. */
  const verbs = { test, refresh, enable };
  const verbAction = (verb: keyof typeof verbs, label: string, pendingLabel: string): ActionButtonSpec => ({
    label,
    pending: pending === verb,
    pendingLabel,
    // Enable is the primary action only once the connection is ready (issue 21, item 14); before
    // that it stays clickable, as the server names what is still missing (secrets included).
    variant: verb === "enable" && ready ? undefined : "secondary",
    ...(verb === "enable" && !ready
      ? { title: "Not ready yet: see the steps above", "aria-describedby": `${id}-readiness` }
      : {}),
    disabled: busy,
    onClick: () => run(() => verbs[verb].mutate()),
    "data-testid": `connection-${verb}`,
  });

  const ready = connectionReady(connection);
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
            <Readiness connection={connection} id={`${id}-readiness`} />
          ) : null}
          {!canEdit ? (
            <ReadOnlyNote data-testid="connection-read-only">
              You can view this connection but not change it.
            </ReadOnlyNote>
          ) : null}
          {canAct ? (
            <div className="flex flex-wrap gap-2">
              <ActionButtons
                actions={[
                  verbAction("test", "Test", "Testing…"),
                  verbAction("refresh", "Refresh catalog", "Refreshing…"),
                  canEnable && verbAction("enable", "Enable", "Enabling…"),
                  connection.status === "active" && {
                    label: "Disable",
                    variant: "secondary",
                    disabled: busy,
                    onClick: () => run(() => setConfirming("disable")),
                    "data-testid": "connection-disable",
                  },
                  {
                    label: "Archive",
                    variant: "ghost",
                    className: "text-red-700 hover:bg-red-50 hover:text-red-800",
                    disabled: busy,
                    onClick: () => run(() => setConfirming("archive")),
                    "data-testid": "connection-archive",
                  },
                ]}
              />
            </div>
          ) : null}
          <ConfirmDialog
            open={confirming === "disable"}
            onClose={() => setConfirming(null)}
            title={`Disable ${connection.name}?`}
            body="Agents lose its tools at once; enable it again when ready."
            note={{ label: "Reason (optional)", maxLength: 500, hint: "Shown to other admins" }}
            confirmLabel="Disable connection"
            pendingLabel="Disabling…"
            tone="danger"
            errorTitle="Could not disable the connection"
            onConfirm={(reason) => disable.mutateAsync(reason ? { reason } : {})}
            data-testid="connection-disable-dialog"
          />
          <ConfirmDialog
            open={confirming === "archive"}
            onClose={() => setConfirming(null)}
            title={`Archive ${connection.name}?`}
            body="Agents lose its tools and it cannot be enabled again. Archiving is final."
            confirmLabel="Archive connection"
            pendingLabel="Archiving…"
            tone="danger"
            errorTitle="Could not archive the connection"
            onConfirm={() => archive.mutateAsync()}
            data-testid="connection-archive-dialog"
          />
          <ApiErrorAlert
            error={test.error}
            title="Could not test the connection"
            actions={
              isApiError(test.error) && operatorCanAllow(test.error.code, test.error.message) ? (
                <PrivateUpstreamHint instanceSettingsHref={instanceSettingsHref} />
              ) : null
            }
          />
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
        <HealthCard
          connection={connection}
          lastTest={lastTest}
          now={now}
          instanceSettingsHref={instanceSettingsHref}
        />
        <SettingsCard companyId={companyId} connection={connection} canEdit={canAct} now={now} />
        <ConnectionRelaySettings companyId={companyId} connection={connection} canEdit={canAct} />
      </div>

      {connection.application.type === "mcp_http" && !archived ? (
        <UpstreamAuthorizationPanel
          companyId={companyId}
          connectionId={connection.id}
          canEdit={canAct}
          oauthReturn={oauthReturn}
          now={now}
        />
      ) : null}

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
