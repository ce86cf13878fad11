import type { RunStatus } from "../types";
import type { BadgeTone } from "../ui/Badge";

/** A status-to-tone lookup; statuses the map does not name are neutral. */
function toneMap(tones: Record<string, BadgeTone>): (status: string) => BadgeTone {
  return (status) => (Object.hasOwn(tones, status) ? (tones[status] as BadgeTone) : "neutral");
}

export const runStatusTone: (status: RunStatus | string) => BadgeTone = toneMap({
  queued: "neutral",
  running: "info",
  succeeded: "success",
  failed: "danger",
  cancelled: "neutral",
} satisfies Record<RunStatus, BadgeTone>);

export const issueStatusTone = toneMap({
  done: "success",
  completed: "success",
  in_progress: "info",
  in_review: "info",
  blocked: "warning",
});

export const agentStatusTone = toneMap({
  active: "success",
  idle: "success",
  running: "info",
  paused: "warning",
  pending_approval: "warning",
  error: "danger",
  terminated: "danger",
});

/** Tone for the `payload.status` of an action card. */
export const actionCardStatusTone = toneMap({
  approved: "success",
  completed: "success",
  done: "success",
  pending: "warning",
  awaiting_approval: "warning",
  requested: "warning",
  declined: "danger",
  rejected: "danger",
  failed: "danger",
  expired: "danger",
});
