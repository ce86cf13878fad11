import type { Metadata } from "next";
import { RunList } from "@/components/runs/RunList";
import { listRuns } from "@/server/core/runs";
import { companyPage } from "../../../_lib/company-page";
import { runRow } from "../../../_lib/session";

export const metadata: Metadata = { title: "Runs" };

export default companyPage(
  async ({ ctx, companyId }) => (
    <RunList
      companyId={companyId}
      now={new Date().toISOString()}
      runs={(await listRuns(ctx, companyId, { limit: 100 })).map((r) => ({
        ...runRow(r),
        agentName: r.agentName,
      }))}
    />
  ),
  { header: { title: "Runs", description: "Heartbeat runs of this company's agents, newest first." } },
);
