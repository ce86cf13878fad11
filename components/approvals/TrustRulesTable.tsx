"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { TRUST_RULE_SCOPE_LABELS } from "@/components/labels";
import type { DateInput } from "../format";
import { toDate } from "../format";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { approvalKeys } from "../tools-access/api";
import { ConfirmRow } from "../tools-access/controls";
import { useCompanyList } from "../tools-access/hooks";
import { ResourceListCard } from "../tools-access/ResourceListCard";
import { useToolsApi } from "../tools-access/ToolsApiProvider";
import { Button } from "../ui/Button";
import { cn } from "../ui/cn";
import { RelativeTime } from "../ui/RelativeTime";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { shortId, trustRulesList, trustRulesPath } from "./api";
import { TrustRuleStatusBadge } from "./StatusBadges";
import type { TrustRule, TrustRuleStatus } from "./types";

export type { TrustRule } from "./types";

export interface TrustRulesTableProps {
  companyId: string;
  /** Shows Revoke (`tools:admin`). */
  canEdit: boolean;
  /** Server-rendered `GET /trust-rules`; seeds `approvalKeys.trustRules(companyId)`. */
  initialRules: TrustRule[];
  /** Reference time for relative dates and expiry. */
  now?: DateInput;
  className?: string;
}

/** The status to show: an active rule past its expiry or out of uses no longer matches. */
function effectiveStatus(rule: TrustRule, nowMs: number): TrustRuleStatus {
  if (rule.status !== "active") return rule.status;
  if (rule.expiresAt && Date.parse(rule.expiresAt) <= nowMs) return "expired";
  if (rule.maxUses !== null && rule.useCount >= rule.maxUses) return "expired";
  return rule.status;
}

function scopeTarget(rule: TrustRule): string | null {
  if (rule.scopeType === "project") return rule.projectId;
  if (rule.scopeType === "agent") return rule.agentId;
  if (rule.scopeType === "issue") return rule.issueId;
  return null;
}

function constraintCount(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** Trust rules: tool, scope, uses, expiry, status, pinned schema, and Revoke. */
export function TrustRulesTable({ companyId, canEdit, initialRules, now, className }: TrustRulesTableProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const key = approvalKeys.trustRules(companyId);
  const query = useCompanyList(trustRulesList, companyId, initialRules);
  const rules = query.data;
  const [confirmRevoke, setConfirmRevoke] = useState<string | null>(null);
  const nowMs = now === undefined ? Date.now() : toDate(now).getTime();

  const revoke = useMutation({
    mutationFn: (id: string) =>
      api<{ id: string; status: TrustRuleStatus }>(
        trustRulesPath(companyId, `/${encodeURIComponent(id)}/revoke`),
        {
          method: "POST",
        },
      ),
    onSuccess: (answer, id) => {
      client.setQueryData<TrustRule[]>(key, (old) =>
        old?.map((r) => (r.id === id ? { ...r, status: answer.status ?? "revoked" } : r)),
      );
      setConfirmRevoke(null);
      return Promise.all([
        client.invalidateQueries({ queryKey: key }),
        // Revoking a pending rule leaves its formal approval pending; refresh that list too.
        client.invalidateQueries({ queryKey: approvalKeys.formalApprovals(companyId) }),
      ]);
    },
  });

  const columns = canEdit ? 7 : 6;

  return (
    <ResourceListCard
      testId="trust-rules"
      className={className}
      title="Trust rules"
      description="Tools that run without per-call approval, each within a scope and pinned to the schema that was reviewed. A rule starts pending until another admin accepts it."
      query={query}
      noun="trust rules"
      canEdit={canEdit}
      readOnly={{ note: "You can view trust rules but not revoke them.", testId: "trust-rules-read-only" }}
      notices={<ApiErrorAlert error={revoke.error} title="Could not revoke the trust rule" />}
      isEmpty={rules.length === 0}
      empty={{
        title: "No trust rules",
        description:
          "Every call that a policy holds for approval asks a person each time. After a call has been approved and executed, you can propose trusting that tool from the approvals inbox.",
        testId: "trust-rules-empty",
      }}
    >
      <Table data-testid="trust-rule-table">
        <HeaderRow
          columns={[
            "Tool",
            "Scope",
            { label: "Uses", className: "text-right" },
            "Expires",
            "Status",
            "Schema",
          ]}
          actions={canEdit}
        />
        <TBody>
          {rules.map((rule) => {
            const status = effectiveStatus(rule, nowMs);
            const target = scopeTarget(rule);
            const constraints = constraintCount(rule.argumentConstraints);
            const revocable = rule.status === "active" || rule.status === "pending_approval";
            return (
              <Fragment key={rule.id}>
                <TR
                  data-testid="trust-rule-row"
                  data-trust-rule-id={rule.id}
                  data-status={status}
                  className={cn((status === "revoked" || status === "expired") && "text-zinc-500")}
                >
                  <TD className="min-w-44">
                    <code className="font-mono text-xs text-zinc-900">{rule.toolName}</code>
                    {constraints > 0 ? (
                      <span className="block text-xs text-zinc-500">
                        {constraints === 1 ? "1 argument constraint" : `${constraints} argument constraints`}
                      </span>
                    ) : null}
                  </TD>
                  <TD className="whitespace-nowrap">
                    {TRUST_RULE_SCOPE_LABELS[rule.scopeType] ?? rule.scopeType}
                    {target ? (
                      <code className="ml-1.5 font-mono text-xs text-zinc-500" title={target}>
                        {shortId(target)}
                      </code>
                    ) : null}
                  </TD>
                  <TD className="text-right whitespace-nowrap tabular-nums" data-testid="trust-rule-uses">
                    {rule.useCount} / {rule.maxUses ?? "∞"}
                    {rule.maxUses === null ? <span className="sr-only"> (no limit)</span> : null}
                  </TD>
                  <TD className="text-xs whitespace-nowrap">
                    {rule.expiresAt ? (
                      <RelativeTime value={rule.expiresAt} now={now} />
                    ) : (
                      <span className="text-zinc-500">Never</span>
                    )}
                  </TD>
                  <TD>
                    <TrustRuleStatusBadge status={status} />
                  </TD>
                  <TD>
                    <code className="font-mono text-xs" title={rule.schemaHash}>
                      {shortId(rule.schemaHash, 12)}
                    </code>
                  </TD>
                  {canEdit ? (
                    <TD className="text-right whitespace-nowrap">
                      {revocable ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-red-700 hover:bg-red-50 hover:text-red-800"
                          onClick={() => setConfirmRevoke(rule.id)}
                          aria-label={`Revoke the trust rule for ${rule.toolName}`}
                          data-testid="trust-rule-revoke"
                        >
                          Revoke
                        </Button>
                      ) : null}
                    </TD>
                  ) : null}
                </TR>
                {confirmRevoke === rule.id ? (
                  <ConfirmRow
                    colSpan={columns}
                    confirmLabel="Revoke rule"
                    pending={revoke.isPending}
                    error={revoke.error}
                    onCancel={() => setConfirmRevoke(null)}
                    onConfirm={() => revoke.mutate(rule.id)}
                    data-testid="trust-rule-revoke-bar"
                  >
                    Revoke the trust rule for <code className="font-mono">{rule.toolName}</code>? Calls will
                    ask for approval again at once.
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
