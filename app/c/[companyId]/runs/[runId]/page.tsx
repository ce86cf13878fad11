import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunDetail } from "@/components/runs/RunDetail";
import type { RunStatus } from "@/components/types";
import { getRun } from "@/server/core/runs";
import { iso, orNotFound, requireCompanyPage } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ companyId: string; runId: string }> }) {
  const { companyId, runId } = await params;
  const { ctx } = await requireCompanyPage(companyId);
  const run = await orNotFound(getRun(ctx, runId));
  if (run.companyId !== companyId) notFound();
  return (
    <RunDetail
      companyId={companyId}
      now={new Date().toISOString()}
      run={{
        id: run.id,
        agentId: run.agentId,
        agentName: run.agentName,
        status: run.status as RunStatus,
        issueId: run.issueId,
        issueIdentifier: run.issueIdentifier,
        error: run.error,
        createdAt: iso(run.createdAt)!,
        startedAt: iso(run.startedAt),
        finishedAt: iso(run.finishedAt),
      }}
      // Tool calls join the transcript once the gateway records them (the gateway issue).
      events={[]}
    />
  );
}
