"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, Fragment, useId, useRef, useState } from "react";
import type { DateInput } from "../format";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { Field } from "../ui/Field";
import { Input } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";
import { RelativeTime } from "../ui/RelativeTime";
import { Spinner } from "../ui/Spinner";
import { ActionsHeader, Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { Textarea } from "../ui/Textarea";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { ConfirmBar } from "./controls";
import { invalidateConnections, SECRET_VALUES_NOTE } from "./gateway";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { PlacementLabel } from "./SecretBindings";
import { useToolsApi } from "./ToolsApiProvider";
import type { SecretCreateInput, SecretDetail, SecretSummary, SecretsResponse } from "./types";

export type { SecretSummary } from "./types";

export interface SecretsManagerProps {
  companyId: string;
  /** Without it the table is read-only. */
  canEdit: boolean;
  /** Server-rendered `GET /secrets`; seeds the `toolsAccessKeys.secrets(companyId)` query. */
  initialSecrets: SecretSummary[];
  /** Reference time for relative dates (stories, tests). */
  now?: DateInput;
  className?: string;
}

/** The server's name rule: `GITHUB_TOKEN`. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;
const MAX_VALUE_BYTES = 16 * 1024;

function byteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

function valueError(value: string): string | null {
  if (value.length === 0) return "Enter the value.";
  if (byteLength(value) > MAX_VALUE_BYTES) return "The value must be at most 16 KiB.";
  return null;
}

/** A create/add-version/revoke answer as a list row (its live bindings give the count). */
function toSummary(detail: SecretDetail): SecretSummary {
  const { versions: _versions, bindings, ...meta } = detail;
  return { ...meta, bindingCount: bindings.length };
}

type RowAction = { kind: "version" | "revoke" | "details"; secretId: string } | null;

/**
 * Company secrets, metadata only: the API never returns a value, and a value typed here is sent
 * once and cleared. Create, add a version, revoke.
 */
export function SecretsManager({ companyId, canEdit, initialSecrets, now, className }: SecretsManagerProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const key = toolsAccessKeys.secrets(companyId);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await api<SecretsResponse>(toolsApiPath(companyId, "/secrets"), { signal })).secrets,
    initialData: initialSecrets,
  });
  const secrets = query.data;
  const [action, setAction] = useState<RowAction>(null);

  const storeDetail = (detail: SecretDetail) => {
    client.setQueryData<SecretDetail>(toolsAccessKeys.secret(companyId, detail.id), detail);
    client.setQueryData<SecretSummary[]>(key, (old) => {
      if (!old) return old;
      const summary = toSummary(detail);
      return old.some((s) => s.id === detail.id)
        ? old.map((s) => (s.id === detail.id ? summary : s))
        : [...old, summary].sort((a, b) => a.name.localeCompare(b.name));
    });
  };

  const revoke = useMutation({
    mutationFn: (secretId: string) =>
      api<SecretDetail>(toolsApiPath(companyId, `/secrets/${encodeURIComponent(secretId)}/revoke`), {
        method: "POST",
      }),
    onSuccess: (detail) => {
      storeDetail(detail);
      setAction(null);
      // Connections bound to it now report a missing secret.
      return Promise.all([
        client.invalidateQueries({ queryKey: key }),
        invalidateConnections(client, companyId),
      ]);
    },
  });

  const columns = 8;

  function open(next: RowAction) {
    revoke.reset();
    setAction((old) =>
      old && next && old.kind === next.kind && old.secretId === next.secretId ? null : next,
    );
  }

  return (
    <div className={cn("space-y-4", className)} data-testid="secrets-manager">
      <ApiErrorAlert
        error={query.error}
        title="Could not refresh the secrets"
        retry={() => void query.refetch()}
      />
      <Card>
        <CardHeader
          title="Secrets"
          description={
            <>
              Credentials that connections use, bound to them by name. {SECRET_VALUES_NOTE}; agents never
              receive them.
            </>
          }
          refreshing={query.isFetching ? "Refreshing secrets" : undefined}
        />
        <CardBody className="space-y-4">
          {!canEdit ? (
            <ReadOnlyNote data-testid="secrets-read-only">
              You can view secret metadata but not change it.
            </ReadOnlyNote>
          ) : null}
          <ApiErrorAlert error={revoke.error} title="Could not revoke the secret" />
          {secrets.length === 0 ? (
            <EmptyState
              headingAs="h3"
              title="No secrets yet"
              description="Store API tokens here instead of writing them into connection settings, then bind them to connections."
              data-testid="secrets-empty"
            />
          ) : (
            <Table data-testid="secret-table">
              <caption className="sr-only">Secrets (metadata only)</caption>
              <THead>
                <TR>
                  <TH>Name</TH>
                  <TH>Status</TH>
                  <TH className="text-right">Current version</TH>
                  <TH className="text-right">Versions</TH>
                  <TH className="text-right">Bindings</TH>
                  <TH>Created</TH>
                  <TH>Updated</TH>
                  <ActionsHeader />
                </TR>
              </THead>
              <TBody>
                {secrets.map((secret) => {
                  const revoked = secret.status === "revoked";
                  const current = action?.secretId === secret.id ? action.kind : null;
                  return (
                    <Fragment key={secret.id}>
                      <TR
                        data-testid="secret-row"
                        data-secret-id={secret.id}
                        data-name={secret.name}
                        data-status={secret.status}
                        className={cn(revoked && "text-zinc-500")}
                      >
                        <TD className="min-w-44">
                          <code className="font-mono text-sm font-medium text-zinc-900">{secret.name}</code>
                          {secret.description ? (
                            <span className="block text-xs text-zinc-500">{secret.description}</span>
                          ) : null}
                        </TD>
                        <TD>
                          <Badge tone={revoked ? "danger" : "success"} data-testid="secret-status">
                            {revoked ? "Revoked" : "Active"}
                          </Badge>
                        </TD>
                        <TD className="text-right tabular-nums">
                          {secret.currentVersion !== null ? `v${secret.currentVersion}` : "—"}
                        </TD>
                        {/* Versions are numbered 1…n and never deleted, so the newest number is the count. */}
                        <TD className="text-right tabular-nums">{secret.currentVersion ?? 0}</TD>
                        <TD className="text-right tabular-nums">{secret.bindingCount}</TD>
                        <TD className="text-xs">
                          <RelativeTime value={secret.createdAt} now={now} />
                        </TD>
                        <TD className="text-xs">
                          <RelativeTime value={secret.updatedAt} now={now} />
                        </TD>
                        <TD className="text-right whitespace-nowrap">
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-expanded={current === "details"}
                            onClick={() => open({ kind: "details", secretId: secret.id })}
                            aria-label={`Details of ${secret.name}`}
                            data-testid="secret-details"
                          >
                            Details
                          </Button>
                          {canEdit && !revoked ? (
                            <>
                              <Button
                                variant="ghost"
                                size="sm"
                                aria-expanded={current === "version"}
                                onClick={() => open({ kind: "version", secretId: secret.id })}
                                aria-label={`Add a version to ${secret.name}`}
                                data-testid="secret-add-version"
                              >
                                Add version
                              </Button>
                              <Button
                                variant="ghost"
                                size="sm"
                                className="text-red-700 hover:bg-red-50 hover:text-red-800"
                                onClick={() => open({ kind: "revoke", secretId: secret.id })}
                                aria-label={`Revoke ${secret.name}`}
                                data-testid="secret-revoke"
                              >
                                Revoke
                              </Button>
                            </>
                          ) : null}
                        </TD>
                      </TR>
                      {current ? (
                        <tr>
                          <td colSpan={columns} className="bg-zinc-50 px-4 py-3">
                            {current === "revoke" ? (
                              <ConfirmBar
                                confirmLabel="Revoke secret"
                                pending={revoke.isPending}
                                onCancel={() => setAction(null)}
                                onConfirm={() => revoke.mutate(secret.id)}
                                data-testid="secret-revoke-bar"
                              >
                                Revoke <code className="font-mono">{secret.name}</code> and every version of
                                it?{" "}
                                {secret.bindingCount > 0
                                  ? `${secret.bindingCount} ${secret.bindingCount === 1 ? "connection binding fails" : "connection bindings fail"} with “missing secret” until another secret is bound. `
                                  : ""}
                                This cannot be undone, and the name stays reserved.
                              </ConfirmBar>
                            ) : current === "version" ? (
                              <AddVersionForm
                                companyId={companyId}
                                secret={secret}
                                onDone={(detail) => {
                                  storeDetail(detail);
                                  setAction(null);
                                  return Promise.all([
                                    client.invalidateQueries({ queryKey: key }),
                                    invalidateConnections(client, companyId),
                                  ]);
                                }}
                                onCancel={() => setAction(null)}
                              />
                            ) : (
                              <SecretDetails companyId={companyId} secretId={secret.id} now={now} />
                            )}
                          </td>
                        </tr>
                      ) : null}
                    </Fragment>
                  );
                })}
              </TBody>
            </Table>
          )}
        </CardBody>
      </Card>
      {canEdit ? (
        <SecretCreateForm
          companyId={companyId}
          onCreated={(detail) => {
            storeDetail(detail);
            return client.invalidateQueries({ queryKey: key });
          }}
        />
      ) : null}
    </div>
  );
}

function SecretDetails({
  companyId,
  secretId,
  now,
}: {
  companyId: string;
  secretId: string;
  now?: DateInput;
}) {
  const api = useToolsApi();
  const query = useQuery({
    queryKey: toolsAccessKeys.secret(companyId, secretId),
    queryFn: ({ signal }) =>
      api<SecretDetail>(toolsApiPath(companyId, `/secrets/${encodeURIComponent(secretId)}`), { signal }),
  });
  if (query.isPending) return <Spinner size="sm" label="Loading versions and bindings" />;
  if (query.error) return <ApiErrorAlert error={query.error} title="Could not load the secret" />;
  const detail = query.data;
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="secret-details-panel">
      <div>
        <h4 className="text-sm font-semibold text-zinc-900">Versions</h4>
        <ul className="mt-1 space-y-1 text-sm">
          {detail.versions.map((v) => (
            <li key={v.id} className="flex flex-wrap items-center gap-2" data-testid="secret-version">
              <span className="font-medium tabular-nums">v{v.version}</span>
              {v.current ? <Badge tone="info">Current</Badge> : null}
              {v.status === "revoked" ? <Badge tone="danger">Revoked</Badge> : null}
              <span className="text-xs text-zinc-500">
                added <RelativeTime value={v.createdAt} now={now} />
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h4 className="text-sm font-semibold text-zinc-900">Bound to</h4>
        {detail.bindings.length === 0 ? (
          <p className="mt-1 text-sm text-zinc-600">No connection uses it.</p>
        ) : (
          <ul className="mt-1 space-y-1 text-sm">
            {detail.bindings.map((b) => (
              <li key={b.id} data-testid="secret-detail-binding">
                <span className="font-medium text-zinc-900">{b.connectionName}</span> ·{" "}
                <PlacementLabel placement={b.placement} target={b.target} />
                {b.version !== null ? (
                  <span className="text-xs text-zinc-500"> (pinned to v{b.version})</span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/**
 * The value typed for a secret is held only in the form's state and in a ref read once by the
 * request, so it never lands in the query cache (mutation variables), and is cleared afterwards.
 */
function useSendOnce<TBody>(send: (body: TBody) => Promise<SecretDetail>) {
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

function AddVersionForm({
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
      <Field
        id={`${id}-value`}
        label={
          <>
            New value for <code className="font-mono">{secret.name}</code>
          </>
        }
        hint={`It becomes v${(secret.currentVersion ?? 0) + 1} and the current version at once; bindings pinned to an older version keep it. ${SECRET_VALUES_NOTE}.`}
        required
        error={error}
      >
        {(control) => (
          <Input
            {...control}
            type="password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoComplete="new-password"
            spellCheck={false}
            className="font-mono"
            data-testid="secret-version-value"
          />
        )}
      </Field>
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

type CreateErrors = Partial<Record<"name" | "value", string>>;

function SecretCreateForm({
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
    <Card>
      <CardHeader title="New secret" titleAs="h3" description={`${SECRET_VALUES_NOTE}.`} />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-3" aria-label="Create a secret">
          <div className="grid gap-3 sm:grid-cols-2">
            <Field
              id={`${id}-name`}
              label="Name"
              required
              error={errors.name}
              hint="UPPER_SNAKE, like an environment variable, e.g. GITHUB_TOKEN."
            >
              {(control) => (
                <Input
                  {...control}
                  value={name}
                  onChange={(e) => setName(e.target.value.toUpperCase().replace(/[\s-]/g, "_"))}
                  placeholder="GITHUB_TOKEN"
                  maxLength={64}
                  autoComplete="off"
                  spellCheck={false}
                  className="font-mono"
                  data-testid="secret-create-name"
                />
              )}
            </Field>
            <Field
              id={`${id}-value`}
              label="Value"
              required
              error={errors.value}
              hint="Cleared from this form as soon as it is sent."
            >
              {(control) => (
                <Input
                  {...control}
                  type="password"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  autoComplete="new-password"
                  spellCheck={false}
                  className="font-mono"
                  data-testid="secret-create-value"
                />
              )}
            </Field>
          </div>
          <Field id={`${id}-description`} label="Description">
            {(control) => (
              <Textarea
                {...control}
                rows={2}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                maxLength={2000}
                placeholder="What it grants and who rotates it"
                data-testid="secret-create-description"
              />
            )}
          </Field>
          <ApiErrorAlert error={mutation.error} title="Could not create the secret" />
          {created && mutation.isSuccess ? (
            <p className="text-sm text-emerald-800" role="status" data-testid="secret-create-done">
              Stored <code className="font-mono">{created}</code>. Bind it to a connection to use it.
            </p>
          ) : null}
          <div className="flex justify-end">
            <PendingButton
              pending={mutation.isPending}
              pendingLabel="Saving…"
              type="submit"
              size="sm"
              data-testid="secret-create-submit"
            >
              Create secret
            </PendingButton>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
