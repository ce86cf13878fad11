import type { Metadata } from "next";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { ExamplesPanel } from "@/components/tools-access/ExamplesPanel";
import type { Example } from "@/components/tools-access/types";
import { listAgents } from "@/server/core/agents";
import { listExamples } from "@/server/examples/examples";
import { toClient } from "../../../../../_lib/serialize";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Examples · Tools & Access" };

export default async function ExamplesPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx, can } = await requireCompanyPage(companyId);
  const [examples, agents] = await Promise.all([listExamples(ctx, companyId), listAgents(ctx, companyId)]);
  return (
    <QueryProvider>
      <ExamplesPanel
        companyId={companyId}
        canInstall={can("tools:admin")}
        initialExamples={toClient<Example[]>(examples)}
        agents={agents.filter((a) => a.status === "active").map((a) => ({ id: a.id, name: a.name }))}
      />
    </QueryProvider>
  );
}
