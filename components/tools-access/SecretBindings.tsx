"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { RemoveCell } from "./controls";
import { APPLICATION_TYPE_LABELS, invalidateConnections, PLACEMENT_LABELS, placementsFor } from "./gateway";
import { useSeededQuery } from "./hooks";
import { QueryCard } from "./QueryCard";
import { BindingAddForm } from "./SecretBindingForm";
import { useToolsApi } from "./ToolsApiProvider";
import type { ApplicationType, SecretBinding, SecretBindingsResponse, SecretPlacement } from "./types";

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
  const query = useSeededQuery(key, path, (r: SecretBindingsResponse) => r.bindings, initialBindings);
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
    <QueryCard
      testId="secret-bindings"
      className={className}
      title="Secrets"
      description="Company secrets this connection uses, and where each value goes when the gateway calls the server. Agents never see the values."
      query={query}
      refreshing="Refreshing secret bindings"
      loadError="Could not load the secret bindings"
      notices={
        <>
          {missing.length > 0 ? (
            <Alert tone="danger" title="Missing secret" data-testid="secret-bindings-missing">
              {missing.map((b) => b.secretName).join(", ")} {missing.length === 1 ? "is" : "are"} revoked or
              has no usable version. Calls through this connection fail until you bind an active secret in{" "}
              {missing.length === 1 ? "its" : "their"} place.
            </Alert>
          ) : null}
          <ApiErrorAlert error={remove.error} title="Could not remove the binding" />
        </>
      }
      skeleton={{ rows: 2, columns: 4, label: "Loading secret bindings…" }}
      isEmpty={bindings.length === 0}
      empty={
        <p className="text-sm text-zinc-600" data-testid="secret-bindings-empty">
          {placements.length === 0
            ? `${APPLICATION_TYPE_LABELS[applicationType]} connections take no secrets.`
            : "No secrets bound. If the server needs a token, bind a secret instead of writing it into the settings."}
        </p>
      }
      footer={
        canEdit && placements.length > 0 ? (
          <BindingAddForm
            companyId={companyId}
            path={path}
            placements={placements}
            bindings={bindings}
            secretsHref={secretsHref}
          />
        ) : null
      }
    >
      <Table>
        <caption className="sr-only">Secrets bound to this connection</caption>
        <HeaderRow columns={["Secret", "Placement", "Version", "Status"]} actions={canEdit} />
        <TBody>
          {bindings.map((binding) => {
            return (
              <TR
                key={binding.id}
                data-testid="secret-binding-row"
                data-binding-id={binding.id}
                data-status={binding.status}
              >
                <TD>
                  <code className="font-mono text-sm font-medium text-zinc-900">{binding.secretName}</code>
                </TD>
                <TD>
                  <PlacementLabel placement={binding.placement} target={binding.target} />
                  {binding.valuePrefix ? (
                    <span className="block text-xs text-zinc-500">
                      prefixed with{" "}
                      <code className="font-mono whitespace-pre text-zinc-700">“{binding.valuePrefix}”</code>
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
                  <RemoveCell
                    remove={remove}
                    id={binding.id}
                    label={`Remove ${binding.secretName} from ${PLACEMENT_LABELS[binding.placement] ?? binding.placement} ${binding.target}`}
                    testId="secret-binding-remove"
                  />
                ) : null}
              </TR>
            );
          })}
        </TBody>
      </Table>
    </QueryCard>
  );
}
