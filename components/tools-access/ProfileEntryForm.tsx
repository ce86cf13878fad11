"use client";

import { type FormEvent, useId, useState } from "react";
import { RISK_LABELS, RISKS, SELECTOR_TYPE_LABELS, SELECTOR_TYPES } from "@/components/labels";
import { Field } from "../ui/Field";
import { codeInput, SelectField, type SelectOption } from "../ui/FieldControls";
import { Input } from "../ui/Input";
import { Select } from "../ui/Select";
import { ApiErrorAlert } from "./ApiErrorAlert";
import type { useCatalogEntries } from "./hooks";
import { InlineAddForm } from "./InlineAddForm";
import { useProfileEntryActions } from "./profile-queries";
import type { CatalogEntriesResponse, EntryMode, Profile, Risk, Selector, SelectorType } from "./types";

export const NO_APPLICATIONS_HINT =
  "No applications are registered yet. The application, connection and single-tool pickers fill in once applications exist; until then, add entries by tool name pattern or by risk level.";

const ENTRY_MODE_OPTIONS: readonly SelectOption[] = [
  { value: "include", label: "Include" },
  { value: "exclude", label: "Exclude" },
];

export interface PickerOption {
  value: string;
  label: string;
}

function pickerOptions(type: SelectorType, catalog: CatalogEntriesResponse | undefined): PickerOption[] {
  if (!catalog) return [];
  const appName = new Map(catalog.applications.map((a) => [a.id, a.name]));
  switch (type) {
    case "application":
      return catalog.applications.map((a) => ({ value: a.id, label: `${a.name} (${a.slug})` }));
    case "connection":
      return catalog.connections.map((c) => ({
        value: c.id,
        label: `${c.name} · ${appName.get(c.applicationId) ?? "unknown application"}`,
      }));
    case "catalog_entry":
      return catalog.entries.map((e) => ({
        value: e.id,
        label: `${e.qualifiedName}${e.status !== "active" ? ` (${e.status})` : ""}`,
      }));
    default:
      return [];
  }
}

const PICKER_NOUN: Partial<Record<SelectorType, string>> = {
  application: "an application",
  connection: "a connection",
  catalog_entry: "a tool",
};

/** Adds an include or exclude entry by pattern, risk, application, connection or single tool. */
export function EntryAddForm({
  companyId,
  profile,
  catalog,
}: {
  companyId: string;
  profile: Profile;
  catalog: ReturnType<typeof useCatalogEntries>;
}) {
  const id = useId();
  const [mode, setMode] = useState<EntryMode>("include");
  const [type, setType] = useState<SelectorType>("tool_glob");
  const [glob, setGlob] = useState("");
  const [risk, setRisk] = useState<Risk>("read");
  const [picked, setPicked] = useState("");
  const [error, setError] = useState<string | null>(null);

  const { add } = useProfileEntryActions(companyId, profile.id, {
    added: () => {
      setGlob("");
      setPicked("");
    },
  });

  const data = catalog.data;
  const available: Record<SelectorType, boolean> = {
    tool_glob: true,
    risk: true,
    application: (data?.applications.length ?? 0) > 0,
    connection: (data?.connections.length ?? 0) > 0,
    catalog_entry: (data?.entries.length ?? 0) > 0,
  };
  const catalogEmpty =
    Boolean(data) && !available.application && !available.connection && !available.catalog_entry;
  const options = pickerOptions(type, data);

  function buildSelector(): Selector | string {
    switch (type) {
      case "tool_glob": {
        const value = glob.trim();
        if (!value) return "Enter a tool name pattern, e.g. github.*.";
        if (/\s/.test(value)) return "Tool name patterns cannot contain spaces.";
        return { type, glob: value };
      }
      case "risk":
        return { type, risk };
      case "application":
        return picked ? { type, applicationId: picked } : "Choose an application.";
      case "connection":
        return picked ? { type, connectionId: picked } : "Choose a connection.";
      case "catalog_entry":
        return picked ? { type, catalogEntryId: picked } : "Choose a tool.";
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const selector = buildSelector();
    if (typeof selector === "string") {
      setError(selector);
      return;
    }
    setError(null);
    add.mutate({ mode, selector });
  }

  const valueId = `${id}-value`;
  return (
    <InlineAddForm
      id={id}
      title="Add an entry"
      onSubmit={submit}
      pending={add.isPending}
      submitLabel="Add entry"
      pendingLabel="Adding…"
      testId="profile-entry-form"
      submitTestId="profile-entry-add"
    >
      <div className="grid gap-3 sm:grid-cols-[8rem_12rem_minmax(0,1fr)]">
        <SelectField
          id={`${id}-mode`}
          label="Mode"
          value={mode}
          onChange={(e) => setMode(e.target.value as EntryMode)}
          data-testid="profile-entry-mode"
          options={ENTRY_MODE_OPTIONS}
        />
        <SelectField
          id={`${id}-type`}
          label="Select by"
          value={type}
          onChange={(e) => {
            setType(e.target.value as SelectorType);
            setPicked("");
            setError(null);
          }}
          data-testid="profile-entry-type"
          options={SELECTOR_TYPES.map((t) => ({
            value: t,
            label: `${SELECTOR_TYPE_LABELS[t]}${available[t] ? "" : " (none yet)"}`,
            disabled: !available[t],
          }))}
        />
        <Field
          id={valueId}
          label={type === "tool_glob" ? "Pattern" : type === "risk" ? "Risk" : SELECTOR_TYPE_LABELS[type]}
          error={error}
          hint={
            type === "tool_glob"
              ? "Matches app.tool, app__tool or the bare tool name; * matches any run of characters, ? one: e.g. github.* or *_delete."
              : undefined
          }
        >
          {(control) =>
            type === "tool_glob" ? (
              <Input
                {...control}
                value={glob}
                onChange={(e) => setGlob(e.target.value)}
                placeholder="github.*"
                {...codeInput}
                data-testid="profile-entry-value"
              />
            ) : type === "risk" ? (
              <Select
                {...control}
                value={risk}
                onChange={(e) => setRisk(e.target.value as Risk)}
                data-testid="profile-entry-value"
              >
                {RISKS.map((r) => (
                  <option key={r} value={r}>
                    {RISK_LABELS[r]}
                  </option>
                ))}
              </Select>
            ) : (
              <Select
                {...control}
                value={picked}
                onChange={(e) => setPicked(e.target.value)}
                disabled={options.length === 0}
                data-testid="profile-entry-value"
              >
                <option value="">
                  {catalog.isPending
                    ? "Loading…"
                    : options.length === 0
                      ? "None yet"
                      : `Choose ${PICKER_NOUN[type]}…`}
                </option>
                {options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
            )
          }
        </Field>
      </div>
      {catalogEmpty ? (
        <p className="text-sm text-zinc-600" data-testid="profile-entry-catalog-hint">
          {NO_APPLICATIONS_HINT}
        </p>
      ) : null}
      <ApiErrorAlert error={catalog.error} title="Could not load applications and tools" />
      <ApiErrorAlert error={add.error} title="Could not add the entry" />
    </InlineAddForm>
  );
}
