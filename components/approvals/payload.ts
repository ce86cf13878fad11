import type { ActionCardPayload } from "./types";

function str(payload: Record<string, unknown> | null, key: string): string | null {
  const value = payload?.[key];
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * Reads an `action_card` comment's payload defensively: cards written before a field existed (or
 * by other producers) simply lack it.
 */
export function parseActionCardPayload(payload: Record<string, unknown> | null): ActionCardPayload {
  return {
    actionRequestId: str(payload, "actionRequestId"),
    title: str(payload, "title"),
    status: str(payload, "status"),
    tool: str(payload, "tool"),
    risk: str(payload, "risk"),
    arguments: payload && "arguments" in payload ? payload.arguments : undefined,
    reason: str(payload, "reason"),
    expiresAt: str(payload, "expiresAt"),
    supersededBy: str(payload, "supersededBy"),
    executedAt: str(payload, "executedAt"),
    decidedAt: str(payload, "decidedAt"),
    decidedByName: str(payload, "decidedByName"),
    error: str(payload, "error"),
    note: str(payload, "note"),
  };
}

/** A pending request past its expiry counts as expired (the server reports it so too). */
export function effectiveActionStatus(status: string, expiresAt: string | null, nowMs: number): string {
  if (status !== "pending" || !expiresAt) return status;
  const expires = Date.parse(expiresAt);
  return Number.isFinite(expires) && expires <= nowMs ? "expired" : status;
}

/**
 * The card's title for its current state: a question only while a person can still answer it
 * (issue 21, item 7: "Approve X?" stayed after the call ran or was declined).
 */
export function actionCardTitle(status: string | null, tool: string | null, stored: string | null): string {
  const name = tool ?? "the call";
  switch (status) {
    case "pending":
      return `Approve ${name}?`;
    case "approved":
      return `Approved — ${name} can run`;
    case "executing":
      return `Approved — running ${name}`;
    case "executed":
      return `Approved — ran ${name}`;
    case "failed":
      return `Failed — ${name} ran with an error`;
    case "declined":
      return `Declined ${name}`;
    case "expired":
      return `Expired — ${name} was not run`;
    case "superseded":
      return `Replaced — ${name}`;
    default:
      return stored ?? (tool ? `Approve ${tool}?` : "Action");
  }
}
