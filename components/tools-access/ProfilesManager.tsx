"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { EmptyState } from "../ui/EmptyState";
import { useSelectionParam } from "../url-state";
import { ApiErrorAlert } from "./ApiErrorAlert";
import { toolsApiPath } from "./api";
import { CreateFormCard } from "./CreateFormCard";
import { useCompanyList } from "./hooks";
import { ListFrame } from "./ListFrame";
import { profilesList } from "./lists";
import { ProfileDetailsFields, useProfileDetails } from "./ProfileDetailsFields";
import { ProfileEditor } from "./ProfileEditor";
import { invalidateProfiles, updateCachedProfiles } from "./profile-cache";
import { ReadOnlyNote } from "./ReadOnlyNote";
import { useToolsApi } from "./ToolsApiProvider";
import type { Profile, ProfileCreateInput } from "./types";

export type { Profile } from "./types";

export interface ProfilesManagerProps {
  companyId: string;
  /** Without it the list and editor are read-only. */
  canEdit: boolean;
  /** Server-rendered `GET /profiles`; seeds the `toolsAccessKeys.profiles(companyId)` query. */
  initialProfiles: Profile[];
  /** Profile to open first (e.g. from `?profile=`). */
  initialSelectedId?: string | null;
  className?: string;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Tool profiles: list, create, and edit entries and bindings of the selected one. */
export function ProfilesManager({
  companyId,
  canEdit,
  initialProfiles,
  initialSelectedId = null,
  className,
}: ProfilesManagerProps) {
  const query = useCompanyList(profilesList, companyId, initialProfiles);
  const profiles = query.data;
  // The selection lives in `?profile=` (components/url-state.ts): shareable, kept on reload.
  const [selectedId, setSelectedId] = useSelectionParam("profile", initialSelectedId);
  const selected = profiles.find((p) => p.id === selectedId) ?? null;

  return (
    <ListFrame testId="profiles-manager" className={className} query={query} noun="profiles">
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div className="space-y-4">
          <Card>
            <CardHeader
              title="Profiles"
              description="Named sets of tools. Bind a profile to give agents its tools."
              refreshing={query.isFetching ? "Refreshing profiles" : undefined}
            />
            {profiles.length === 0 ? (
              <CardBody>
                <EmptyState
                  headingAs="h3"
                  className="py-8"
                  title="No profiles yet"
                  description="Without a profile, agents see no tools: everything is denied by default."
                  data-testid="profiles-empty"
                />
              </CardBody>
            ) : (
              <ul className="divide-y divide-zinc-100" aria-label="Profiles" data-testid="profile-list">
                {profiles.map((profile) => {
                  const active = profile.id === selected?.id;
                  return (
                    <li key={profile.id}>
                      <button
                        type="button"
                        onClick={() => setSelectedId(profile.id)}
                        aria-current={active ? "true" : undefined}
                        data-testid="profile-row"
                        data-profile-id={profile.id}
                        data-status={profile.status}
                        className={cn(
                          "block w-full px-5 py-3 text-left transition-colors",
                          focusRing,
                          "focus-visible:-outline-offset-2",
                          active ? "bg-accent-50" : "hover:bg-zinc-50",
                        )}
                      >
                        <span className="flex items-center justify-between gap-2">
                          <span
                            className="line-clamp-2 min-w-0 font-medium break-words text-zinc-900"
                            title={profile.name}
                          >
                            {profile.name}
                          </span>
                          <Badge tone={profile.status === "active" ? "success" : "neutral"}>
                            {profile.status === "active" ? "Active" : "Archived"}
                          </Badge>
                        </span>
                        <span className="mt-0.5 block text-xs text-zinc-500">
                          {plural(profile.entries.length, "entry", "entries")} ·{" "}
                          {plural(profile.bindings.length, "binding", "bindings")}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </Card>
          {canEdit ? (
            <ProfileCreateForm companyId={companyId} onCreated={(profile) => setSelectedId(profile.id)} />
          ) : (
            <ReadOnlyNote data-testid="profiles-read-only">
              You can view profiles but not change them.
            </ReadOnlyNote>
          )}
        </div>
        <div>
          {selected ? (
            <ProfileEditor
              key={selected.id}
              companyId={companyId}
              profile={selected}
              canEdit={canEdit}
              onDeleted={() => setSelectedId(null)}
              onClose={() => setSelectedId(null)}
            />
          ) : profiles.length > 0 ? (
            <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center text-sm text-zinc-600">
              Select a profile to see and change its entries and bindings.
            </div>
          ) : null}
        </div>
      </div>
    </ListFrame>
  );
}

function ProfileCreateForm({
  companyId,
  onCreated,
}: {
  companyId: string;
  onCreated: (profile: Profile) => void;
}) {
  const api = useToolsApi();
  const client = useQueryClient();
  const details = useProfileDetails();

  const create = useMutation({
    mutationFn: (body: ProfileCreateInput) =>
      api<Profile>(toolsApiPath(companyId, "/profiles"), { method: "POST", body }),
    onSuccess: (profile) => {
      updateCachedProfiles(client, companyId, (list) =>
        list.some((p) => p.id === profile.id)
          ? list
          : [...list, { ...profile, entries: profile.entries ?? [], bindings: profile.bindings ?? [] }],
      );
      details.reset();
      onCreated(profile);
      return invalidateProfiles(client, companyId);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const read = details.read();
    if (!read) return;
    const body: ProfileCreateInput = { name: read.name };
    if (read.description) body.description = read.description;
    create.mutate(body);
  }

  return (
    <CreateFormCard
      title="New profile"
      label="Create a profile"
      onSubmit={submit}
      pending={create.isPending}
      submitLabel="Create profile"
      submitTestId="profile-create-submit"
    >
      <ProfileDetailsFields
        details={details}
        placeholder="e.g. Support tools"
        testIdPrefix="profile-create"
      />
      <ApiErrorAlert error={create.error} title="Could not create the profile" />
    </CreateFormCard>
  );
}
