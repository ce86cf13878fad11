"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import type { DateInput } from "../format";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { cn } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { Spinner } from "../ui/Spinner";
import { FullRow, HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { ConfirmBar } from "./controls";
import { invalidateConnections, SECRET_VALUES_NOTE } from "./gateway";
import { useCompanyList } from "./hooks";
import { secretsList } from "./lists";
import { ResourceListCard } from "./ResourceListCard";
import { PlacementLabel } from "./SecretBindings";
import { AddVersionForm, SecretCreateForm } from "./SecretForms";
import { useToolsApi } from "./ToolsApiProvider";
import type { SecretDetail, SecretSummary } from "./types";

export { SECRET_NAME_PATTERN } from "./secret-input";
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
  const query = useCompanyList(secretsList, companyId, initialSecrets);
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
    <ResourceListCard
      testId="secrets-manager"
      className={className}
      title="Secrets"
      description={
        <>
          Credentials that connections use, bound to them by name. {SECRET_VALUES_NOTE}; agents never receive
          them.
        </>
      }
      query={query}
      noun="secrets"
      canEdit={canEdit}
      readOnly={{ note: "You can view secret metadata but not change it.", testId: "secrets-read-only" }}
      notices={<ApiErrorAlert error={revoke.error} title="Could not revoke the secret" />}
      isEmpty={secrets.length === 0}
      empty={{
        title: "No secrets yet",
        description:
          "Store API tokens here instead of writing them into connection settings, then bind them to connections.",
        testId: "secrets-empty",
      }}
      footer={
        canEdit ? (
          <SecretCreateForm
            companyId={companyId}
            onCreated={(detail) => {
              storeDetail(detail);
              return client.invalidateQueries({ queryKey: key });
            }}
          />
        ) : null
      }
    >
      <Table stacked data-testid="secret-table">
        <caption className="sr-only">Secrets (metadata only)</caption>
        <HeaderRow
          columns={[
            "Name",
            "Status",
            { label: "Current version", className: "text-right" },
            { label: "Versions", className: "text-right" },
            { label: "Bindings", className: "text-right" },
            "Created",
            "Updated",
          ]}
          actions
        />
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
                  <TD data-label="Name" className="min-w-44">
                    <code className="font-mono text-sm font-medium text-zinc-900">{secret.name}</code>
                    {secret.description ? (
                      <span className="block text-xs text-zinc-500">{secret.description}</span>
                    ) : null}
                  </TD>
                  <TD data-label="Status">
                    <Badge tone={revoked ? "danger" : "success"} data-testid="secret-status">
                      {revoked ? "Revoked" : "Active"}
                    </Badge>
                  </TD>
                  <TD data-label="Current version" className="text-right tabular-nums">
                    {secret.currentVersion !== null ? `v${secret.currentVersion}` : "—"}
                  </TD>
                  {/* Versions are numbered 1…n and never deleted, so the newest number is the count. */}
                  <TD data-label="Versions" className="text-right tabular-nums">
                    {secret.currentVersion ?? 0}
                  </TD>
                  <TD data-label="Bindings" className="text-right tabular-nums">
                    {secret.bindingCount}
                  </TD>
                  <TD data-label="Created" className="text-xs">
                    <RelativeTime value={secret.createdAt} now={now} />
                  </TD>
                  <TD data-label="Updated" className="text-xs">
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
                  <FullRow colSpan={columns} cellClassName="bg-zinc-50 px-4 py-3">
                    {current === "revoke" ? (
                      <ConfirmBar
                        confirmLabel="Revoke secret"
                        pending={revoke.isPending}
                        error={revoke.error}
                        onCancel={() => setAction(null)}
                        onConfirm={() => revoke.mutate(secret.id)}
                        data-testid="secret-revoke-bar"
                      >
                        Revoke <code className="font-mono">{secret.name}</code> and every version of it?{" "}
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
                  </FullRow>
                ) : null}
              </Fragment>
            );
          })}
        </TBody>
      </Table>
    </ResourceListCard>
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
