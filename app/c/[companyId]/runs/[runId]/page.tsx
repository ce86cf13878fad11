import type { Metadata } from "next";
import { humanize } from "@/components/format";
import { RunDetail } from "@/components/runs/RunDetail";
import type { RunStatus } from "@/components/types";
import { getRun } from "@/server/core/runs";
import { getRunTranscript, transcriptEntry } from "@/server/core/transcript";
import { companyPage } from "../../../../_lib/company-page";
import { inCompany, iso } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Run" };

export default companyPage<{ runId: string }>(async ({ ctx, companyId, params: { runId } }) => {
  const run = await inCompany(companyId, getRun(ctx, runId));
  const calls = await getRunTranscript(ctx, companyId, runId);
  const auditHref = `/c/${companyId}/settings/tools/audit?runId=${runId}`;
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
      events={calls.map((c) => {
        const entry = transcriptEntry(c);
        return {
          id: c.id,
          at: iso(c.createdAt)!,
          kind: entry.label,
          tone: entry.tone,
          summary: [
            c.toolName,
            c.decision === "deny" && c.reasonCode ? humanize(c.reasonCode) : null,
            c.errorCode ? `(${c.errorCode})` : null,
            c.latencyMs != null ? `${c.latencyMs} ms` : null,
            c.attempts > 1 ? `${c.attempts} attempts` : null,
          ]
            .filter(Boolean)
            .join(" · "),
          title: entry.code,
          href: auditHref,
        };
      })}
    />
  );
});
