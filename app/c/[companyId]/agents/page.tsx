import type { Metadata } from "next";
import { AgentList } from "@/components/agents/AgentList";
import { listAgents } from "@/server/core/agents";
import { companyPage } from "../../../_lib/company-page";
import { iso } from "../../../_lib/session";

export const metadata: Metadata = { title: "Agents" };

export default companyPage(
  async ({ ctx, companyId }) => (
    <AgentList
      companyId={companyId}
      now={new Date().toISOString()}
      agents={(await listAgents(ctx, companyId)).map((a) => ({
        id: a.id,
        name: a.name,
        title: a.title,
        status: a.status,
        createdAt: iso(a.createdAt)!,
        lastRunAt: iso(a.lastRunAt),
      }))}
    />
  ),
  { header: { title: "Agents", description: "The AI agents that work for this company." } },
);
