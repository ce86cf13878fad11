import type { Metadata } from "next";
import { AgentDetail } from "@/components/agents/AgentDetail";
import { EffectiveTools } from "@/components/agents/EffectiveTools";
import type { Risk } from "@/server/contracts/values";
import { getAgent } from "@/server/core/agents";
import { listRuns } from "@/server/core/runs";
import { getEffectiveTools } from "@/server/tools/effective";
import { companyPage } from "../../../../_lib/company-page";
import { inCompany, iso, runRow } from "../../../../_lib/session";
import { AgentConfigSection } from "./config-section";

export const metadata: Metadata = { title: "Agent" };

export default companyPage<{ agentId: string }>(async ({ ctx, companyId, params: { agentId }, ...page }) => {
  const agent = await inCompany(companyId, getAgent(ctx, agentId));
  const [runs, effective] = await Promise.all([
    listRuns(ctx, companyId, { agentId, limit: 20 }),
    getEffectiveTools(ctx, companyId, agentId, {}),
  ]);
  return (
    <AgentDetail
      companyId={companyId}
      now={new Date().toISOString()}
      agent={{
        id: agent.id,
        name: agent.name,
        title: agent.title,
        status: agent.status,
        createdAt: iso(agent.createdAt)!,
        lastRunAt: iso(runs[0]?.createdAt),
      }}
      effectiveTools={
        <EffectiveTools
          profiles={effective.profiles}
          tools={effective.tools.map((t) => ({
            ...t,
            applicationName: t.applicationName ?? "",
            connectionName: t.connectionName ?? "",
            risk: t.risk as Risk,
          }))}
          hiddenCount={effective.hiddenCount}
          hidden={effective.hidden}
          resourceCount={effective.resourceCount}
          promptCount={effective.promptCount}
        />
      }
      runs={runs.map(runRow)}
      config={<AgentConfigSection ctx={ctx} companyId={companyId} agentId={agentId} page={page} />}
    />
  );
});
