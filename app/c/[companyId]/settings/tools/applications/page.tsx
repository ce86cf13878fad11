import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { ApplicationsManager } from "@/components/tools-access/ApplicationsManager";
import type { Application } from "@/components/tools-access/types";
import { listApplications } from "@/server/tools/applications";
import { toClient } from "../../../../../_lib/serialize";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Applications · Tools & Access" };

export default async function ApplicationsPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx, can } = await requireCompanyPage(companyId);
  const applications = await listApplications(ctx, companyId);
  return (
    <QueryProvider>
      <ApplicationsManager
        companyId={companyId}
        canEdit={can("tools:manage_connections")}
        initialApplications={toClient<Application[]>(applications)}
      />
    </QueryProvider>
  );
}
