"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { TRUST_RULE_SCOPE_HINTS, TRUST_RULE_SCOPE_LABELS } from "@/components/labels";
import { ApiErrorAlert } from "../tools-access/ApiErrorAlert";
import { approvalKeys } from "../tools-access/api";
import { useToolsApi } from "../tools-access/ToolsApiProvider";
import { Button } from "../ui/Button";
import { InputField, SelectField } from "../ui/FieldControls";
import { PendingButton } from "../ui/PendingButton";
import { actionRequestActionPath } from "./api";
import {
  type ActionRequest,
  TRUST_RULE_SCOPES,
  type TrustRuleCreated,
  type TrustRuleCreateInput,
  type TrustRuleScope,
} from "./types";

export const TRUST_NEEDS_SECOND_ADMIN = "needs another admin's approval before it takes effect";

const EXPIRY_OPTIONS = [
  { value: "1", label: "In 1 day" },
  { value: "7", label: "In 7 days" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "", label: "Never" },
] as const;

const MAX_USES_LIMIT = 100_000;

export interface TrustRuleFormProps {
  companyId: string;
  /** An executed action request; the rule trusts the same tool, pinned to its reviewed schema. */
  request: Pick<ActionRequest, "id" | "toolName" | "issueId" | "agentId">;
  onCancel: () => void;
  onCreated: (created: TrustRuleCreated) => void;
}

/**
 * Promotes an executed call into a bounded trust rule (`POST …/action-requests/:id/trust-rule`):
 * scope, maximum uses and expiry. The rule starts pending until another admin accepts it.
 */
export function TrustRuleForm({ companyId, request, onCancel, onCreated }: TrustRuleFormProps) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const [scope, setScope] = useState<TrustRuleScope>(request.agentId ? "agent" : "company");
  const [maxUses, setMaxUses] = useState("");
  const [expiryDays, setExpiryDays] = useState<string>("30");
  const [maxUsesError, setMaxUsesError] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: (body: TrustRuleCreateInput) =>
      api<TrustRuleCreated>(actionRequestActionPath(companyId, request.id, "trust-rule"), {
        method: "POST",
        body,
      }),
    onSuccess: (created) => {
      onCreated(created);
      return Promise.all([
        client.invalidateQueries({ queryKey: approvalKeys.trustRules(companyId) }),
        client.invalidateQueries({ queryKey: approvalKeys.formalApprovals(companyId) }),
      ]);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body: TrustRuleCreateInput = { scopeType: scope, argumentConstraints: [] };
    const uses = maxUses.trim();
    if (uses) {
      const n = Number(uses);
      if (!Number.isInteger(n) || n < 1 || n > MAX_USES_LIMIT) {
        setMaxUsesError(`Enter a whole number from 1 to ${MAX_USES_LIMIT.toLocaleString("en-US")}.`);
        return;
      }
      body.maxUses = n;
    }
    setMaxUsesError(null);
    if (expiryDays) body.expiresAt = new Date(Date.now() + Number(expiryDays) * 86_400_000).toISOString();
    create.mutate(body);
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4 rounded-lg border border-accent-200 bg-white p-4"
      aria-label={`Trust ${request.toolName}`}
      data-testid="trust-form"
    >
      <div className="space-y-1">
        <p className="text-sm font-semibold text-zinc-900">
          Trust <code className="font-mono text-xs">{request.toolName}</code> without asking each time
        </p>
        <p className="text-sm text-zinc-600">
          Later calls to this tool within the scope run without per-call approval, with any arguments, as long
          as the tool's schema stays the one you reviewed. The rule {TRUST_NEEDS_SECOND_ADMIN}.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          id={`${id}-scope`}
          label="Scope"
          hint={TRUST_RULE_SCOPE_HINTS[scope]}
          value={scope}
          onChange={(e) => setScope(e.target.value as TrustRuleScope)}
          data-testid="trust-scope"
          options={TRUST_RULE_SCOPES.map((s) => ({
            value: s,
            label: TRUST_RULE_SCOPE_LABELS[s],
            disabled: (s === "issue" && !request.issueId) || (s === "agent" && !request.agentId),
          }))}
        />
        <InputField
          id={`${id}-max-uses`}
          label="Maximum uses"
          hint="Empty for no limit."
          error={maxUsesError}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_USES_LIMIT}
          step={1}
          value={maxUses}
          onChange={(e) => setMaxUses(e.target.value)}
          placeholder="No limit"
          data-testid="trust-max-uses"
        />
        <SelectField
          id={`${id}-expiry`}
          label="Expires"
          value={expiryDays}
          onChange={(e) => setExpiryDays(e.target.value)}
          data-testid="trust-expiry"
          options={EXPIRY_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
        />
      </div>
      <ApiErrorAlert error={create.error} title="Could not create the trust rule" />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <PendingButton
          pending={create.isPending}
          pendingLabel="Proposing…"
          type="submit"
          size="sm"
          data-testid="trust-create"
        >
          Propose trust rule
        </PendingButton>
      </div>
    </form>
  );
}
