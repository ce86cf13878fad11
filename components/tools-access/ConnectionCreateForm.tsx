"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { InputField, NameField, SelectField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { isApiError, toolsAccessKeys, toolsApiPath } from "./api";
import { ConnectionTransportFields, type TransportValues } from "./ConnectionTransportFields";
import { CreateFormCard } from "./CreateFormCard";
import { Checkbox } from "./controls";
import {
  applicationsHref,
  buildTransportConfig,
  invalidateConnections,
  type TransportErrors,
} from "./gateway";
import { useToolsApi } from "./ToolsApiProvider";
import type { ApplicationChoice, Connection, ConnectionCreateInput } from "./types";
import { linkClass } from "./view-helpers";

const NO_TRANSPORT: TransportValues = { url: "", pluginId: "", timeout: "", headers: "" };

/** Creates a draft connection of one of the company's applications. */
export function ConnectionCreateForm({
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
  const [transport, setTransport] = useState<TransportValues>(NO_TRANSPORT);
  const [templateId, setTemplateId] = useState("");
  const [autoApprove, setAutoApprove] = useState(false);
  const [errors, setErrors] = useState<TransportErrors & { application?: string; template?: string }>({});
  const field = fieldFrame(id, errors);
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
      setTransport(NO_TRANSPORT);
      setTemplateId("");
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
    const built = buildTransportConfig(app.type, transport);
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
    <CreateFormCard
      title="New connection"
      description="It starts as a Draft and exposes nothing until you test it, review its catalog and enable it."
      label="Create a connection"
      onSubmit={submit}
      pending={create.isPending}
      submitLabel="Create draft connection"
      submitTestId="connection-create-submit"
    >
      <SelectField
        {...field("application", "Application", { required: true })}
        hint={app ? <ApplicationTypeBadge type={app.type} /> : undefined}
        value={appId}
        onChange={(e) => {
          setAppId(e.target.value);
          setErrors({});
        }}
        data-testid="connection-create-application"
        placeholder="Choose an application…"
        options={applications.map((a) => ({ value: a.id, label: `${a.name} (${a.slug})` }))}
      />
      <NameField
        idPrefix={id}
        error={errors.name}
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="e.g. acme-robotics org"
        maxLength={100}
        data-testid="connection-create-name"
      />
      {app ? (
        <ConnectionTransportFields
          id={id}
          type={app.type}
          mode="create"
          values={transport}
          onChange={(patch) => setTransport((t) => ({ ...t, ...patch }))}
          errors={errors}
          beforeTimeout={
            app.type === "mcp_stdio" ? (
              <InputField
                {...field("template", "Command template id", { required: true })}
                hint="Local servers start only from a command template an admin made; agents never supply commands."
                value={templateId}
                onChange={(e) => setTemplateId(e.target.value)}
                className="font-mono"
                spellCheck={false}
                data-testid="connection-create-template"
              />
            ) : null
          }
        />
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
    </CreateFormCard>
  );
}
