"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { codeInput, InputField, SelectField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { invalidateConnections } from "./gateway";
import { InlineAddForm } from "./InlineAddForm";
import { useToolsApi } from "./ToolsApiProvider";
import type {
  SecretBinding,
  SecretBindingInput,
  SecretPlacement,
  SecretSummary,
  SecretsResponse,
} from "./types";
import { linkClass } from "./view-helpers";

/** RFC 9110 token (header names) and the server's environment-variable rule. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128}$/;
export const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

export const TARGET_PLACEHOLDER: Record<SecretPlacement, string> = {
  http_header: "Authorization",
  env_var: "GITHUB_TOKEN",
};

export type FormErrors = Partial<Record<"secret" | "target" | "prefix", string>>;

export function BindingAddForm({
  companyId,
  path,
  placements,
  bindings,
  secretsHref,
}: {
  companyId: string;
  path: string;
  placements: readonly SecretPlacement[];
  bindings: SecretBinding[];
  secretsHref?: string;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const secrets = useQuery({
    queryKey: toolsAccessKeys.secrets(companyId),
    queryFn: async ({ signal }) =>
      (await api<SecretsResponse>(toolsApiPath(companyId, "/secrets"), { signal })).secrets,
  });
  const [secretId, setSecretId] = useState("");
  const [placement, setPlacement] = useState<SecretPlacement>(placements[0] ?? "http_header");
  const [target, setTarget] = useState("");
  const [prefix, setPrefix] = useState("");
  const [errors, setErrors] = useState<FormErrors>({});
  const field = fieldFrame(id, errors);

  const add = useMutation({
    mutationFn: (body: SecretBindingInput) => api<SecretBinding>(path, { method: "POST", body }),
    onSuccess: (binding) => {
      client.setQueryData<SecretBinding[]>(
        toolsAccessKeys.secretBindings(companyId, binding.connectionId),
        (old) => (old && !old.some((b) => b.id === binding.id) ? [...old, binding] : old),
      );
      setSecretId("");
      setTarget("");
      setPrefix("");
      return Promise.all([
        invalidateConnections(client, companyId),
        client.invalidateQueries({ queryKey: toolsAccessKeys.secrets(companyId) }),
      ]);
    },
  });

  const list: SecretSummary[] = secrets.data ?? [];
  const active = list.filter((s) => s.status === "active");

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: FormErrors = {};
    const t = target.trim();
    if (!secretId) next.secret = "Choose a secret.";
    if (!t) next.target = placement === "http_header" ? "Name the header." : "Name the environment variable.";
    else if (placement === "http_header" && !HEADER_NAME.test(t))
      next.target = "A header name has no spaces or separators, e.g. Authorization or X-Api-Key.";
    else if (placement === "env_var" && !ENV_NAME.test(t))
      next.target = "Use A-Z, 0-9 and _, not starting with a digit (at most 64), e.g. GITHUB_TOKEN.";
    else if (
      bindings.some(
        (b) =>
          b.placement === placement &&
          (placement === "http_header" ? b.target.toLowerCase() === t.toLowerCase() : b.target === t),
      )
    )
      next.target = "Another secret is already bound there; remove that binding first.";
    if (prefix && !/^[\x20-\x7e]{0,64}$/.test(prefix)) next.prefix = "At most 64 printable ASCII characters.";
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const body: SecretBindingInput = { secretId, placement, target: t };
    if (placement === "http_header" && prefix) body.valuePrefix = prefix;
    add.mutate(body);
  }

  return (
    <InlineAddForm
      id={id}
      title="Bind a secret"
      onSubmit={submit}
      pending={add.isPending}
      submitLabel="Bind secret"
      pendingLabel="Binding…"
      testId="secret-binding-form"
      submitTestId="secret-binding-add"
    >
      {secrets.isSuccess && active.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="secret-binding-no-secrets">
          No active secrets yet.{" "}
          {secretsHref ? (
            <Link href={secretsHref} className={linkClass}>
              Create a secret
            </Link>
          ) : (
            "Create a secret"
          )}{" "}
          first, then bind it here.
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          {...field("secret", "Secret")}
          value={secretId}
          onValueChange={setSecretId}
          disabled={active.length === 0}
          data-testid="binding-secret"
          placeholder={
            secrets.isPending ? "Loading…" : active.length === 0 ? "No secrets yet" : "Choose a secret…"
          }
          options={list.map((s) => ({
            value: s.id,
            label: `${s.name}${s.status !== "active" ? " (revoked)" : ""}`,
            disabled: s.status !== "active",
          }))}
        />
        <SelectField
          id={`${id}-placement`}
          label="Placement"
          value={placement}
          onChange={(e) => {
            setPlacement(e.target.value as SecretPlacement);
            setErrors({});
          }}
          disabled={placements.length < 2}
          data-testid="binding-placement"
          options={placements.map((p) => ({
            value: p,
            label: p === "http_header" ? "HTTP header" : "Environment variable",
          }))}
        />
        <InputField
          {...field("target", placement === "http_header" ? "Header name" : "Variable name")}
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          placeholder={TARGET_PLACEHOLDER[placement]}
          {...codeInput}
          data-testid="binding-target"
        />
        {placement === "http_header" ? (
          <InputField
            id={`${id}-prefix`}
            label="Value prefix"
            hint="Optional, e.g. “Bearer ” with its trailing space."
            error={errors.prefix}
            value={prefix}
            onChange={(e) => setPrefix(e.target.value)}
            placeholder="Bearer "
            {...codeInput}
            maxLength={64}
            data-testid="binding-prefix"
          />
        ) : null}
      </div>
      <ApiErrorAlert error={secrets.error} title="Could not load the secrets" />
      <ApiErrorAlert error={add.error} title="Could not bind the secret" />
    </InlineAddForm>
  );
}
