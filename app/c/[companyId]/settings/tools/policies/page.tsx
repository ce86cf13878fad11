import type { Metadata } from "next";
import { PoliciesManager } from "@/components/tools-access/PoliciesManager";
import { TestCallPanel } from "@/components/tools-access/TestCallPanel";
import type { Policy } from "@/components/tools-access/types";
import { listAgents } from "@/server/core/agents";
import { listPolicies } from "@/server/tools/policies";
import { companyPage, idNames } from "../../../../../_lib/company-page";
import { toClient } from "../../../../../_lib/serialize";

export const metadata: Metadata = { title: "Policies · Tools & Access" };

export default companyPage(
  async ({ ctx, can, companyId }) => {
    const [policies, agents] = await Promise.all([listPolicies(ctx, companyId), listAgents(ctx, companyId)]);
    return (
      <div className="space-y-8">
        <PoliciesManager
          companyId={companyId}
          canEdit={can("tools:admin")}
          initialPolicies={toClient<Policy[]>(policies)}
        />
        {can("tools:manage_profiles") ? (
          <TestCallPanel companyId={companyId} agents={idNames(agents)} />
        ) : null}
      </div>
    );
  },
  { query: true },
);
