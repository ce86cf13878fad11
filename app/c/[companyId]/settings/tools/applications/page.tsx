import type { Metadata } from "next";
import { ApplicationsManager } from "@/components/tools-access/ApplicationsManager";
import type { Application } from "@/components/tools-access/types";
import { listApplications } from "@/server/tools/applications";
import { companyPage } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";

export const metadata: Metadata = { title: "Applications · Tools & Access" };

export default companyPage(
  async ({ ctx, can, companyId }) => (
    <ApplicationsManager
      companyId={companyId}
      canEdit={can("tools:manage_connections")}
      initialApplications={toClient<Application[]>(await listApplications(ctx, companyId))}
    />
  ),
  { query: true },
);
