"use client";

import "../zod-config";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useMemo } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { InputField, NameField, SelectField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { ApplicationTypeBadge } from "./ApplicationTypeBadge";
import { isApiError, toolsAccessKeys, toolsApiPath } from "./api";
import { ConnectionTransportFields, type TransportValues } from "./ConnectionTransportFields";
import { CreateFormCard } from "./CreateFormCard";
import { Checkbox } from "./controls";
import { addFieldIssues, type FieldMessages, flattenFieldErrors, useServerFieldErrors } from "./form-errors";
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

/** The create form's fields: the transport's raw texts next to the connection's own. */
export interface ConnectionCreateValues extends TransportValues {
  applicationId: string;
  name: string;
  templateId: string;
  autoApprove: boolean;
}

type ConnectionCreateErrors = TransportErrors & { application?: string; template?: string };

/**
 * The create form's checks, for the chosen application's type, turning valid fields into the
 * request body (the transport settings as `buildTransportConfig` builds them).
 */
export function connectionCreateSchema(applications: ApplicationChoice[]) {
  const appOf = (id: string) => applications.find((a) => a.id === id);
  return z
    .object({
      applicationId: z.string(),
      name: z.string().trim().max(100, "Use at most 100 characters."),
      url: z.string(),
      pluginId: z.string(),
      timeout: z.string(),
      headers: z.string(),
      templateId: z.string().trim(),
      autoApprove: z.boolean(),
    })
    .superRefine((v, ctx) => {
      const app = appOf(v.applicationId);
      if (!app) {
        addFieldIssues(ctx, { applicationId: "Choose an application." });
        return;
      }
      const built = buildTransportConfig(app.type, v);
      const messages: FieldMessages = built.ok ? {} : { ...built.errors };
      if (!v.name) messages.name = "Give the connection a name.";
      if (app.type === "mcp_stdio" && !v.templateId)
        messages.templateId = "Enter the id of an admin-made command template.";
      addFieldIssues(ctx, messages);
    })
    .transform((v): ConnectionCreateInput => {
      const app = appOf(v.applicationId)!;
      const built = buildTransportConfig(app.type, v);
      const body: ConnectionCreateInput = {
        applicationId: app.id,
        name: v.name,
        transportConfig: built.ok ? built.value : {},
        autoApproveReadTools: v.autoApprove,
      };
      if (app.type === "mcp_stdio") body.stdioTemplateId = v.templateId;
      return body;
    });
}

/** API fields → form fields, for the server's answer. */
const SERVER_FIELDS = {
  applicationId: "applicationId",
  name: "name",
  "transportConfig.url": "url",
  "transportConfig.pluginId": "pluginId",
  "transportConfig.timeoutMs": "timeout",
  "transportConfig.headers": "headers",
  // inline-secret findings point into the transport settings: `/headers/authorization`
  headers: "headers",
  stdioTemplateId: "templateId",
};
const TAKEN = { name: "Another connection of this application already has this name." };

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
  const schema = useMemo(() => connectionCreateSchema(applications), [applications]);
  const { register, handleSubmit, watch, setValue, reset, clearErrors, setError, formState } = useForm<
    ConnectionCreateValues,
    unknown,
    ConnectionCreateInput
  >({
    resolver: zodResolver(schema),
    defaultValues: {
      applicationId:
        applicationId && applications.some((a) => a.id === applicationId)
          ? applicationId
          : applications.length === 1
            ? (applications[0]?.id ?? "")
            : "",
      name: "",
      ...NO_TRANSPORT,
      templateId: "",
      autoApprove: false,
    },
  });
  const flat = flattenFieldErrors(formState.errors);
  const errors: ConnectionCreateErrors = {
    ...flat,
    application: flat.applicationId,
    template: flat.templateId,
  };
  const field = fieldFrame(id, errors);
  const values = watch();
  const app = applications.find((a) => a.id === values.applicationId) ?? null;
  const transport: TransportValues = {
    url: values.url,
    pluginId: values.pluginId,
    timeout: values.timeout,
    headers: values.headers,
  };

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
      reset({ ...values, name: "", ...NO_TRANSPORT, templateId: "", autoApprove: false });
      onCreated(withCounts);
      return invalidateConnections(client, companyId);
    },
  });
  useServerFieldErrors(create.error, setError, SERVER_FIELDS, TAKEN);

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

  const submit = handleSubmit((body) => create.mutate(body));

  const inlineSecret = isApiError(create.error) && create.error.code === "inline_secret";

  return (
    <CreateFormCard
      title="New connection"
      description="It starts as a Draft and exposes nothing until you test it, review its catalog and enable it."
      label="Create a connection"
      onSubmit={submit}
      pending={create.isPending || formState.isSubmitting}
      submitLabel="Create draft connection"
      submitTestId="connection-create-submit"
    >
      <SelectField
        {...field("application", "Application", { required: true })}
        hint={app ? <ApplicationTypeBadge type={app.type} /> : undefined}
        value={values.applicationId}
        onChange={(e) => {
          setValue("applicationId", e.target.value, { shouldDirty: true });
          // Another type asks for other settings: earlier messages no longer apply.
          clearErrors();
        }}
        data-testid="connection-create-application"
        placeholder="Choose an application…"
        options={applications.map((a) => ({ value: a.id, label: `${a.name} (${a.slug})` }))}
      />
      <NameField
        idPrefix={id}
        error={errors.name}
        {...register("name")}
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
          onChange={(patch) => {
            for (const [key, value] of Object.entries(patch) as [keyof TransportValues, string][])
              setValue(key, value, { shouldDirty: true, shouldValidate: formState.isSubmitted });
          }}
          errors={errors}
          beforeTimeout={
            app.type === "mcp_stdio" ? (
              <InputField
                {...field("template", "Command template id", { required: true })}
                hint="Local servers start only from a command template an admin made; agents never supply commands."
                {...register("templateId")}
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
          {...register("autoApprove")}
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
