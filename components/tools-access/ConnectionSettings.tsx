"use client";

import { type FormEvent, useId, useState } from "react";
import { type DateInput, formatDuration } from "../format";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { NameField } from "../ui/FieldControls";
import { KeyValueList } from "../ui/KeyValueList";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { isApiError } from "./api";
import { When } from "./ConnectionHealth";
import { ConnectionTransportFields, type TransportValues } from "./ConnectionTransportFields";
import { Checkbox } from "./controls";
import { buildTransportConfig, formatHeaders, type TransportErrors } from "./gateway";
import type { Connection, ConnectionUpdateInput } from "./types";
import { useConnectionUpdate } from "./useConnectionUpdate";

/** Transport settings of a connection, with the edit form when `canEdit`. */
export function SettingsCard({
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
  const [editing, setEditing] = useState(false);
  const update = useConnectionUpdate<ConnectionUpdateInput>(companyId, connection.id, () =>
    setEditing(false),
  );
  const config = connection.transportConfig;
  const type = connection.application.type;
  /** Where the transport reaches its server: a URL, a plugin or a command template (none for self). */
  const targets: Partial<
    Record<typeof type, { label: string; value?: string | null; className: string; testId?: string }>
  > = {
    mcp_http: {
      label: "URL",
      value: config.url,
      className: "font-mono text-xs break-all",
      testId: "connection-url",
    },
    paperclip_plugin: { label: "Plugin", value: config.pluginId, className: "font-mono text-xs" },
    mcp_stdio: {
      label: "Command template",
      value: connection.stdioTemplateId,
      className: "font-mono text-xs",
    },
  };
  const target = targets[type];
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
              ...(target
                ? [
                    {
                      label: target.label,
                      value: target.value ? (
                        <code className={target.className} data-testid={target.testId}>
                          {target.value}
                        </code>
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
  const [transport, setTransport] = useState<TransportValues>({
    url: config.url ?? "",
    pluginId: config.pluginId ?? "",
    timeout: config.timeoutMs ? String(config.timeoutMs) : "",
    headers: formatHeaders(config.headers),
  });
  const [autoApprove, setAutoApprove] = useState(connection.autoApproveReadTools);
  const [errors, setErrors] = useState<TransportErrors>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const built = buildTransportConfig(type, transport, config);
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
      <NameField
        idPrefix={id}
        error={errors.name}
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={100}
      />
      <ConnectionTransportFields
        id={id}
        type={type}
        mode="edit"
        values={transport}
        onChange={(patch) => setTransport((t) => ({ ...t, ...patch }))}
        errors={errors}
      />
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
