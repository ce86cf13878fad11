import type { Metadata } from "next";
import { RunList } from "@/components/runs/RunList";
import type { RunStatus } from "@/components/types";
import { listRuns } from "@/server/core/runs";
import { companyPage } from "../../../_lib/company-page";
import { iso } from "../../../_lib/session";

export const metadata: Metadata = { title: "Runs" };

export default companyPage(
  async ({ ctx, companyId }) => (
    <RunList
      companyId={companyId}
      now={new Date().toISOString()}
      runs={(await listRuns(ctx, companyId, { limit: 100 })).map((r) => ({
        id: r.id,
        agentName: r.agentName,
        status: r.status as RunStatus,
        issueIdentifier: r.issueIdentifier,
        createdAt: iso(r.createdAt)!,
        startedAt: iso(r.startedAt),
        finishedAt: iso(r.finishedAt),
      }))}
    />
  ),
  { header: { title: "Runs", description: "Heartbeat runs of this company's agents, newest first." } },
);
