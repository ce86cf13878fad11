"use client";

import type { ReactNode } from "react";
import {
  ARGUMENT_OP_LABELS,
  ARGUMENT_OPS,
  LIST_OPS,
  NUMBER_OPS,
  RATE_LIMIT_SCOPE_LABELS,
  RATE_LIMIT_SCOPES,
  VALUELESS_OPS,
} from "@/components/labels";
import { Button } from "../ui/Button";
import { InputField, monoInput, SelectField, TextareaField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { Checkbox } from "./controls";
import type { ArgumentRow, PolicyFormErrors, PolicyFormState } from "./policy-form";
import type { ArgumentOp, RateLimitScope } from "./types";

/** The note shown next to kind and priority. */
export const BLOCK_BEATS_ALLOW = "A block beats an allow whatever their priorities.";

export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="space-y-4 rounded-lg border border-zinc-200 p-4">
      <div>
        <h4 className="text-sm font-semibold text-zinc-900">{title}</h4>
        {description ? <p className="mt-0.5 text-sm text-zinc-600">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

export function ArgumentRowFields({
  baseId,
  index,
  row,
  errors,
  onChange,
  onRemove,
}: {
  baseId: string;
  index: number;
  row: ArgumentRow;
  errors: PolicyFormErrors;
  onChange: (patch: Partial<ArgumentRow>) => void;
  onRemove: () => void;
}) {
  const valueless = VALUELESS_OPS.has(row.op);
  const placeholder = LIST_OPS.has(row.op) ? '["a", "b"]' : NUMBER_OPS.has(row.op) ? "100" : "@acme.com";
  return (
    <div
      className="grid items-start gap-3 rounded-md bg-zinc-50 p-3 sm:grid-cols-[minmax(0,1fr)_11rem_minmax(0,1fr)_auto]"
      data-testid="policy-argument-row"
    >
      <InputField
        id={`${baseId}-path`}
        label={`Constraint ${index + 1}: path`}
        error={errors[`args.${index}.path`]}
        value={row.path}
        onChange={(e) => onChange({ path: e.target.value })}
        placeholder="/to"
        {...monoInput}
      />
      <SelectField
        id={`${baseId}-op`}
        label="Operator"
        value={row.op}
        onChange={(e) => onChange({ op: e.target.value as ArgumentOp })}
        options={ARGUMENT_OPS.map((op) => ({ value: op, label: ARGUMENT_OP_LABELS[op] }))}
      />
      <InputField
        id={`${baseId}-value`}
        label="Value"
        error={errors[`args.${index}.value`]}
        value={valueless ? "" : row.value}
        disabled={valueless}
        placeholder={valueless ? "No value needed" : placeholder}
        onChange={(e) => onChange({ value: e.target.value })}
        {...monoInput}
      />
      <div className="sm:pt-6">
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove constraint ${index + 1}`}>
          Remove
        </Button>
      </div>
    </div>
  );
}

export function EffectFields({
  baseId,
  state,
  errors,
  setState,
}: {
  baseId: string;
  state: PolicyFormState;
  errors: PolicyFormErrors;
  setState: (update: (prev: PolicyFormState) => PolicyFormState) => void;
}) {
  const field = fieldFrame(baseId, errors);
  switch (state.kind) {
    case "rate_limit": {
      const setRate = (patch: Partial<PolicyFormState["rateLimit"]>) =>
        setState((prev) => ({ ...prev, rateLimit: { ...prev.rateLimit, ...patch } }));
      return (
        <div className="grid gap-4 sm:grid-cols-3" data-testid="policy-effect-rate-limit">
          <InputField
            {...field("limit", "Calls allowed", { required: true })}
            inputMode="numeric"
            value={state.rateLimit.limit}
            onChange={(e) => setRate({ limit: e.target.value })}
            placeholder="10"
            data-testid="policy-rate-limit"
          />
          <InputField
            {...field("window", "Per window of (seconds)", { required: true, error: "windowSeconds" })}
            inputMode="numeric"
            value={state.rateLimit.windowSeconds}
            onChange={(e) => setRate({ windowSeconds: e.target.value })}
            data-testid="policy-rate-window"
          />
          <SelectField
            id={`${baseId}-per`}
            label="Counted for"
            value={state.rateLimit.per}
            onChange={(e) => setRate({ per: e.target.value as RateLimitScope })}
            data-testid="policy-rate-per"
            options={RATE_LIMIT_SCOPES.map((s) => ({ value: s, label: RATE_LIMIT_SCOPE_LABELS[s] }))}
          />
          <Checkbox
            className="sm:col-span-3"
            label="Count each tool separately"
            checked={state.rateLimit.perTool}
            onChange={(e) => setRate({ perTool: e.target.checked })}
            data-testid="policy-rate-per-tool"
          />
        </div>
      );
    }
    case "redact_arguments":
    case "redact_result":
      return (
        <TextareaField
          {...field(
            "paths",
            state.kind === "redact_arguments" ? "Argument paths to redact" : "Result paths to redact",
            { required: true, error: "redactPaths" },
          )}
          hint="One JSON pointer per line, e.g. /password or /headers/authorization."
          rows={3}
          value={state.redactPaths}
          onChange={(e) => {
            const value = e.target.value;
            setState((prev) => ({ ...prev, redactPaths: value }));
          }}
          {...monoInput}
          data-testid="policy-redact-paths"
        />
      );
    case "require_approval":
      return (
        <InputField
          {...field("expires", "Approval expires after (seconds)", { error: "expiresInSeconds" })}
          hint="Leave empty for the default."
          inputMode="numeric"
          value={state.approvalExpiresInSeconds}
          onChange={(e) => {
            const value = e.target.value;
            setState((prev) => ({ ...prev, approvalExpiresInSeconds: value }));
          }}
          className="max-w-40"
          data-testid="policy-approval-expires"
        />
      );
    default:
      return (
        <p className="text-sm text-zinc-600">
          Nothing to configure. {state.kind === "block" ? BLOCK_BEATS_ALLOW : null}
        </p>
      );
  }
}
