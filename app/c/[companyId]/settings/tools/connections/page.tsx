import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { ConnectionsManager } from "@/components/tools-access/ConnectionsManager";
import type { Connection } from "@/components/tools-access/types";
import { listApplications } from "@/server/tools/applications";
import { listConnections } from "@/server/tools/connections";
import { toClient } from "../../../../../_lib/serialize";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Connections · Tools & Access" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function ConnectionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ companyId: string }>;
  searchParams: Promise<{ applicationId?: string; connection?: string }>;
}) {
  const { companyId } = await params;
  const sp = await searchParams;
  const applicationId = sp.applicationId && UUID.test(sp.applicationId) ? sp.applicationId : undefined;
  const selectedId = sp.connection && UUID.test(sp.connection) ? sp.connection : undefined;
  const { ctx, can } = await requireCompanyPage(companyId);
  const [connections, applications] = await Promise.all([
    listConnections(ctx, companyId, { applicationId }),
    listApplications(ctx, companyId),
  ]);
  return (
    <QueryProvider>
      <ConnectionsManager
        companyId={companyId}
        canEdit={can("tools:manage_connections")}
        initialConnections={toClient<Connection[]>(connections)}
        applications={applications
          .filter((a) => a.status === "active")
          .map((a) => ({
            id: a.id,
            name: a.name,
            slug: a.slug,
            type: a.type as Connection["application"]["type"],
          }))}
        applicationId={applicationId}
        selectedId={selectedId}
        secretsHref={`/c/${companyId}/settings/tools/secrets`}
      />
    </QueryProvider>
  );
}
