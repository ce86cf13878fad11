"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { toolsAccessKeys, toolsApiPath } from "./api";
import { invalidateProfiles, updateCachedProfile, updateCachedProfiles } from "./profile-cache";
import { type ToolsApi, useToolsApi } from "./ToolsApiProvider";
import type {
  CatalogEntriesResponse,
  Profile,
  ProfileBindingInput,
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

type RowKind = "entries" | "bindings";
type RowOf<K extends RowKind> = Profile[K][number];

/** Add and remove the rows (entries or bindings) of one profile. */
function useProfileRowActions<K extends RowKind, TInput>(
  companyId: string,
  profileId: string,
  kind: K,
  on: { added?: () => void },
) {
  const api = useToolsApi();
  const client = useQueryClient();
  const add = useMutation({
    mutationFn: (body: TInput) =>
      api<RowOf<K>>(profilePath(companyId, profileId, `/${kind}`), { method: "POST", body }),
    onSuccess: (row) => {
      updateCachedProfile(client, companyId, profileId, (p) => {
        const rows: RowOf<K>[] = p[kind];
        return { ...p, [kind]: rows.some((r) => r.id === row.id) ? rows : [...rows, row] };
      });
      on.added?.();
      return invalidateProfiles(client, companyId);
    },
  });
  const remove = useMutation({
    mutationFn: (rowId: string) =>
      api<{ deleted: true }>(profilePath(companyId, profileId, `/${kind}/${encodeURIComponent(rowId)}`), {
        method: "DELETE",
      }),
    onSuccess: (_data, rowId) => {
      updateCachedProfile(client, companyId, profileId, (p) => {
        const rows: RowOf<K>[] = p[kind];
        return { ...p, [kind]: rows.filter((r) => r.id !== rowId) };
      });
      return invalidateProfiles(client, companyId);
    },
  });
  return { add, remove };
}

/** Add and remove entries of one profile. */
export function useProfileEntryActions(
  companyId: string,
  profileId: string,
  on: { added?: () => void } = {},
) {
  return useProfileRowActions<"entries", ProfileEntryInput>(companyId, profileId, "entries", on);
}

/** Add and remove bindings of one profile. */
export function useProfileBindingActions(
  companyId: string,
  profileId: string,
  on: { added?: () => void } = {},
) {
  return useProfileRowActions<"bindings", ProfileBindingInput>(companyId, profileId, "bindings", on);
}
