"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { invalidateProfiles, updateCachedProfile, updateCachedProfiles } from "./profile-cache";
import { type ToolsApi, useToolsApi } from "./ToolsApiProvider";
import type {
  CatalogEntriesResponse,
  Profile,
  ProfileBinding,
  ProfileBindingInput,
  ProfileEntry,
  ProfileEntryInput,
  ProfileUpdateInput,
  ToolTargets,
} from "./types";

/**
 * Queries and mutations of the profile editor, so its sections stay views: each mutation updates
 * the cached profile list at once, then invalidates it for the server's truth.
 */

const PICKER_STALE_MS = 60_000;

/** Agents, projects, routines and issues to pick from (`GET /targets`). */
export function toolTargetsQuery(api: ToolsApi, companyId: string) {
  return queryOptions({
    queryKey: toolsAccessKeys.targets(companyId),
    queryFn: ({ signal }) => api<ToolTargets>(toolsApiPath(companyId, "/targets"), { signal }),
    staleTime: PICKER_STALE_MS,
  });
}

/** Applications, connections and catalog entries to pick from (`GET /catalog-entries`). */
export function catalogEntriesQuery(api: ToolsApi, companyId: string) {
  return queryOptions({
    queryKey: toolsAccessKeys.catalogEntries(companyId),
    queryFn: ({ signal }) =>
      api<CatalogEntriesResponse>(toolsApiPath(companyId, "/catalog-entries"), { signal }),
    staleTime: PICKER_STALE_MS,
  });
}

function profilePath(companyId: string, profileId: string, sub = ""): string {
  return toolsApiPath(companyId, `/profiles/${encodeURIComponent(profileId)}${sub}`);
}

/** Update (details, archive, restore) and delete one profile; the callbacks run before the refetch. */
export function useProfileActions(
  companyId: string,
  profileId: string,
  on: { updated?: () => void; deleted?: () => void } = {},
) {
  const api = useToolsApi();
  const client = useQueryClient();
  const path = profilePath(companyId, profileId);
  const update = useMutation({
    mutationFn: (body: ProfileUpdateInput) => api<Profile>(path, { method: "PATCH", body }),
    onSuccess: (updated) => {
      updateCachedProfile(client, companyId, profileId, (old) => ({ ...old, ...updated }));
      on.updated?.();
      return invalidateProfiles(client, companyId);
    },
  });
  const remove = useMutation({
    mutationFn: () => api<{ deleted: true }>(path, { method: "DELETE" }),
    onSuccess: () => {
      updateCachedProfiles(client, companyId, (list) => list.filter((p) => p.id !== profileId));
      on.deleted?.();
      return invalidateProfiles(client, companyId);
    },
  });
  return { update, remove };
}

/** Add and remove entries of one profile. */
export function useProfileEntryActions(
  companyId: string,
  profileId: string,
  on: { added?: () => void } = {},
) {
  const api = useToolsApi();
  const client = useQueryClient();
  const add = useMutation({
    mutationFn: (body: ProfileEntryInput) =>
      api<ProfileEntry>(profilePath(companyId, profileId, "/entries"), { method: "POST", body }),
    onSuccess: (entry) => {
      updateCachedProfile(client, companyId, profileId, (p) => ({
        ...p,
        entries: p.entries.some((e) => e.id === entry.id) ? p.entries : [...p.entries, entry],
      }));
      on.added?.();
      return invalidateProfiles(client, companyId);
    },
  });
  const remove = useMutation({
    mutationFn: (entryId: string) =>
      api<{ deleted: true }>(profilePath(companyId, profileId, `/entries/${encodeURIComponent(entryId)}`), {
        method: "DELETE",
      }),
    onSuccess: (_data, entryId) => {
      updateCachedProfile(client, companyId, profileId, (p) => ({
        ...p,
        entries: p.entries.filter((e) => e.id !== entryId),
      }));
      return invalidateProfiles(client, companyId);
    },
  });
  return { add, remove };
}

/** Add and remove bindings of one profile. */
export function useProfileBindingActions(
  companyId: string,
  profileId: string,
  on: { added?: () => void } = {},
) {
  const api = useToolsApi();
  const client = useQueryClient();
  const add = useMutation({
    mutationFn: (body: ProfileBindingInput) =>
      api<ProfileBinding>(profilePath(companyId, profileId, "/bindings"), { method: "POST", body }),
    onSuccess: (binding) => {
      updateCachedProfile(client, companyId, profileId, (p) => ({
        ...p,
        bindings: p.bindings.some((b) => b.id === binding.id) ? p.bindings : [...p.bindings, binding],
      }));
      on.added?.();
      return invalidateProfiles(client, companyId);
    },
  });
  const remove = useMutation({
    mutationFn: (bindingId: string) =>
      api<{ deleted: true }>(
        profilePath(companyId, profileId, `/bindings/${encodeURIComponent(bindingId)}`),
        { method: "DELETE" },
      ),
    onSuccess: (_data, bindingId) => {
      updateCachedProfile(client, companyId, profileId, (p) => ({
        ...p,
        bindings: p.bindings.filter((b) => b.id !== bindingId),
      }));
      return invalidateProfiles(client, companyId);
    },
  });
  return { add, remove };
}
