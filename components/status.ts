import type { RunStatus } from "./types";
import type { BadgeTone } from "./ui/Badge";

const runTones: Record<RunStatus, BadgeTone> = {
  queued: "neutral",
  running: "info",
  succeeded: "success",
  failed: "danger",
  cancelled: "neutral",
};

export function runStatusTone(status: RunStatus | string): BadgeTone {
  return (runTones as Record<string, BadgeTone | undefined>)[status] ?? "neutral";
}

export function issueStatusTone(status: string): BadgeTone {
  switch (status) {
    case "done":
    case "completed":
      return "success";
    case "in_progress":
    case "in_review":
      return "info";
    case "blocked":
      return "warning";
    case "cancelled":
    case "canceled":
      return "neutral";
    default:
      return "neutral";
  }
}

export function agentStatusTone(status: string): BadgeTone {
  switch (status) {
    case "active":
    case "idle":
      return "success";
    case "running":
      return "info";
    case "paused":
    case "pending_approval":
      return "warning";
    case "error":
    case "terminated":
      return "danger";
    default:
      return "neutral";
  }
}

/** Tone for the `payload.status` of an action card. */
export function actionCardStatusTone(status: string): BadgeTone {
  switch (status) {
    case "approved":
    case "completed":
    case "done":
      return "success";
    case "pending":
    case "awaiting_approval":
    case "requested":
      return "warning";
    case "declined":
    case "rejected":
    case "failed":
    case "expired":
      return "danger";
    default:
      return "neutral";
  }
}
