import { asc, eq, sql } from "drizzle-orm";
import { companyRow, inCompany } from "@/db/join";
import { heartbeatRuns, toolInvocations } from "@/db/schema";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";

/**
 * A run's tool calls, oldest first, as summarised decision/outcome state (members may read
 * it; the audit details behind each call stay behind `tools:view_audit`).
 */
export async function getRunTranscript(ctx: ServiceContext, companyId: string, runId: string) {
  await requireCompany(ctx, companyId, "company:read", "run");
  const [run] = await ctx.db
    .select({ id: heartbeatRuns.id })
    .from(heartbeatRuns)
    .where(companyRow(heartbeatRuns, companyId, runId));
  if (!run) throw notFound("run");
  return ctx.db
    .select({
      id: toolInvocations.id,
      createdAt: toolInvocations.createdAt,
      toolName: toolInvocations.toolName,
      decision: toolInvocations.decision,
      reasonCode: toolInvocations.reasonCode,
      executionStatus: toolInvocations.executionStatus,
      errorCode: toolInvocations.errorCode,
      latencyMs: toolInvocations.latencyMs,
      resultSize: toolInvocations.resultSize,
      attempts: toolInvocations.attempts,
      approvalState: toolInvocations.approvalState,
      upstreamError: sql<boolean>`coalesce((${toolInvocations.resultSummary} ->> 'isError')::boolean, false)`,
    })
    .from(toolInvocations)
    .where(inCompany(toolInvocations, companyId, eq(toolInvocations.runId, runId)))
    .orderBy(asc(toolInvocations.createdAt))
    .limit(500);
}

export type TranscriptTone = "success" | "info" | "warning" | "danger";

/** What a person reads for one call of a run: a label, its tone, and the code behind it. */
export interface TranscriptEntry {
  label: string;
  tone: TranscriptTone;
  /** The stable code(s) the label stands for (shown on hover). */
  code: string;
}

const FAILED_LABELS: Record<string, string> = {
  failed: "Failed",
  timeout: "Timed out",
  outcome_unknown: "Outcome unknown (the server stopped mid-call)",
  denied: "Denied",
};

/**
 * The truthful state of a call (issue 21, item 1): what finally happened, not the first
 * decision. An approved call that then ran reads as approved and run; a call the upstream
 * answered with a tool error (`isError`) is not "succeeded".
 */
export function transcriptEntry(c: {
  decision: string | null;
  reasonCode: string | null;
  executionStatus: string;
  approvalState: string;
  upstreamError: boolean;
}): TranscriptEntry {
  const approved = c.approvalState === "approved" || c.approvalState === "consumed";
  const ran = c.decision === "allow" || (c.decision === "approval_required" && approved);
  const prefix = c.decision === "approval_required" && approved ? "Approved · " : "";
  if (ran) {
    const code = [c.decision, c.approvalState !== "none" ? c.approvalState : null, c.executionStatus]
      .filter(Boolean)
      .join(" · ");
    if (c.executionStatus === "succeeded")
      return c.upstreamError
        ? { label: `${prefix}the tool returned an error`, tone: "danger", code: `${code} · isError` }
        : { label: `${prefix}succeeded`, tone: "success", code };
    if (c.executionStatus === "running" || c.executionStatus === "pending")
      return { label: `${prefix}running`, tone: "info", code };
    return {
      label: `${prefix}${(FAILED_LABELS[c.executionStatus] ?? c.executionStatus).toLowerCase()}`,
      tone: "danger",
      code,
    };
  }
  const code = [c.decision ?? "pending", c.reasonCode].filter(Boolean).join(" · ");
  switch (c.decision) {
    case "deny":
      return { label: "Denied", tone: "danger", code };
    case "approval_required":
      if (c.approvalState === "declined") return { label: "Declined by a reviewer", tone: "danger", code };
      if (c.approvalState === "expired") return { label: "Approval expired", tone: "danger", code };
      return { label: "Waiting for approval", tone: "warning", code };
    case "rate_limited":
      return { label: "Rate limited", tone: "warning", code };
    case "deferred":
      return { label: "Deferred (no runtime capacity)", tone: "warning", code };
    default:
      return { label: "Pending", tone: "info", code };
  }
}
