import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { ProfilesManager } from "@/components/tools-access/ProfilesManager";
import type { Profile } from "@/components/tools-access/types";
import { listProfiles } from "@/server/tools/profiles";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Profiles · Tools & Access" };

export default async function ProfilesPage({
  params,
  searchParams,
}: {
  params: Promise<{ companyId: string }>;
  searchParams: Promise<{ profile?: string }>;
}) {
  const { companyId } = await params;
  const { profile: selected } = await searchParams;
  const { ctx, can } = await requireCompanyPage(companyId);
  const profiles = await listProfiles(ctx, companyId);
  return (
    <QueryProvider>
      <ProfilesManager
        companyId={companyId}
        canEdit={can("tools:manage_profiles")}
        initialProfiles={JSON.parse(JSON.stringify(profiles)) as Profile[]}
        initialSelectedId={profiles.some((p) => p.id === selected) ? selected : undefined}
      />
    </QueryProvider>
  );
}
