import type { QueryClient } from "@tanstack/react-query";
import { toolsAccessKeys } from "./api";
import type { Profile } from "./types";

/** Applies a change to the cached profile list right away; callers then invalidate for the server's truth. */
export function updateCachedProfiles(
  client: QueryClient,
  companyId: string,
  update: (profiles: Profile[]) => Profile[],
): void {
  client.setQueryData<Profile[]>(toolsAccessKeys.profiles(companyId), (old) => (old ? update(old) : old));
}

export function updateCachedProfile(
  client: QueryClient,
  companyId: string,
  profileId: string,
  update: (profile: Profile) => Profile,
): void {
  updateCachedProfiles(client, companyId, (profiles) =>
    profiles.map((profile) => (profile.id === profileId ? update(profile) : profile)),
  );
}

export function invalidateProfiles(client: QueryClient, companyId: string): Promise<void> {
  return client.invalidateQueries({ queryKey: toolsAccessKeys.profiles(companyId) });
}
