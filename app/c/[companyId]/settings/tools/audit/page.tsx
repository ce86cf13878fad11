import type { Metadata } from "next";
import Link from "next/link";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { AuditTimeline } from "@/components/tools-access/AuditTimeline";
import type { AuditEvent } from "@/components/tools-access/types";
import { UnknownOutcomes } from "@/components/tools-access/UnknownOutcomes";
import { Alert } from "@/components/ui/Alert";
import { listAgents } from "@/server/core/agents";
import { InvocationsQuery, listAuditEvents, listInvocations } from "@/server/tools/audit-log";
import { companyPage, idNames, uuidParam } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";
import { iso } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Audit · Tools & Access" };

export default companyPage(async ({ ctx, can, companyId, search }) => {
  const runId = uuidParam(search, "runId");
  const issueId = uuidParam(search, "issueId");
  const scope = { ...(runId ? { runId } : {}), ...(issueId ? { issueId } : {}) };
  if (!can("tools:view_audit")) {
    return (
      <Alert tone="warning" title="Audit is restricted" code="forbidden">
        Reading the tool audit trail needs the <code>tools:view_audit</code> capability (owners and admins).
      </Alert>
    );
  }
  const [page, agents, unknown] = await Promise.all([
    listAuditEvents(ctx, companyId, { limit: 50, ...scope }),
    listAgents(ctx, companyId),
    listInvocations(ctx, companyId, InvocationsQuery.parse({ outcome: "unknown", limit: 50, ...scope })),
  ]);
  return (
    <QueryProvider>
      {runId || issueId ? (
        <Alert
          tone="info"
          title={runId ? "Showing one run's events" : "Showing one issue's events"}
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
        canResolve={can("tools:admin")}
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
        initialEvents={toClient<AuditEvent[]>(page.events)}
        initialCursor={page.nextCursor}
        agents={idNames(agents)}
        scope={scope}
      />
    </QueryProvider>
  );
});
