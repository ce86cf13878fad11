"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { codeInput, DescriptionField, InputField, NameField, SelectField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { CreateFormCard } from "./CreateFormCard";
import {
  APPLICATION_TYPE_HINTS,
  APPLICATION_TYPE_LABELS,
  APPLICATION_TYPES,
  connectionsHref,
} from "./gateway";
import { useToolsApi } from "./ToolsApiProvider";
import type { Application, ApplicationCreateInput, ApplicationRecord, ApplicationType } from "./types";
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

export function ApplicationCreateForm({ companyId }: { companyId: string }) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const [slug, setSlug] = useState("");
  const [slugTouched, setSlugTouched] = useState(false);
  const [name, setName] = useState("");
  const [type, setType] = useState<ApplicationType>("mcp_http");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<CreateErrors>({});
  const field = fieldFrame(id, errors);

  const create = useMutation({
    mutationFn: (body: ApplicationCreateInput) =>
      api<ApplicationRecord>(toolsApiPath(companyId, "/applications"), { method: "POST", body }),
    onSuccess: (created) => {
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
      setSlug("");
      setSlugTouched(false);
      setName("");
      setDescription("");
      return client.invalidateQueries({ queryKey: toolsAccessKeys.applications(companyId) });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: CreateErrors = {};
    const s = slug.trim();
    const n = name.trim();
    if (!s) next.slug = "Give the application a slug.";
    else if (!APPLICATION_SLUG_PATTERN.test(s))
      next.slug = "Use lowercase letters, digits and dashes, starting with a letter (at most 48).";
    if (!n) next.name = "Give the application a name.";
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const body: ApplicationCreateInput = { slug: s, name: n, type };
    if (description.trim()) body.description = description.trim();
    create.mutate(body);
  }

  const preview = slug.trim() || "<slug>";
  return (
    <CreateFormCard
      title="New application"
      label="Create an application"
      onSubmit={submit}
      pending={create.isPending}
      submitLabel="Create application"
      submitTestId="app-create-submit"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <NameField
          idPrefix={id}
          error={errors.name}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (!slugTouched) setSlug(suggestSlug(e.target.value));
          }}
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
          value={slug}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugTouched(true);
          }}
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
        value={type}
        onChange={(e) => setType(e.target.value as ApplicationType)}
        data-testid="app-create-type"
        options={APPLICATION_TYPES.map((t) => ({ value: t, label: APPLICATION_TYPE_LABELS[t] }))}
      />
      <DescriptionField
        idPrefix={id}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
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
