import type { Metadata } from "next";
import { ApprovalsInbox } from "@/components/approvals/ApprovalsInbox";
import { FormalApprovals } from "@/components/approvals/FormalApprovals";
import { TrustRulesTable } from "@/components/approvals/TrustRulesTable";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { listFormalApprovals } from "@/server/approvals/formal";
import { listActionRequests } from "@/server/approvals/review";
import { listTrustRules } from "@/server/approvals/trust-rules";
import { toClient } from "../../../../../_lib/serialize";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Approvals · Tools & Access" };

export default async function ApprovalsPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx, can } = await requireCompanyPage(companyId);
  const [requests, rules, approvals] = await Promise.all([
    listActionRequests(ctx, companyId, { limit: 200 }),
    listTrustRules(ctx, companyId),
    listFormalApprovals(ctx, companyId, { limit: 100 }),
  ]);
  return (
    <QueryProvider>
      <div className="space-y-8">
        <ApprovalsInbox
          companyId={companyId}
          canReview={can("tools:approve")}
          canTrust={can("tools:admin")}
          initialRequests={toClient(requests)}
        />
        <FormalApprovals
          companyId={companyId}
          canDecide={can("tools:admin")}
          initialApprovals={toClient(approvals)}
        />
        <TrustRulesTable companyId={companyId} canEdit={can("tools:admin")} initialRules={toClient(rules)} />
      </div>
    </QueryProvider>
  );
}
