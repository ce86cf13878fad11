"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { Field } from "../ui/Field";
import { Input } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";
import { Select } from "../ui/Select";
import { TableSkeleton } from "../ui/Skeleton";
import { ActionsHeader, Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { APPLICATION_TYPE_LABELS, invalidateConnections, PLACEMENT_LABELS, placementsFor } from "./gateway";
import { useToolsApi } from "./ToolsApiProvider";
import type {
  ApplicationType,
  SecretBinding,
  SecretBindingInput,
  SecretBindingsResponse,
  SecretPlacement,
  SecretSummary,
  SecretsResponse,
} from "./types";

export interface SecretBindingsProps {
  companyId: string;
  connectionId: string;
  /** Decides which placements the connection accepts (headers for Remote MCP, env vars for stdio). */
  applicationType: ApplicationType;
  /** Without it the list is read-only. */
  canEdit: boolean;
  /** Seeds the `toolsAccessKeys.secretBindings(companyId, connectionId)` query. */
  initialBindings?: SecretBinding[];
  /** Link to the page where secrets are created, shown when there is none to bind. */
  secretsHref?: string;
  className?: string;
}

/** RFC 9110 token (header names) and the server's environment-variable rule. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,128}$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

const TARGET_PLACEHOLDER: Record<SecretPlacement, string> = {
  http_header: "Authorization",
  env_var: "GITHUB_TOKEN",
};

const linkClass = cn("rounded font-medium text-accent-700 hover:underline", focusRing);

/** "Header authorization" / "Env GITHUB_TOKEN" */
export function PlacementLabel({ placement, target }: { placement: SecretPlacement; target: string }) {
  return (
    <span className="whitespace-nowrap">
      <span className="text-zinc-500">{PLACEMENT_LABELS[placement] ?? placement}</span>{" "}
      <code className="font-mono text-xs text-zinc-900">{target}</code>
    </span>
  );
}

/**
 * Company secrets bound to one connection and where each value is placed at call time. The
 * values themselves never reach the browser.
 */
export function SecretBindings({
  companyId,
  connectionId,
  applicationType,
  canEdit,
  initialBindings,
  secretsHref,
  className,
}: SecretBindingsProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const key = toolsAccessKeys.secretBindings(companyId, connectionId);
  const path = toolsApiPath(companyId, `/connections/${encodeURIComponent(connectionId)}/secret-bindings`);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await api<SecretBindingsResponse>(path, { signal })).bindings,
    initialData: initialBindings,
  });
  const bindings = query.data ?? [];
  const placements = placementsFor(applicationType);

  const remove = useMutation({
    mutationFn: (bindingId: string) =>
      api<{ deleted: true }>(`${path}/${encodeURIComponent(bindingId)}`, { method: "DELETE" }),
    onSuccess: (_data, bindingId) => {
      client.setQueryData<SecretBinding[]>(key, (old) => old?.filter((b) => b.id !== bindingId));
      return Promise.all([
        invalidateConnections(client, companyId),
        client.invalidateQueries({ queryKey: toolsAccessKeys.secrets(companyId) }),
      ]);
    },
  });

  const missing = bindings.filter((b) => b.status === "missing_secret");

  return (
    <Card className={className} data-testid="secret-bindings">
      <CardHeader
        title="Secrets"
        titleAs="h3"
        description="Company secrets this connection uses, and where each value goes when the gateway calls the server. Agents never see the values."
        refreshing={query.isFetching ? "Refreshing secret bindings" : undefined}
      />
      <CardBody className="space-y-4">
        <ApiErrorAlert
          error={query.error}
          title="Could not load the secret bindings"
          retry={() => void query.refetch()}
        />
        {missing.length > 0 ? (
          <Alert tone="danger" title="Missing secret" data-testid="secret-bindings-missing">
            {missing.map((b) => b.secretName).join(", ")} {missing.length === 1 ? "is" : "are"} revoked or has
            no usable version. Calls through this connection fail until you bind an active secret in{" "}
            {missing.length === 1 ? "its" : "their"} place.
          </Alert>
        ) : null}
        <ApiErrorAlert error={remove.error} title="Could not remove the binding" />
        {query.isPending && bindings.length === 0 ? (
          <TableSkeleton rows={2} columns={4} label="Loading secret bindings…" />
        ) : bindings.length === 0 ? (
          <p className="text-sm text-zinc-600" data-testid="secret-bindings-empty">
            {placements.length === 0
              ? `${APPLICATION_TYPE_LABELS[applicationType]} connections take no secrets.`
              : "No secrets bound. If the server needs a token, bind a secret instead of writing it into the settings."}
          </p>
        ) : (
          <Table>
            <caption className="sr-only">Secrets bound to this connection</caption>
            <THead>
              <TR>
                <TH>Secret</TH>
                <TH>Placement</TH>
                <TH>Version</TH>
                <TH>Status</TH>
                {canEdit ? <ActionsHeader /> : null}
              </TR>
            </THead>
            <TBody>
              {bindings.map((binding) => {
                const removing = remove.isPending && remove.variables === binding.id;
                return (
                  <TR
                    key={binding.id}
                    data-testid="secret-binding-row"
                    data-binding-id={binding.id}
                    data-status={binding.status}
                  >
                    <TD>
                      <code className="font-mono text-sm font-medium text-zinc-900">
                        {binding.secretName}
                      </code>
                    </TD>
                    <TD>
                      <PlacementLabel placement={binding.placement} target={binding.target} />
                      {binding.valuePrefix ? (
                        <span className="block text-xs text-zinc-500">
                          prefixed with{" "}
                          <code className="font-mono whitespace-pre text-zinc-700">
                            “{binding.valuePrefix}”
                          </code>
                        </span>
                      ) : null}
                      {binding.allowedAgentIds ? (
                        <span className="block text-xs text-zinc-500">
                          only for {binding.allowedAgentIds.length}{" "}
                          {binding.allowedAgentIds.length === 1 ? "agent" : "agents"}
                        </span>
                      ) : null}
                    </TD>
                    <TD className="text-xs">
                      {binding.version === null ? "Current" : `Pinned to v${binding.version}`}
                    </TD>
                    <TD>
                      {binding.status === "ok" ? (
                        <Badge tone="success" dot data-testid="secret-binding-status">
                          OK
                        </Badge>
                      ) : (
                        <Badge tone="danger" dot data-testid="secret-binding-status">
                          Missing secret
                        </Badge>
                      )}
                    </TD>
                    {canEdit ? (
                      <TD className="text-right">
                        <PendingButton
                          pending={removing}
                          pendingLabel="Removing…"
                          variant="ghost"
                          size="sm"
                          onClick={() => remove.mutate(binding.id)}
                          aria-label={`Remove ${binding.secretName} from ${PLACEMENT_LABELS[binding.placement] ?? binding.placement} ${binding.target}`}
                          data-testid="secret-binding-remove"
                        >
                          Remove
                        </PendingButton>
                      </TD>
                    ) : null}
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )}
        {canEdit && placements.length > 0 ? (
          <BindingAddForm
            companyId={companyId}
            path={path}
            placements={placements}
            bindings={bindings}
            secretsHref={secretsHref}
          />
        ) : null}
      </CardBody>
    </Card>
  );
}

type FormErrors = Partial<Record<"secret" | "target" | "prefix", string>>;

function BindingAddForm({
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
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-4"
      aria-labelledby={`${id}-title`}
      data-testid="secret-binding-form"
    >
      <h4 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
        Bind a secret
      </h4>
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
        <Field id={`${id}-secret`} label="Secret" error={errors.secret}>
          {(control) => (
            <Select
              {...control}
              value={secretId}
              onChange={(e) => setSecretId(e.target.value)}
              disabled={active.length === 0}
              data-testid="binding-secret"
            >
              <option value="">
                {secrets.isPending ? "Loading…" : active.length === 0 ? "No secrets yet" : "Choose a secret…"}
              </option>
              {list.map((s) => (
                <option key={s.id} value={s.id} disabled={s.status !== "active"}>
                  {s.name}
                  {s.status !== "active" ? " (revoked)" : ""}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field id={`${id}-placement`} label="Placement">
          {(control) => (
            <Select
              {...control}
              value={placement}
              onChange={(e) => {
                setPlacement(e.target.value as SecretPlacement);
                setErrors({});
              }}
              disabled={placements.length < 2}
              data-testid="binding-placement"
            >
              {placements.map((p) => (
                <option key={p} value={p}>
                  {p === "http_header" ? "HTTP header" : "Environment variable"}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          id={`${id}-target`}
          label={placement === "http_header" ? "Header name" : "Variable name"}
          error={errors.target}
        >
          {(control) => (
            <Input
              {...control}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              placeholder={TARGET_PLACEHOLDER[placement]}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              data-testid="binding-target"
            />
          )}
        </Field>
        {placement === "http_header" ? (
          <Field
            id={`${id}-prefix`}
            label="Value prefix"
            hint="Optional, e.g. “Bearer ” with its trailing space."
            error={errors.prefix}
          >
            {(control) => (
              <Input
                {...control}
                value={prefix}
                onChange={(e) => setPrefix(e.target.value)}
                placeholder="Bearer "
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                maxLength={64}
                data-testid="binding-prefix"
              />
            )}
          </Field>
        ) : null}
      </div>
      <ApiErrorAlert error={secrets.error} title="Could not load the secrets" />
      <ApiErrorAlert error={add.error} title="Could not bind the secret" />
      <div className="flex justify-end">
        <PendingButton
          pending={add.isPending}
          pendingLabel="Binding…"
          type="submit"
          size="sm"
          data-testid="secret-binding-add"
        >
          Bind secret
        </PendingButton>
      </div>
    </form>
  );
}
