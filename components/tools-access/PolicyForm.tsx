"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { type Dispatch, type SetStateAction, useEffect, useId, useMemo } from "react";
import { useForm } from "react-hook-form";
import { POLICY_KIND_HINTS, POLICY_KIND_LABELS, POLICY_KINDS, RISK_LABELS, RISKS } from "@/components/labels";
import { Button } from "../ui/Button";
import { cn } from "../ui/cn";
import { codeInput, InputField, NameField, SelectField, TextareaField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { PendingButton } from "../ui/PendingButton";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { Checkbox, CheckboxGroup } from "./controls";
import { flattenFieldErrors, useServerFieldErrors } from "./form-errors";
import { useCatalogEntries, useFocusFirstInvalid, useToolTargets } from "./hooks";
import { PolicyConditionsSection as ConditionsSection } from "./PolicyConditions";
import { BLOCK_BEATS_ALLOW, EffectFields, Section } from "./PolicyFormFields";
import {
  emptyPolicyForm,
  type PolicyFormErrors,
  type PolicyFormState,
  policyFieldOf,
  policyFormSchema,
  policyToForm,
} from "./policy-form";
import type { Policy, PolicyInput, PolicyKind, Risk } from "./types";

export { BLOCK_BEATS_ALLOW } from "./PolicyFormFields";

export interface PolicyFormProps {
  companyId: string;
  /** The policy to edit; omit to create one. */
  policy?: Policy | null;
  /** Receives a request body that passed the client-side checks. */
  onSubmit: (input: PolicyInput) => void;
  onCancel?: () => void;
  /** A request is in flight. */
  pending?: boolean;
  /** The server's answer to the last submit, shown as an alert. */
  error?: unknown;
  className?: string;
}

/** Rule builder for a policy: what it matches (selectors), when (conditions) and what it does (effect). */
export function PolicyForm({
  companyId,
  policy,
  onSubmit,
  onCancel,
  pending = false,
  error,
  className,
}: PolicyFormProps) {
  const id = useId();
  const targets = useToolTargets(companyId);
  const catalog = useCatalogEntries(companyId);
  const schema = useMemo(() => policyFormSchema(policy), [policy]);
  const { handleSubmit, watch, getValues, setValue, setError, trigger, formState } = useForm<
    PolicyFormState,
    unknown,
    PolicyInput
  >({
    resolver: zodResolver(schema),
    defaultValues: policy ? policyToForm(policy) : emptyPolicyForm(),
  });
  const state = watch();
  const errors: PolicyFormErrors = flattenFieldErrors(formState.errors);
  const submitted = formState.isSubmitted;
  const field = fieldFrame(id, errors);
  // After a failed check, keyboard focus goes to the first field that needs attention.
  const { formRef, focusInvalid } = useFocusFirstInvalid();
  useServerFieldErrors(error, setError, policyFieldOf);

  // The sections edit the form's values through `set` and `setState`; once the form was submitted,
  // each change checks it again so a fixed field loses its message.
  function write(next: Partial<PolicyFormState>) {
    for (const [key, value] of Object.entries(next) as [keyof PolicyFormState, never][])
      setValue(key, value, { shouldDirty: true });
    if (submitted) void trigger();
  }
  function set<K extends keyof PolicyFormState>(key: K, value: PolicyFormState[K]) {
    write({ [key]: value } as Partial<PolicyFormState>);
  }
  const setState: Dispatch<SetStateAction<PolicyFormState>> = (update) => {
    const prev = getValues();
    const next = typeof update === "function" ? update(prev) : update;
    write(
      Object.fromEntries(
        Object.entries(next).filter(([key, value]) => prev[key as keyof PolicyFormState] !== value),
      ) as Partial<PolicyFormState>,
    );
  };

  const submit = handleSubmit((input) => onSubmit(input));
  // Each refused submit renders its messages with a new count; focus follows that render.
  const { submitCount, isSubmitSuccessful } = formState;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per submit
  useEffect(() => {
    if (submitCount > 0 && !isSubmitSuccessful) focusInvalid();
  }, [submitCount]);

  const errorCount = Object.keys(errors).length;
  const t = targets.data;
  const c = catalog.data;
  const appName = new Map((c?.applications ?? []).map((a) => [a.id, a.name]));
  const noApplications = Boolean(c) && (c?.applications.length ?? 0) === 0;

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className={cn("space-y-6", className)}
      aria-labelledby={`${id}-title`}
      data-testid="policy-form"
    >
      <div>
        <h3 id={`${id}-title`} className="text-base font-semibold text-zinc-900">
          {policy ? `Edit “${policy.name}”` : "New policy"}
        </h3>
        <p className="mt-1 text-sm text-zinc-600">
          The server checks every rule again when you save; its answer is shown here if something is wrong.
        </p>
      </div>

      {errorCount > 0 ? (
        <p role="alert" className="text-sm font-medium text-red-700" data-testid="policy-form-errors">
          {errorCount === 1 ? "One field needs attention." : `${errorCount} fields need attention.`}
        </p>
      ) : null}

      <Section title="Rule">
        <div className="grid gap-4 sm:grid-cols-2">
          <NameField
            idPrefix={id}
            error={errors.name}
            value={state.name}
            onChange={(e) => set("name", e.target.value)}
            maxLength={200}
            placeholder="e.g. Block destructive GitHub actions"
            data-testid="policy-name"
          />
          <SelectField
            id={`${id}-kind`}
            label="Kind"
            hint={POLICY_KIND_HINTS[state.kind]}
            value={state.kind}
            onChange={(e) => set("kind", e.target.value as PolicyKind)}
            data-testid="policy-kind"
            options={POLICY_KINDS.map((k) => ({ value: k, label: POLICY_KIND_LABELS[k] }))}
          />
          <TextareaField
            id={`${id}-description`}
            label="Description"
            fieldClassName="sm:col-span-2"
            rows={2}
            value={state.description}
            onChange={(e) => set("description", e.target.value)}
            data-testid="policy-description"
          />
          <InputField
            {...field("priority", "Priority")}
            hint={`Orders matching policies. Leave empty for the default. ${BLOCK_BEATS_ALLOW}`}
            inputMode="numeric"
            value={state.priority}
            onChange={(e) => set("priority", e.target.value)}
            className="max-w-40"
            data-testid="policy-priority"
          />
          <div className="pt-7">
            <Checkbox
              label="Enabled"
              description="Disabled policies are kept but not applied."
              checked={state.enabled}
              onChange={(e) => set("enabled", e.target.checked)}
              data-testid="policy-enabled"
            />
          </div>
        </div>
      </Section>

      <Section
        title="Applies to"
        description="Leave a selector empty to match anything. A call must match every selector that is set (any one of the values ticked within it)."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            {...field("globs", "Tool name patterns", { error: "toolGlobs" })}
            hint="Comma-separated patterns matched against app.tool, app__tool or the bare name; * matches any run, ? one character: e.g. github.*, *_delete."
            fieldClassName="sm:col-span-2"
            value={state.toolGlobs}
            onChange={(e) => set("toolGlobs", e.target.value)}
            placeholder="github.*, *_delete"
            {...codeInput}
            data-testid="policy-globs"
          />
          <CheckboxGroup
            legend="Risk"
            inline
            options={RISKS.map((r) => ({ value: r, label: RISK_LABELS[r] }))}
            selected={state.risks}
            onChange={(next) => set("risks", next as Risk[])}
            data-testid="policy-risks"
            className="sm:col-span-2"
          />
          <CheckboxGroup
            legend="Agents"
            scroll
            options={(t?.agents ?? []).map((a) => ({ value: a.id, label: a.name }))}
            selected={state.agentIds}
            onChange={(next) => set("agentIds", next)}
            emptyText={targets.isPending ? "Loading…" : "No agents yet."}
            data-testid="policy-agents"
          />
          <CheckboxGroup
            legend="Projects"
            scroll
            options={(t?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
            selected={state.projectIds}
            onChange={(next) => set("projectIds", next)}
            emptyText={targets.isPending ? "Loading…" : "No projects yet."}
            data-testid="policy-projects"
          />
          <CheckboxGroup
            legend="Issues"
            scroll
            options={(t?.issues ?? []).map((i) => ({ value: i.id, label: `${i.identifier} · ${i.title}` }))}
            selected={state.issueIds}
            onChange={(next) => set("issueIds", next)}
            emptyText={targets.isPending ? "Loading…" : "No issues yet."}
            data-testid="policy-issues"
          />
          <CheckboxGroup
            legend="Routines"
            scroll
            options={(t?.routines ?? []).map((r) => ({ value: r.id, label: r.name }))}
            selected={state.routineIds}
            onChange={(next) => set("routineIds", next)}
            emptyText={targets.isPending ? "Loading…" : "No routines yet."}
            data-testid="policy-routines"
          />
          <CheckboxGroup
            legend="Applications"
            scroll
            options={(c?.applications ?? []).map((a) => ({ value: a.id, label: a.name }))}
            selected={state.applicationIds}
            onChange={(next) => set("applicationIds", next)}
            emptyText={catalog.isPending ? "Loading…" : "No applications yet."}
            data-testid="policy-applications"
          />
          <CheckboxGroup
            legend="Connections"
            scroll
            options={(c?.connections ?? []).map((conn) => ({
              value: conn.id,
              label: `${conn.name} · ${appName.get(conn.applicationId) ?? "unknown application"}`,
            }))}
            selected={state.connectionIds}
            onChange={(next) => set("connectionIds", next)}
            emptyText={catalog.isPending ? "Loading…" : "No connections yet."}
            data-testid="policy-connections"
          />
          {(c?.entries.length ?? 0) > 0 || state.catalogEntryIds.length > 0 ? (
            <CheckboxGroup
              legend="Single tools"
              scroll
              options={(c?.entries ?? []).map((entry) => ({
                value: entry.id,
                label: (
                  <span className="font-mono text-xs">
                    {entry.qualifiedName}
                    {entry.status !== "active" ? ` (${entry.status})` : ""}
                  </span>
                ),
              }))}
              selected={state.catalogEntryIds}
              onChange={(next) => set("catalogEntryIds", next)}
              className="sm:col-span-2"
              data-testid="policy-tools"
            />
          ) : null}
        </div>
        {noApplications ? (
          <p className="text-sm text-zinc-600">
            No applications are registered yet; the application, connection and tool lists fill in once they
            exist. Tool name patterns and risk levels work already.
          </p>
        ) : null}
        <ApiErrorAlert error={targets.error} title="Could not load agents, projects, issues and routines" />
        <ApiErrorAlert error={catalog.error} title="Could not load applications and tools" />
      </Section>

      <ConditionsSection id={id} state={state} errors={errors} set={set} setState={setState} />

      <Section title="Effect" description={POLICY_KIND_HINTS[state.kind]}>
        <EffectFields baseId={`${id}-effect`} state={state} errors={errors} setState={setState} />
      </Section>

      <ApiErrorAlert
        error={error}
        title={policy ? "Could not save the policy" : "Could not create the policy"}
      />

      <div className="flex flex-wrap justify-end gap-2 border-t border-zinc-200 pt-4">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        ) : null}
        <PendingButton
          pending={pending || formState.isSubmitting}
          pendingLabel="Saving…"
          type="submit"
          data-testid="policy-submit"
        >
          {policy ? "Save policy" : "Create policy"}
        </PendingButton>
      </div>
    </form>
  );
}
