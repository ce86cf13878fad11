"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useMemo, useState } from "react";
import { Button } from "../ui/Button";
import { cn } from "../ui/cn";
import { Spinner } from "../ui/Spinner";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { PolicyKindBadge } from "./badges";
import { ConfirmRow, Switch } from "./controls";
import { useCatalogEntries, useCompanyList, useToolTargets } from "./hooks";
import { policiesList } from "./lists";
import { BLOCK_BEATS_ALLOW, PolicyForm } from "./PolicyForm";
import { type PolicyNameLookup, summarizePolicy } from "./policy-summary";
import { ResourceListCard } from "./ResourceListCard";
import { useToolsApi } from "./ToolsApiProvider";
import type { Policy, PolicyInput } from "./types";

export type { Policy } from "./types";

export interface PoliciesManagerProps {
  companyId: string;
  /** Without it the table is read-only. */
  canEdit: boolean;
  /** Server-rendered `GET /policies`; seeds the `toolsAccessKeys.policies(companyId)` query. */
  initialPolicies: Policy[];
  className?: string;
}

type Editing = { mode: "create" } | { mode: "edit"; policyId: string } | null;

/** Policies table with an enabled toggle, delete, and create/edit through `PolicyForm`. */
export function PoliciesManager({ companyId, canEdit, initialPolicies, className }: PoliciesManagerProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const key = toolsAccessKeys.policies(companyId);
  const query = useCompanyList(policiesList, companyId, initialPolicies);
  const policies = query.data;
  const targets = useToolTargets(companyId);
  const catalog = useCatalogEntries(companyId);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);

  const replace = (policy: Policy) =>
    client.setQueryData<Policy[]>(key, (old) => old?.map((p) => (p.id === policy.id ? policy : p)));
  const invalidate = () => client.invalidateQueries({ queryKey: key });

  const save = useMutation({
    mutationFn: (args: { id: string | null; input: PolicyInput }) =>
      args.id
        ? api<Policy>(toolsApiPath(companyId, `/policies/${encodeURIComponent(args.id)}`), {
            method: "PATCH",
            body: args.input,
          })
        : api<Policy>(toolsApiPath(companyId, "/policies"), { method: "POST", body: args.input }),
    onSuccess: (policy, args) => {
      if (args.id) replace(policy);
      else client.setQueryData<Policy[]>(key, (old) => (old ? [...old, policy] : old));
      setEditing(null);
      return invalidate();
    },
  });
  const toggle = useMutation({
    mutationFn: (args: { id: string; enabled: boolean }) =>
      api<Policy>(toolsApiPath(companyId, `/policies/${encodeURIComponent(args.id)}`), {
        method: "PATCH",
        body: { enabled: args.enabled },
      }),
    onSuccess: (policy) => {
      replace(policy);
      return invalidate();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      api<{ deleted: true }>(toolsApiPath(companyId, `/policies/${encodeURIComponent(id)}`), {
        method: "DELETE",
      }),
    onSuccess: (_data, id) => {
      client.setQueryData<Policy[]>(key, (old) => old?.filter((p) => p.id !== id));
      setConfirmDelete(null);
      if (editing?.mode === "edit" && editing.policyId === id) setEditing(null);
      return invalidate();
    },
  });

  const names = useMemo<PolicyNameLookup>(() => {
    const t = targets.data;
    const c = catalog.data;
    return {
      agents: new Map((t?.agents ?? []).map((a) => [a.id, a.name])),
      projects: new Map((t?.projects ?? []).map((p) => [p.id, p.name])),
      routines: new Map((t?.routines ?? []).map((r) => [r.id, r.name])),
      issues: new Map((t?.issues ?? []).map((i) => [i.id, i.identifier])),
      applications: new Map((c?.applications ?? []).map((a) => [a.id, a.name])),
      connections: new Map((c?.connections ?? []).map((conn) => [conn.id, conn.name])),
      catalogEntries: new Map((c?.entries ?? []).map((e) => [e.id, e.qualifiedName])),
    };
  }, [targets.data, catalog.data]);

  const editingPolicy =
    editing?.mode === "edit" ? (policies.find((p) => p.id === editing.policyId) ?? null) : null;
  const formOpen = editing?.mode === "create" || editingPolicy !== null;

  function openForm(next: Editing) {
    save.reset();
    setEditing(next);
  }

  return (
    <ResourceListCard
      testId="policies-manager"
      className={className}
      title="Policies"
      description={<>Rules the gateway checks on tool calls. {BLOCK_BEATS_ALLOW}</>}
      actions={
        <>
          {query.isFetching ? <Spinner size="sm" label="Refreshing policies" /> : null}
          {canEdit && !formOpen ? (
            <Button size="sm" onClick={() => openForm({ mode: "create" })} data-testid="policy-new">
              New policy
            </Button>
          ) : null}
        </>
      }
      query={query}
      noun="policies"
      quietRefresh
      canEdit={canEdit}
      readOnly={{ note: "You can view policies but not change them.", testId: "policies-read-only" }}
      notices={
        <>
          <ApiErrorAlert error={toggle.error} title="Could not change whether the policy is enabled" />
          <ApiErrorAlert error={remove.error} title="Could not delete the policy" />
          {formOpen ? (
            <div className="rounded-lg border border-accent-200 bg-white p-4">
              <PolicyForm
                key={editingPolicy?.id ?? "new"}
                companyId={companyId}
                policy={editingPolicy}
                pending={save.isPending}
                error={save.error}
                onCancel={() => openForm(null)}
                onSubmit={(input) => save.mutate({ id: editingPolicy?.id ?? null, input })}
              />
            </div>
          ) : null}
        </>
      }
      isEmpty={policies.length === 0}
      empty={{
        title: "No policies yet",
        description:
          "Without policies, profiles alone decide which tools agents may call. Add a policy to block, rate-limit, redact or require approval for calls.",
        testId: "policies-empty",
      }}
    >
      <Table stacked data-testid="policy-table">
        <HeaderRow
          columns={["Name", "Kind", { label: "Priority", className: "text-right" }, "Enabled", "Matches"]}
          actions={canEdit}
        />
        <TBody>
          {policies.map((policy) => {
            const toggling = toggle.isPending && toggle.variables?.id === policy.id;
            return (
              <Fragment key={policy.id}>
                <TR
                  data-testid="policy-row"
                  data-policy-id={policy.id}
                  data-kind={policy.kind}
                  data-enabled={policy.enabled}
                  className={cn(!policy.enabled && "text-zinc-500")}
                >
                  <TD data-label="Name" className="min-w-40">
                    <span className="font-medium text-zinc-900">{policy.name}</span>
                    {policy.description ? (
                      <span className="block text-xs text-zinc-500">{policy.description}</span>
                    ) : null}
                  </TD>
                  <TD data-label="Kind">
                    <PolicyKindBadge kind={policy.kind} />
                  </TD>
                  <TD data-label="Priority" className="text-right tabular-nums">
                    {policy.priority}
                  </TD>
                  <TD data-label="Enabled">
                    <Switch
                      checked={policy.enabled}
                      label={`Enabled: ${policy.name}`}
                      disabled={!canEdit || toggling}
                      busy={toggling}
                      onChange={(enabled) => toggle.mutate({ id: policy.id, enabled })}
                      data-testid="policy-enabled-toggle"
                    />
                  </TD>
                  <TD
                    data-label="Matches"
                    className="min-w-56 text-xs text-zinc-600"
                    data-testid="policy-summary"
                  >
                    {summarizePolicy(policy, names)}
                  </TD>
                  {canEdit ? (
                    <TD className="text-right whitespace-nowrap">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => openForm({ mode: "edit", policyId: policy.id })}
                        aria-label={`Edit ${policy.name}`}
                        data-testid="policy-edit"
                      >
                        Edit
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-red-700 hover:bg-red-50 hover:text-red-800"
                        onClick={() => setConfirmDelete(policy.id)}
                        aria-label={`Delete ${policy.name}`}
                        data-testid="policy-delete"
                      >
                        Delete
                      </Button>
                    </TD>
                  ) : null}
                </TR>
                {confirmDelete === policy.id ? (
                  <ConfirmRow
                    colSpan={canEdit ? 6 : 5}
                    confirmLabel="Delete policy"
                    pending={remove.isPending}
                    error={remove.error}
                    onCancel={() => setConfirmDelete(null)}
                    onConfirm={() => remove.mutate(policy.id)}
                    data-testid="policy-delete-bar"
                  >
                    Delete “{policy.name}”? This cannot be undone.
                  </ConfirmRow>
                ) : null}
              </Fragment>
            );
          })}
        </TBody>
      </Table>
    </ResourceListCard>
  );
}
