"use client";

import { type FormEvent, useId, useState } from "react";
import { BINDING_TARGET_LABELS, BINDING_TARGET_TYPES } from "@/components/labels";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { SelectField } from "../ui/FieldControls";
import { HeaderRow, Table, TBody, TD, TR } from "../ui/Table";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { RemoveCell } from "./controls";
import { useToolTargets } from "./hooks";
import { InlineAddForm } from "./InlineAddForm";
import type { PickerOption } from "./ProfileEntryForm";
import { useProfileBindingActions } from "./profile-queries";
import type { BindingTargetType, Profile, ToolTargets } from "./types";

/** The sentence shown next to bindings. */
export const BINDING_LEVELS_HINT =
  "Levels apply from company to issue; the narrowest binding that mentions a tool decides (an exclude beats an include at the same level).";

/** Where a profile applies, with the add form when `canEdit`. */
export function BindingsSection({
  companyId,
  profile,
  canEdit,
}: {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
}) {
  const { remove } = useProfileBindingActions(companyId, profile.id);

  return (
    <Card>
      <CardHeader title="Bindings" titleAs="h3" description="Where this profile applies.">
        <p className="text-sm text-zinc-600" data-testid="binding-levels-hint">
          {BINDING_LEVELS_HINT}
        </p>
      </CardHeader>
      <CardBody className="space-y-4">
        <ApiErrorAlert error={remove.error} title="Could not remove the binding" />
        {profile.bindings.length === 0 ? (
          <p className="text-sm text-zinc-600" data-testid="profile-bindings-empty">
            Not bound anywhere yet, so this profile affects no agent.
          </p>
        ) : (
          <Table data-testid="profile-bindings">
            <HeaderRow columns={["Level", "Applies to"]} actions={canEdit} />
            <TBody>
              {profile.bindings.map((binding) => {
                return (
                  <TR
                    key={binding.id}
                    data-testid="binding-row"
                    data-binding-id={binding.id}
                    data-target-type={binding.targetType}
                  >
                    <TD>
                      <Badge tone="info">
                        {BINDING_TARGET_LABELS[binding.targetType] ?? binding.targetType}
                      </Badge>
                    </TD>
                    <TD className="text-zinc-900">{binding.targetLabel}</TD>
                    {canEdit ? (
                      <RemoveCell
                        remove={remove}
                        id={binding.id}
                        label={`Remove binding: ${binding.targetLabel}`}
                        testId="binding-remove"
                      />
                    ) : null}
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )}
        {canEdit ? <BindingAddForm companyId={companyId} profile={profile} /> : null}
      </CardBody>
    </Card>
  );
}

function targetOptions(type: BindingTargetType, targets: ToolTargets | undefined): PickerOption[] {
  if (!targets) return [];
  switch (type) {
    case "agent":
      return targets.agents.map((a) => ({ value: a.id, label: a.name }));
    case "project":
      return targets.projects.map((p) => ({ value: p.id, label: p.name }));
    case "routine":
      return targets.routines.map((r) => ({ value: r.id, label: r.name }));
    case "issue":
      return targets.issues.map((i) => ({ value: i.id, label: `${i.identifier} · ${i.title}` }));
    default:
      return [];
  }
}

const TARGET_NOUN: Record<Exclude<BindingTargetType, "company">, { a: string; plural: string }> = {
  project: { a: "a project", plural: "projects" },
  agent: { a: "an agent", plural: "agents" },
  routine: { a: "a routine", plural: "routines" },
  issue: { a: "an issue", plural: "issues" },
};

function BindingAddForm({ companyId, profile }: { companyId: string; profile: Profile }) {
  const targets = useToolTargets(companyId);
  const id = useId();
  const [type, setType] = useState<BindingTargetType>("company");
  const [targetId, setTargetId] = useState("");
  const [error, setError] = useState<string | null>(null);

  const { add } = useProfileBindingActions(companyId, profile.id, { added: () => setTargetId("") });

  const options = targetOptions(type, targets.data);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (type !== "company" && !targetId) {
      setError(`Choose ${TARGET_NOUN[type].a}.`);
      return;
    }
    const wanted = type === "company" ? null : targetId;
    const existing = profile.bindings.find((b) => b.targetType === type && (b.targetId ?? null) === wanted);
    if (existing) {
      setError(`This profile is already bound to ${existing.targetLabel}.`);
      return;
    }
    setError(null);
    add.mutate(type === "company" ? { targetType: type } : { targetType: type, targetId });
  }

  return (
    <InlineAddForm
      id={id}
      title="Add a binding"
      onSubmit={submit}
      pending={add.isPending}
      submitLabel="Add binding"
      pendingLabel="Adding…"
      testId="binding-form"
      submitTestId="binding-add"
    >
      <div className="grid gap-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <SelectField
          id={`${id}-type`}
          label="Level"
          value={type}
          onChange={(e) => {
            setType(e.target.value as BindingTargetType);
            setTargetId("");
            setError(null);
          }}
          data-testid="binding-type"
          options={BINDING_TARGET_TYPES.map((t) => ({ value: t, label: BINDING_TARGET_LABELS[t] }))}
        />
        {type === "company" ? (
          <div className="space-y-1.5">
            <p className="text-sm font-medium text-zinc-800">Applies to</p>
            <p className="text-sm text-zinc-600">Every agent of the company. No target to choose.</p>
            {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
          </div>
        ) : (
          <SelectField
            id={`${id}-target`}
            label={BINDING_TARGET_LABELS[type]}
            error={error}
            value={targetId}
            onChange={(e) => setTargetId(e.target.value)}
            disabled={options.length === 0}
            data-testid="binding-target"
            placeholder={
              targets.isPending
                ? "Loading…"
                : options.length === 0
                  ? `No ${TARGET_NOUN[type].plural} yet`
                  : `Choose ${TARGET_NOUN[type].a}…`
            }
            options={options.map((o) => ({ value: o.value, label: o.label }))}
          />
        )}
      </div>
      <ApiErrorAlert error={targets.error} title="Could not load agents, projects, routines and issues" />
      <ApiErrorAlert error={add.error} title="Could not add the binding" />
    </InlineAddForm>
  );
}
