import type { Metadata } from "next";
import Link from "next/link";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { AuditView } from "@/components/tools-access/AuditView";
import { type AuditFilterParams, callsQuery, callsQueryKey } from "@/components/tools-access/audit-query";
import type { AdminChangesPage, AuditCallsPage } from "@/components/tools-access/types";
import { UnknownOutcomes } from "@/components/tools-access/UnknownOutcomes";
import { Alert } from "@/components/ui/Alert";
import { listAgents } from "@/server/core/agents";
import { AdminChangesQuery, listAdminChanges } from "@/server/tools/audit-admin";
import { AuditCallsQuery, listAuditCalls } from "@/server/tools/audit-calls";
import { InvocationsQuery, listInvocations } from "@/server/tools/audit-log";
import { companyPage, idNames, stringParam, uuidParam } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";
import { iso } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Audit · Tools & Access" };

const CALLS_PAGE = 25;

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
  // The first page for the URL's own filters (`?decision=deny` renders filtered); a filter the
  // API refuses renders no first page, and the client shows the API's 400 message.
  const filters: AuditFilterParams = {
    from: stringParam(search, "from") ?? null,
    to: stringParam(search, "to") ?? null,
    agent: stringParam(search, "agent") ?? null,
    tool: stringParam(search, "tool") ?? null,
    decision: stringParam(search, "decision") ?? null,
    outcome: stringParam(search, "outcome") ?? null,
    event: stringParam(search, "event") ?? null,
  };
  const query = callsQuery(filters, "calls", scope);
  const parsed = AuditCallsQuery.safeParse({ ...query, limit: CALLS_PAGE });
  const [calls, admin, agents, unknown] = await Promise.all([
    parsed.success ? listAuditCalls(ctx, companyId, parsed.data) : null,
    listAdminChanges(ctx, companyId, AdminChangesQuery.parse({})),
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
      <AuditView
        companyId={companyId}
        agents={idNames(agents)}
        initialCalls={
          calls ? { key: callsQueryKey(query), page: toClient<AuditCallsPage>(calls) } : undefined
        }
        initialAdmin={toClient<AdminChangesPage>(admin)}
        scope={scope}
        pageSize={CALLS_PAGE}
      />
    </QueryProvider>
  );
});
