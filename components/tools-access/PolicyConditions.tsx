"use client";

import type { Dispatch, SetStateAction } from "react";
import { WEEKDAYS } from "@/components/labels";
import { Button } from "../ui/Button";
import { InputField } from "../ui/FieldControls";
import { fieldFrame } from "../ui/FieldRows";
import { Checkbox, CheckboxGroup } from "./controls";
import { ArgumentRowFields, Section } from "./PolicyFormFields";
import { type ArgumentRow, newArgumentRow, type PolicyFormErrors, type PolicyFormState } from "./policy-form";

/** Argument constraints, time window and required context of a policy. */
export function PolicyConditionsSection({
  id,
  state,
  errors,
  set,
  setState,
}: {
  id: string;
  state: PolicyFormState;
  errors: PolicyFormErrors;
  set: <K extends keyof PolicyFormState>(key: K, value: PolicyFormState[K]) => void;
  setState: Dispatch<SetStateAction<PolicyFormState>>;
}) {
  const field = fieldFrame(id, errors);
  function setArg(index: number, patch: Partial<ArgumentRow>) {
    setState((prev) => ({
      ...prev,
      args: prev.args.map((row, i) => (i === index ? { ...row, ...patch } : row)),
    }));
  }
  return (
    <Section
      title="Conditions"
      description="Optional. Every condition that is set must hold for the policy to apply."
    >
      <fieldset className="space-y-3" data-testid="policy-arguments">
        <legend className="text-sm font-medium text-zinc-800">Argument constraints</legend>
        <p className="text-xs text-zinc-500">
          Path is a JSON pointer into the call's arguments (e.g. /to). Values are read as JSON when possible
          (42, true, ["a","b"]), otherwise as text.
        </p>
        {state.args.length === 0 ? <p className="text-sm text-zinc-500">No argument constraints.</p> : null}
        {state.args.map((row, index) => (
          <ArgumentRowFields
            key={row.key}
            baseId={`${id}-arg-${index}`}
            index={index}
            row={row}
            errors={errors}
            onChange={(patch) => setArg(index, patch)}
            onRemove={() =>
              set(
                "args",
                state.args.filter((_, i) => i !== index),
              )
            }
          />
        ))}
        <Button
          variant="secondary"
          size="sm"
          onClick={() => set("args", [...state.args, newArgumentRow()])}
          data-testid="policy-argument-add"
        >
          Add argument constraint
        </Button>
      </fieldset>

      <fieldset className="space-y-3" data-testid="policy-time-window">
        <legend className="text-sm font-medium text-zinc-800">Time window</legend>
        <CheckboxGroup
          legend={<span className="font-normal text-zinc-600">Days</span>}
          inline
          options={WEEKDAYS.map((d) => ({
            value: String(d.value),
            label: <abbr title={d.long}>{d.short}</abbr>,
          }))}
          selected={state.days.map(String)}
          onChange={(next) => set("days", next.map(Number))}
        />
        <div className="grid gap-3 sm:grid-cols-3">
          <InputField
            {...field("start", "From")}
            type="time"
            value={state.start}
            onChange={(e) => set("start", e.target.value)}
          />
          <InputField
            {...field("end", "Until")}
            type="time"
            value={state.end}
            onChange={(e) => set("end", e.target.value)}
          />
          <InputField
            {...field("timezone", "Time zone")}
            hint="e.g. Europe/Paris"
            value={state.timezone}
            onChange={(e) => set("timezone", e.target.value)}
            placeholder="UTC"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-zinc-800">Context</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <Checkbox
            label="Requires an issue"
            checked={state.requireIssue}
            onChange={(e) => set("requireIssue", e.target.checked)}
          />
          <Checkbox
            label="Requires a project"
            checked={state.requireProject}
            onChange={(e) => set("requireProject", e.target.checked)}
          />
          <Checkbox
            label="Requires a routine"
            checked={state.requireRoutine}
            onChange={(e) => set("requireRoutine", e.target.checked)}
          />
        </div>
      </fieldset>
    </Section>
  );
}
