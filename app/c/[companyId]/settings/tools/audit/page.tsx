import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { AuditTimeline } from "@/components/tools-access/AuditTimeline";
import type { AuditEvent } from "@/components/tools-access/types";
import { Alert } from "@/components/ui/Alert";
import type { MembershipRole } from "@/db/schema/values";
import { roleHas } from "@/server/auth/capabilities";
import { listAgents } from "@/server/core/agents";
import { listAuditEvents } from "@/server/tools/audit-log";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Audit · Tools & Access" };

export default async function AuditPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx, company } = await requireCompanyPage(companyId);
  if (!roleHas(company.role as MembershipRole, "tools:view_audit")) {
    return (
      <Alert tone="warning" title="Audit is restricted" code="forbidden">
        Reading the tool audit trail needs the <code>tools:view_audit</code> capability (owners and admins).
      </Alert>
    );
  }
  const [page, agents] = await Promise.all([
    listAuditEvents(ctx, companyId, { limit: 50 }),
    listAgents(ctx, companyId),
  ]);
  return (
    <QueryProvider>
      <AuditTimeline
        companyId={companyId}
        initialEvents={JSON.parse(JSON.stringify(page.events)) as AuditEvent[]}
        initialCursor={page.nextCursor}
        agents={agents.map((a) => ({ id: a.id, name: a.name }))}
      />
    </QueryProvider>
  );
}
