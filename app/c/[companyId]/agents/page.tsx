import type { Metadata } from "next";
import { AgentList } from "@/components/agents/AgentList";
import { PageHeader } from "@/components/ui/PageHeader";
import { listAgents } from "@/server/core/agents";
import { iso, requireCompanyPage } from "../../../_lib/session";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx } = await requireCompanyPage(companyId);
  const agents = await listAgents(ctx, companyId);
  return (
    <div className="space-y-6">
      <PageHeader title="Agents" description="The AI agents that work for this company." />
      <AgentList
        companyId={companyId}
        now={new Date().toISOString()}
        agents={agents.map((a) => ({
          id: a.id,
          name: a.name,
          title: a.title,
          status: a.status,
          createdAt: iso(a.createdAt)!,
          lastRunAt: iso(a.lastRunAt),
        }))}
      />
    </div>
  );
}
