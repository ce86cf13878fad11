"use client";

import "../zod-config";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { codeInput, DescriptionField, InputField, NameField, SelectField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { CreateFormCard } from "./CreateFormCard";
import { flattenFieldErrors, useServerFieldErrors } from "./form-errors";
import {
  APPLICATION_TYPE_HINTS,
  APPLICATION_TYPE_LABELS,
  APPLICATION_TYPES,
  connectionsHref,
} from "./gateway";
import { useToolsApi } from "./ToolsApiProvider";
import type { Application, ApplicationCreateInput, ApplicationRecord } from "./types";
import { linkClass } from "./view-helpers";

/** The server's slug rule: agents see tools as `<slug>__<tool>`. */
export const APPLICATION_SLUG_PATTERN = /^[a-z][a-z0-9-]{0,47}$/;

/** "Acme GitHub!" → "acme-github" (a suggestion while the slug was not typed by hand). */
export function suggestSlug(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .replace(/-+$/, "")
    .slice(0, 48)
    .replace(/-+$/, "");
}

export type CreateErrors = Partial<Record<"slug" | "name", string>>;

/** The create form's checks, with the server's limits (server/tools/applications.ts). */
export const applicationCreateSchema = z.object({
  slug: z
    .string()
    .trim()
    .min(1, "Give the application a slug.")
    .regex(
      APPLICATION_SLUG_PATTERN,
      "Use lowercase letters, digits and dashes, starting with a letter (at most 48).",
    ),
  name: z.string().trim().min(1, "Give the application a name.").max(100, "Use at most 100 characters."),
  type: z.enum(APPLICATION_TYPES),
  description: z.string().trim().max(2000, "Use at most 2000 characters."),
});
export type ApplicationCreateValues = z.input<typeof applicationCreateSchema>;

const EMPTY: ApplicationCreateValues = { slug: "", name: "", type: "mcp_http", description: "" };
/** API fields → form fields, for the server's answer. */
const SERVER_FIELDS = { slug: "slug", name: "name", description: "description", type: "type" };
const TAKEN = { slug: "Another application already uses this slug." };

export function ApplicationCreateForm({ companyId }: { companyId: string }) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const form = useForm<ApplicationCreateValues, unknown, z.output<typeof applicationCreateSchema>>({
    resolver: zodResolver(applicationCreateSchema),
    defaultValues: EMPTY,
  });
  const { register, handleSubmit, setValue, watch, reset, setError, getFieldState, formState } = form;
  const errors: CreateErrors & Partial<Record<"description", string>> = flattenFieldErrors(formState.errors);
  const field = fieldFrame(id, errors);
  const slug = watch("slug");
  const type = watch("type");

  const create = useMutation({
    mutationFn: (body: ApplicationCreateInput) =>
      api<ApplicationRecord>(toolsApiPath(companyId, "/applications"), { method: "POST", body }),
    onSuccess: (created, body) => {
      client.setQueryData<Application[]>(toolsAccessKeys.applications(companyId), (old) =>
        old && !old.some((a) => a.id === created.id)
          ? [
              ...old,
              {
                ...created,
                connections: {},
                tools: { total: 0, quarantined: 0, byRisk: {} },
              },
            ]
          : old,
      );
      reset({ ...EMPTY, type: body.type });
      return client.invalidateQueries({ queryKey: toolsAccessKeys.applications(companyId) });
    },
  });
  useServerFieldErrors(create.error, setError, SERVER_FIELDS, TAKEN);

  const submit = handleSubmit((values) => {
    const body: ApplicationCreateInput = { slug: values.slug, name: values.name, type: values.type };
    if (values.description) body.description = values.description;
    create.mutate(body);
  });

  const preview = slug.trim() || "<slug>";
  const name = register("name", {
    // While the slug was not typed by hand, it follows the name.
    onChange: (e) => {
      if (!getFieldState("slug").isDirty) setValue("slug", suggestSlug(e.target.value));
    },
  });
  return (
    <CreateFormCard
      title="New application"
      label="Create an application"
      onSubmit={submit}
      pending={create.isPending || formState.isSubmitting}
      submitLabel="Create application"
      submitTestId="app-create-submit"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <NameField
          idPrefix={id}
          error={errors.name}
          {...name}
          placeholder="e.g. GitHub"
          maxLength={100}
          data-testid="app-create-name"
        />
        <InputField
          {...field("slug", "Slug", { required: true })}
          hint={
            <>
              Lowercase letters, digits and dashes; agents see tools as{" "}
              <code className="font-mono text-zinc-700">&lt;slug&gt;__&lt;tool&gt;</code>
              {slug.trim() ? (
                <>
                  {" "}
                  (here <code className="font-mono text-zinc-700">{preview}__&lt;tool&gt;</code>)
                </>
              ) : null}
              . It cannot change later.
            </>
          }
          {...register("slug")}
          placeholder="e.g. github"
          maxLength={48}
          {...codeInput}
          data-testid="app-create-slug"
        />
      </div>
      <SelectField
        id={`${id}-type`}
        label="Type"
        hint={APPLICATION_TYPE_HINTS[type]}
        {...register("type")}
        data-testid="app-create-type"
        options={APPLICATION_TYPES.map((t) => ({ value: t, label: APPLICATION_TYPE_LABELS[t] }))}
      />
      <DescriptionField
        idPrefix={id}
        error={errors.description}
        {...register("description")}
        maxLength={2000}
        data-testid="app-create-description"
      />
      <ApiErrorAlert error={create.error} title="Could not create the application" />
      {create.isSuccess ? (
        <p className="text-sm text-zinc-700" role="status" data-testid="app-create-done">
          Created “{create.data.name}”.{" "}
          <Link href={connectionsHref(companyId, { applicationId: create.data.id })} className={linkClass}>
            Add a connection
          </Link>{" "}
          to reach its tools.
        </p>
      ) : null}
    </CreateFormCard>
  );
}
