"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { Field } from "../ui/Field";
import { Input } from "../ui/Input";
import { PendingButton } from "../ui/PendingButton";
import { Select } from "../ui/Select";
import { ActionsHeader, Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { Textarea } from "../ui/Textarea";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsApiPath } from "./api";
import { ConfirmBar } from "./controls";
import { useCatalogEntries, useToolTargets } from "./hooks";
import {
  BINDING_TARGET_LABELS,
  BINDING_TARGET_TYPES,
  ENTRY_MODE_LABELS,
  RISK_LABELS,
  RISKS,
  SELECTOR_TYPE_LABELS,
  SELECTOR_TYPES,
} from "./labels";
import { invalidateProfiles, updateCachedProfile, updateCachedProfiles } from "./profile-cache";
import { QuarantineBadge } from "./QuarantineBadge";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { useToolsApi } from "./ToolsApiProvider";
import type {
  BindingTargetType,
  CatalogEntriesResponse,
  EntryMode,
  Profile,
  ProfileBinding,
  ProfileBindingInput,
  ProfileEntry,
  ProfileEntryInput,
  ProfileUpdateInput,
  Risk,
  Selector,
  SelectorType,
  ToolTargets,
} from "./types";

/** The sentence shown next to bindings. */
export const BINDING_LEVELS_HINT =
  "Levels apply from company to issue; the narrowest binding that mentions a tool decides (an exclude beats an include at the same level).";

export const NO_APPLICATIONS_HINT =
  "No applications are registered yet. The application, connection and single-tool pickers fill in once applications exist; until then, add entries by tool name pattern or by risk level.";

export interface ProfileEditorProps {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
  /** Called after the profile was deleted. */
  onDeleted?: () => void;
  /** Shows a "Close" button. */
  onClose?: () => void;
  className?: string;
}

/** Entries and bindings of one profile, with forms to change them when `canEdit`. */
export function ProfileEditor({
  companyId,
  profile,
  canEdit,
  onDeleted,
  onClose,
  className,
}: ProfileEditorProps) {
  return (
    <div className={className} data-testid="profile-editor" data-profile-id={profile.id}>
      <div className="space-y-6">
        <ProfileHeader
          companyId={companyId}
          profile={profile}
          canEdit={canEdit}
          onDeleted={onDeleted}
          onClose={onClose}
        />
        <EntriesSection companyId={companyId} profile={profile} canEdit={canEdit} />
        <BindingsSection companyId={companyId} profile={profile} canEdit={canEdit} />
      </div>
    </div>
  );
}

// Header: details, archive, delete

function ProfileHeader({
  companyId,
  profile,
  canEdit,
  onDeleted,
  onClose,
}: {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
  onDeleted?: () => void;
  onClose?: () => void;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<"archive" | "delete" | null>(null);
  const [editing, setEditing] = useState(false);
  const path = toolsApiPath(companyId, `/profiles/${encodeURIComponent(profile.id)}`);

  const update = useMutation({
    mutationFn: (body: ProfileUpdateInput) => api<Profile>(path, { method: "PATCH", body }),
    onSuccess: (updated) => {
      updateCachedProfile(client, companyId, profile.id, (old) => ({ ...old, ...updated }));
      setConfirming(null);
      setEditing(false);
      return invalidateProfiles(client, companyId);
    },
  });
  const remove = useMutation({
    mutationFn: () => api<{ deleted: true }>(path, { method: "DELETE" }),
    onSuccess: () => {
      updateCachedProfiles(client, companyId, (list) => list.filter((p) => p.id !== profile.id));
      setConfirming(null);
      onDeleted?.();
      return invalidateProfiles(client, companyId);
    },
  });

  const archived = profile.status === "archived";
  return (
    <Card>
      <CardHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid="profile-editor-name">{profile.name}</span>
            <Badge tone={archived ? "neutral" : "success"} data-testid="profile-status">
              {archived ? "Archived" : "Active"}
            </Badge>
          </span>
        }
        description={profile.description ?? undefined}
        actions={
          <>
            {canEdit && !editing ? (
              <>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setEditing(true)}
                  data-testid="profile-edit"
                >
                  Edit details
                </Button>
                {archived ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={update.isPending}
                    onClick={() => update.mutate({ status: "active" })}
                    data-testid="profile-restore"
                  >
                    Restore
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => setConfirming("archive")}
                    data-testid="profile-archive"
                  >
                    Archive
                  </Button>
                )}
                <Button
                  variant="danger"
                  size="sm"
                  onClick={() => setConfirming("delete")}
                  data-testid="profile-delete"
                >
                  Delete
                </Button>
              </>
            ) : null}
            {onClose ? (
              <Button variant="ghost" size="sm" onClick={onClose}>
                Close
              </Button>
            ) : null}
          </>
        }
      />
      {archived || !canEdit || editing || confirming || update.error || remove.error ? (
        <CardBody className="space-y-3">
          {archived ? (
            <p className="text-sm text-zinc-600">
              This profile is archived. Restore it to let its bindings apply again.
            </p>
          ) : null}
          {!canEdit ? (
            <ReadOnlyNote data-testid="profile-read-only">
              You can view this profile but not change it.
            </ReadOnlyNote>
          ) : null}
          {editing ? (
            <ProfileDetailsForm
              profile={profile}
              pending={update.isPending}
              onCancel={() => {
                setEditing(false);
                update.reset();
              }}
              onSubmit={(body) => update.mutate(body)}
            />
          ) : null}
          {confirming === "archive" ? (
            <ConfirmBar
              tone="warning"
              confirmLabel="Archive profile"
              pending={update.isPending}
              onCancel={() => setConfirming(null)}
              onConfirm={() => update.mutate({ status: "archived" })}
              data-testid="profile-archive-bar"
            >
              Archive “{profile.name}”? Its bindings stop applying until you restore it.
            </ConfirmBar>
          ) : null}
          {confirming === "delete" ? (
            <ConfirmBar
              confirmLabel="Delete profile"
              pending={remove.isPending}
              onCancel={() => setConfirming(null)}
              onConfirm={() => remove.mutate()}
              data-testid="profile-delete-bar"
            >
              Delete “{profile.name}” with its {profile.entries.length}{" "}
              {profile.entries.length === 1 ? "entry" : "entries"} and {profile.bindings.length}{" "}
              {profile.bindings.length === 1 ? "binding" : "bindings"}? This cannot be undone.
            </ConfirmBar>
          ) : null}
          <ApiErrorAlert error={update.error} title="Could not update the profile" />
          <ApiErrorAlert error={remove.error} title="Could not delete the profile" />
        </CardBody>
      ) : null}
    </Card>
  );
}

function ProfileDetailsForm({
  profile,
  pending,
  onSubmit,
  onCancel,
}: {
  profile: Profile;
  pending: boolean;
  onSubmit: (body: ProfileUpdateInput) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(profile.name);
  const [description, setDescription] = useState(profile.description ?? "");
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError("Give the profile a name.");
      return;
    }
    setError(null);
    const body: ProfileUpdateInput = { name: trimmed };
    const desc = description.trim();
    if (desc) body.description = desc;
    else if (profile.description) body.description = null;
    onSubmit(body);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Edit profile details">
      <Field id={`${id}-name`} label="Name" required error={error}>
        {(control) => (
          <Input {...control} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        )}
      </Field>
      <Field id={`${id}-description`} label="Description">
        {(control) => (
          <Textarea
            {...control}
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        )}
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <PendingButton pending={pending} pendingLabel="Saving…" type="submit" size="sm">
          Save details
        </PendingButton>
      </div>
    </form>
  );
}

// Entries

function selectorTypeLabel(selector: Selector): string {
  return SELECTOR_TYPE_LABELS[selector.type] ?? selector.type;
}

function EntriesSection({
  companyId,
  profile,
  canEdit,
}: {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const catalog = useCatalogEntries(companyId);
  const remove = useMutation({
    mutationFn: (entryId: string) =>
      api<{ deleted: true }>(
        toolsApiPath(
          companyId,
          `/profiles/${encodeURIComponent(profile.id)}/entries/${encodeURIComponent(entryId)}`,
        ),
        { method: "DELETE" },
      ),
    onSuccess: (_data, entryId) => {
      updateCachedProfile(client, companyId, profile.id, (p) => ({
        ...p,
        entries: p.entries.filter((e) => e.id !== entryId),
      }));
      return invalidateProfiles(client, companyId);
    },
  });

  const statusById = new Map((catalog.data?.entries ?? []).map((e) => [e.id, e.status]));

  return (
    <Card>
      <CardHeader
        title="Entries"
        titleAs="h3"
        description="What this profile includes or excludes. Tools are denied unless an entry includes them."
      />
      <CardBody className="space-y-4">
        <ApiErrorAlert error={remove.error} title="Could not remove the entry" />
        {profile.entries.length === 0 ? (
          <p className="text-sm text-zinc-600" data-testid="profile-entries-empty">
            No entries yet. An empty profile grants no tools.
          </p>
        ) : (
          <Table data-testid="profile-entries">
            <THead>
              <TR>
                <TH>Mode</TH>
                <TH>Selects</TH>
                <TH>By</TH>
                {canEdit ? <ActionsHeader /> : null}
              </TR>
            </THead>
            <TBody>
              {profile.entries.map((entry) => {
                const status =
                  entry.selector.type === "catalog_entry"
                    ? statusById.get(entry.selector.catalogEntryId)
                    : undefined;
                const removing = remove.isPending && remove.variables === entry.id;
                return (
                  <TR
                    key={entry.id}
                    data-testid="profile-entry-row"
                    data-entry-id={entry.id}
                    data-mode={entry.mode}
                  >
                    <TD>
                      <EntryModeBadge mode={entry.mode} />
                    </TD>
                    <TD className="text-zinc-900">
                      <span className="flex flex-wrap items-center gap-2">
                        <span data-testid="profile-entry-label">{entry.label}</span>
                        {status ? <QuarantineBadge status={status} /> : null}
                      </span>
                    </TD>
                    <TD className="text-zinc-500">{selectorTypeLabel(entry.selector)}</TD>
                    {canEdit ? (
                      <TD className="text-right">
                        <PendingButton
                          pending={removing}
                          pendingLabel="Removing…"
                          variant="ghost"
                          size="sm"
                          onClick={() => remove.mutate(entry.id)}
                          aria-label={`Remove entry: ${entry.label}`}
                          data-testid="profile-entry-remove"
                        >
                          Remove
                        </PendingButton>
                      </TD>
                    ) : null}
                  </TR>
                );
              })}
            </TBody>
          </Table>
        )}
        {canEdit ? <EntryAddForm companyId={companyId} profile={profile} catalog={catalog} /> : null}
      </CardBody>
    </Card>
  );
}

export function EntryModeBadge({ mode }: { mode: EntryMode }) {
  return (
    <Badge
      tone={mode === "include" ? "success" : "danger"}
      data-testid="profile-entry-mode-badge"
      data-mode={mode}
    >
      {ENTRY_MODE_LABELS[mode] ?? mode}
    </Badge>
  );
}

interface PickerOption {
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

function EntryAddForm({
  companyId,
  profile,
  catalog,
}: {
  companyId: string;
  profile: Profile;
  catalog: ReturnType<typeof useCatalogEntries>;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const id = useId();
  const [mode, setMode] = useState<EntryMode>("include");
  const [type, setType] = useState<SelectorType>("tool_glob");
  const [glob, setGlob] = useState("");
  const [risk, setRisk] = useState<Risk>("read");
  const [picked, setPicked] = useState("");
  const [error, setError] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: (body: ProfileEntryInput) =>
      api<ProfileEntry>(toolsApiPath(companyId, `/profiles/${encodeURIComponent(profile.id)}/entries`), {
        method: "POST",
        body,
      }),
    onSuccess: (entry) => {
      updateCachedProfile(client, companyId, profile.id, (p) => ({
        ...p,
        entries: p.entries.some((e) => e.id === entry.id) ? p.entries : [...p.entries, entry],
      }));
      setGlob("");
      setPicked("");
      return invalidateProfiles(client, companyId);
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
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-4"
      aria-labelledby={`${id}-title`}
      data-testid="profile-entry-form"
    >
      <h4 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
        Add an entry
      </h4>
      <div className="grid gap-3 sm:grid-cols-[8rem_12rem_minmax(0,1fr)]">
        <Field id={`${id}-mode`} label="Mode">
          {(control) => (
            <Select
              {...control}
              value={mode}
              onChange={(e) => setMode(e.target.value as EntryMode)}
              data-testid="profile-entry-mode"
            >
              <option value="include">Include</option>
              <option value="exclude">Exclude</option>
            </Select>
          )}
        </Field>
        <Field id={`${id}-type`} label="Select by">
          {(control) => (
            <Select
              {...control}
              value={type}
              onChange={(e) => {
                setType(e.target.value as SelectorType);
                setPicked("");
                setError(null);
              }}
              data-testid="profile-entry-type"
            >
              {SELECTOR_TYPES.map((t) => (
                <option key={t} value={t} disabled={!available[t]}>
                  {SELECTOR_TYPE_LABELS[t]}
                  {available[t] ? "" : " (none yet)"}
                </option>
              ))}
            </Select>
          )}
        </Field>
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
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
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
      <div className="flex justify-end">
        <PendingButton
          pending={add.isPending}
          pendingLabel="Adding…"
          type="submit"
          size="sm"
          data-testid="profile-entry-add"
        >
          Add entry
        </PendingButton>
      </div>
    </form>
  );
}

// Bindings

function BindingsSection({
  companyId,
  profile,
  canEdit,
}: {
  companyId: string;
  profile: Profile;
  canEdit: boolean;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (bindingId: string) =>
      api<{ deleted: true }>(
        toolsApiPath(
          companyId,
          `/profiles/${encodeURIComponent(profile.id)}/bindings/${encodeURIComponent(bindingId)}`,
        ),
        { method: "DELETE" },
      ),
    onSuccess: (_data, bindingId) => {
      updateCachedProfile(client, companyId, profile.id, (p) => ({
        ...p,
        bindings: p.bindings.filter((b) => b.id !== bindingId),
      }));
      return invalidateProfiles(client, companyId);
    },
  });

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
            <THead>
              <TR>
                <TH>Level</TH>
                <TH>Applies to</TH>
                {canEdit ? <ActionsHeader /> : null}
              </TR>
            </THead>
            <TBody>
              {profile.bindings.map((binding) => {
                const removing = remove.isPending && remove.variables === binding.id;
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
                      <TD className="text-right">
                        <PendingButton
                          pending={removing}
                          pendingLabel="Removing…"
                          variant="ghost"
                          size="sm"
                          onClick={() => remove.mutate(binding.id)}
                          aria-label={`Remove binding: ${binding.targetLabel}`}
                          data-testid="binding-remove"
                        >
                          Remove
                        </PendingButton>
                      </TD>
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
  const api = useToolsApi();
  const client = useQueryClient();
  const targets = useToolTargets(companyId);
  const id = useId();
  const [type, setType] = useState<BindingTargetType>("company");
  const [targetId, setTargetId] = useState("");
  const [error, setError] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: (body: ProfileBindingInput) =>
      api<ProfileBinding>(toolsApiPath(companyId, `/profiles/${encodeURIComponent(profile.id)}/bindings`), {
        method: "POST",
        body,
      }),
    onSuccess: (binding) => {
      updateCachedProfile(client, companyId, profile.id, (p) => ({
        ...p,
        bindings: p.bindings.some((b) => b.id === binding.id) ? p.bindings : [...p.bindings, binding],
      }));
      setTargetId("");
      return invalidateProfiles(client, companyId);
    },
  });

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
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-4"
      aria-labelledby={`${id}-title`}
      data-testid="binding-form"
    >
      <h4 id={`${id}-title`} className="text-sm font-semibold text-zinc-900">
        Add a binding
      </h4>
      <div className="grid gap-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <Field id={`${id}-type`} label="Level">
          {(control) => (
            <Select
              {...control}
              value={type}
              onChange={(e) => {
                setType(e.target.value as BindingTargetType);
                setTargetId("");
                setError(null);
              }}
              data-testid="binding-type"
            >
              {BINDING_TARGET_TYPES.map((t) => (
                <option key={t} value={t}>
                  {BINDING_TARGET_LABELS[t]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {type === "company" ? (
          <div className="space-y-1.5">
            <p className="text-sm font-medium text-zinc-800">Applies to</p>
            <p className="text-sm text-zinc-600">Every agent of the company. No target to choose.</p>
            {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
          </div>
        ) : (
          <Field id={`${id}-target`} label={BINDING_TARGET_LABELS[type]} error={error}>
            {(control) => (
              <Select
                {...control}
                value={targetId}
                onChange={(e) => setTargetId(e.target.value)}
                disabled={options.length === 0}
                data-testid="binding-target"
              >
                <option value="">
                  {targets.isPending
                    ? "Loading…"
                    : options.length === 0
                      ? `No ${TARGET_NOUN[type].plural} yet`
                      : `Choose ${TARGET_NOUN[type].a}…`}
                </option>
                {options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
      </div>
      <ApiErrorAlert error={targets.error} title="Could not load agents, projects, routines and issues" />
      <ApiErrorAlert error={add.error} title="Could not add the binding" />
      <div className="flex justify-end">
        <PendingButton
          pending={add.isPending}
          pendingLabel="Adding…"
          type="submit"
          size="sm"
          data-testid="binding-add"
        >
          Add binding
        </PendingButton>
      </div>
    </form>
  );
}
