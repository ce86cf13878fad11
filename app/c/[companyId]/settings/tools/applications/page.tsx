import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { ApplicationsManager } from "@/components/tools-access/ApplicationsManager";
import type { Application } from "@/components/tools-access/types";
import { roleHas } from "@/server/auth/capabilities";
import type { MembershipRole } from "@/server/contracts/values";
import { listApplications } from "@/server/tools/applications";
import { toClient } from "../../../../../_lib/serialize";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Applications · Tools & Access" };

export default async function ApplicationsPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx, company } = await requireCompanyPage(companyId);
  const applications = await listApplications(ctx, companyId);
  return (
    <QueryProvider>
      <ApplicationsManager
        companyId={companyId}
        canEdit={roleHas(company.role as MembershipRole, "tools:manage_connections")}
        initialApplications={toClient<Application[]>(applications)}
      />
    </QueryProvider>
  );
}
