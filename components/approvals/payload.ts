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
