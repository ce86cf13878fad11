import type { Metadata } from "next";
import { ProfilesManager } from "@/components/tools-access/ProfilesManager";
import type { Profile } from "@/components/tools-access/types";
import { listProfiles } from "@/server/tools/profiles";
import { companyPage, stringParam } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";

export const metadata: Metadata = { title: "Profiles · Tools & Access" };

export default companyPage(
  async ({ ctx, can, companyId, search }) => {
    const selected = stringParam(search, "profile");
    const profiles = await listProfiles(ctx, companyId);
    return (
      <ProfilesManager
        companyId={companyId}
        canEdit={can("tools:manage_profiles")}
        initialProfiles={toClient<Profile[]>(profiles)}
        initialSelectedId={profiles.some((p) => p.id === selected) ? selected : undefined}
      />
    );
  },
  { query: true },
);
