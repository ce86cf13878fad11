import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { PoliciesManager } from "@/components/tools-access/PoliciesManager";
import { TestCallPanel } from "@/components/tools-access/TestCallPanel";
import type { Policy } from "@/components/tools-access/types";
import { listAgents } from "@/server/core/agents";
import { listPolicies } from "@/server/tools/policies";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Policies · Tools & Access" };

export default async function PoliciesPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx, can } = await requireCompanyPage(companyId);
  const [policies, agents] = await Promise.all([listPolicies(ctx, companyId), listAgents(ctx, companyId)]);
  return (
    <QueryProvider>
      <div className="space-y-8">
        <PoliciesManager
          companyId={companyId}
          canEdit={can("tools:admin")}
          initialPolicies={JSON.parse(JSON.stringify(policies)) as Policy[]}
        />
        {can("tools:manage_profiles") ? (
          <TestCallPanel companyId={companyId} agents={agents.map((a) => ({ id: a.id, name: a.name }))} />
        ) : null}
      </div>
    </QueryProvider>
  );
}
