import type { Metadata } from "next";
import { RunList } from "@/components/runs/RunList";
import type { RunStatus } from "@/components/types";
import { PageHeader } from "@/components/ui/PageHeader";
import { listRuns } from "@/server/core/runs";
import { iso, requireCompanyPage } from "../../../_lib/session";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx } = await requireCompanyPage(companyId);
  const runs = await listRuns(ctx, companyId, { limit: 100 });
  return (
    <div className="space-y-6">
      <PageHeader title="Runs" description="Heartbeat runs of this company's agents, newest first." />
      <RunList
        companyId={companyId}
        now={new Date().toISOString()}
        runs={runs.map((r) => ({
          id: r.id,
          agentName: r.agentName,
          status: r.status as RunStatus,
          issueIdentifier: r.issueIdentifier,
          createdAt: iso(r.createdAt)!,
          startedAt: iso(r.startedAt),
          finishedAt: iso(r.finishedAt),
        }))}
      />
    </div>
  );
}
