import type { Metadata } from "next";
import { ApprovalsInbox } from "@/components/approvals/ApprovalsInbox";
import { FormalApprovals } from "@/components/approvals/FormalApprovals";
import { TrustRulesTable } from "@/components/approvals/TrustRulesTable";
import { listFormalApprovals } from "@/server/approvals/formal";
import { listActionRequests } from "@/server/approvals/review";
import { listTrustRules } from "@/server/approvals/trust-rules";
import { companyPage } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";

export const metadata: Metadata = { title: "Approvals · Tools & Access" };

export default companyPage(
  async ({ ctx, can, companyId }) => {
    const [requests, rules, approvals] = await Promise.all([
      listActionRequests(ctx, companyId, { limit: 200 }),
      listTrustRules(ctx, companyId),
      listFormalApprovals(ctx, companyId, { limit: 100 }),
    ]);
    return (
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
    );
  },
  { query: true },
);
