import type { Metadata } from "next";
import Link from "next/link";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { AuditTimeline } from "@/components/tools-access/AuditTimeline";
import type { AuditEvent } from "@/components/tools-access/types";
import { UnknownOutcomes } from "@/components/tools-access/UnknownOutcomes";
import { Alert } from "@/components/ui/Alert";
import { roleHas } from "@/server/auth/capabilities";
import type { MembershipRole } from "@/server/contracts/values";
import { listAgents } from "@/server/core/agents";
import { InvocationsQuery, listAuditEvents, listInvocations } from "@/server/tools/audit-log";
import { iso, requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Audit · Tools & Access" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function AuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ companyId: string }>;
  searchParams: Promise<{ runId?: string; issueId?: string }>;
}) {
  const { companyId } = await params;
  const sp = await searchParams;
  const scope = {
    ...(sp.runId && UUID.test(sp.runId) ? { runId: sp.runId } : {}),
    ...(sp.issueId && UUID.test(sp.issueId) ? { issueId: sp.issueId } : {}),
  };
  const { ctx, company } = await requireCompanyPage(companyId);
  if (!roleHas(company.role as MembershipRole, "tools:view_audit")) {
    return (
      <Alert tone="warning" title="Audit is restricted" code="forbidden">
        Reading the tool audit trail needs the <code>tools:view_audit</code> capability (owners and admins).
      </Alert>
    );
  }
  const [page, agents, unknown] = await Promise.all([
    listAuditEvents(ctx, companyId, { limit: 50, ...scope }),
    listAgents(ctx, companyId),
    listInvocations(
      ctx,
      companyId,
      InvocationsQuery.parse({ status: "outcome_unknown", limit: 50, ...scope }),
    ),
  ]);
  return (
    <QueryProvider>
      {scope.runId || scope.issueId ? (
        <Alert
          tone="info"
          title={scope.runId ? "Showing one run's events" : "Showing one issue's events"}
          className="mb-4"
        >
          <Link
            href={`/c/${companyId}/settings/tools/audit`}
            className="underline"
            data-testid="audit-scope-clear"
          >
            Show all events
          </Link>
        </Alert>
      ) : null}
      <UnknownOutcomes
        companyId={companyId}
        canResolve={roleHas(company.role as MembershipRole, "tools:admin")}
        invocations={unknown.invocations.map((i) => ({
          id: i.id,
          toolName: i.toolName,
          runId: i.runId,
          createdAt: iso(i.createdAt)!,
          startedAt: iso(i.startedAt),
          attempts: i.attempts,
          leaseHost: i.leaseHost,
          leasePid: i.leasePid,
        }))}
      />
      <AuditTimeline
        companyId={companyId}
        initialEvents={JSON.parse(JSON.stringify(page.events)) as AuditEvent[]}
        initialCursor={page.nextCursor}
        agents={agents.map((a) => ({ id: a.id, name: a.name }))}
        scope={scope}
      />
    </QueryProvider>
  );
}
