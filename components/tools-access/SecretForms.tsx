"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { Button } from "../ui/Button";
import { codeInput, DescriptionField, InputField, NameField, secretInput } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { PendingButton } from "../ui/PendingButton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsApiPath } from "./api";
import { CreateFormCard } from "./CreateFormCard";
import { SECRET_VALUES_NOTE } from "./gateway";
import { SECRET_NAME_PATTERN, valueError } from "./secret-input";
import { useToolsApi } from "./ToolsApiProvider";
import type { SecretCreateInput, SecretDetail, SecretSummary } from "./types";

/**
 * The value typed for a secret is held only in the form's state and in a ref read once by the
 * request, so it never lands in the query cache (mutation variables), and is cleared afterwards.
 */
export function useSendOnce<TBody>(send: (body: TBody) => Promise<SecretDetail>) {
  const pending = useRef<TBody | null>(null);
  const mutation = useMutation({
    mutationFn: () => {
      const body = pending.current;
      pending.current = null;
      if (body === null) throw new Error("Nothing to send.");
      return send(body);
    },
  });
  return {
    mutation,
    send: (body: TBody, options: Parameters<typeof mutation.mutate>[1]) => {
      pending.current = body;
      mutation.mutate(undefined, options);
    },
  };
}

export function AddVersionForm({
  companyId,
  secret,
  onDone,
  onCancel,
}: {
  companyId: string;
  secret: SecretSummary;
  onDone: (detail: SecretDetail) => Promise<unknown>;
  onCancel: () => void;
}) {
  const api = useToolsApi();
  const id = useId();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { mutation, send } = useSendOnce((body: { value: string }) =>
    api<SecretDetail>(toolsApiPath(companyId, `/secrets/${encodeURIComponent(secret.id)}/versions`), {
      method: "POST",
      body,
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = valueError(value);
    setError(problem);
    if (problem) return;
    send({ value }, { onSuccess: (detail) => void onDone(detail) });
    setValue("");
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3"
      aria-label={`Add a version to ${secret.name}`}
      data-testid="secret-version-form"
    >
      <InputField
        id={`${id}-value`}
        label={
          <>
            New value for <code className="font-mono">{secret.name}</code>
          </>
        }
        hint={`It becomes v${(secret.currentVersion ?? 0) + 1} and the current version at once; bindings pinned to an older version keep it. ${SECRET_VALUES_NOTE}.`}
        required
        error={error}
        type="password"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        {...secretInput}
        data-testid="secret-version-value"
      />
      <ApiErrorAlert error={mutation.error} title="Could not add the version" />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={mutation.isPending}>
          Cancel
        </Button>
        <PendingButton
          pending={mutation.isPending}
          pendingLabel="Saving…"
          type="submit"
          size="sm"
          data-testid="secret-version-submit"
        >
          Add version
        </PendingButton>
      </div>
    </form>
  );
}

export type CreateErrors = Partial<Record<"name" | "value", string>>;

export function SecretCreateForm({
  companyId,
  onCreated,
}: {
  companyId: string;
  onCreated: (detail: SecretDetail) => Promise<unknown>;
}) {
  const api = useToolsApi();
  const id = useId();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [value, setValue] = useState("");
  const [errors, setErrors] = useState<CreateErrors>({});
  const field = fieldFrame(id, errors);
  const [created, setCreated] = useState<string | null>(null);
  const { mutation, send } = useSendOnce((body: SecretCreateInput) =>
    api<SecretDetail>(toolsApiPath(companyId, "/secrets"), { method: "POST", body }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: CreateErrors = {};
    const n = name.trim();
    if (!n) next.name = "Give the secret a name.";
    else if (!SECRET_NAME_PATTERN.test(n))
      next.name = "An uppercase letter, then 1-63 uppercase letters, digits or _ (e.g. GITHUB_TOKEN).";
    const problem = valueError(value);
    if (problem) next.value = problem;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const body: SecretCreateInput = { name: n, value };
    if (description.trim()) body.description = description.trim();
    setCreated(null);
    send(body, {
      onSuccess: (detail) => {
        setName("");
        setDescription("");
        setCreated(detail.name);
        void onCreated(detail);
      },
    });
    // The value is sent once and never shown again, whatever the answer.
    setValue("");
  }

  return (
    <CreateFormCard
      title="New secret"
      description={`${SECRET_VALUES_NOTE}.`}
      label="Create a secret"
      onSubmit={submit}
      pending={mutation.isPending}
      submitLabel="Create secret"
      pendingLabel="Saving…"
      submitTestId="secret-create-submit"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <NameField
          idPrefix={id}
          error={errors.name}
          hint="UPPER_SNAKE, like an environment variable, e.g. GITHUB_TOKEN."
          value={name}
          onChange={(e) => setName(e.target.value.toUpperCase().replace(/[\s-]/g, "_"))}
          placeholder="GITHUB_TOKEN"
          maxLength={64}
          {...codeInput}
          data-testid="secret-create-name"
        />
        <InputField
          {...field("value", "Value", { required: true })}
          hint="Cleared from this form as soon as it is sent."
          type="password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          {...secretInput}
          data-testid="secret-create-value"
        />
      </div>
      <DescriptionField
        idPrefix={id}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={2000}
        placeholder="What it grants and who rotates it"
        data-testid="secret-create-description"
      />
      <ApiErrorAlert error={mutation.error} title="Could not create the secret" />
      {created && mutation.isSuccess ? (
        <p className="text-sm text-emerald-800" role="status" data-testid="secret-create-done">
          Stored <code className="font-mono">{created}</code>. Bind it to a connection to use it.
        </p>
      ) : null}
    </CreateFormCard>
  );
}
