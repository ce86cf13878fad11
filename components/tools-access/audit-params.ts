"use client";

import { parseAsString, parseAsStringLiteral, useQueryStates } from "nuqs";
import { DECISIONS, EXECUTION_STATUSES, TOOL_EVENT_TYPES } from "@/server/contracts/values";

export const AUDIT_TABS = ["calls", "other", "admin"] as const;
export type AuditTab = (typeof AUDIT_TABS)[number];

/**
 * The audit page's state in the URL, so any view can be shared: `?tab=admin`,
 * `?decision=deny&from=2026-12-01T00:00:00.000Z`. Names are the API's where they agree; `agent`
 * and `event` are short for `agentId` and `eventType`.
 */
export const auditParsers = {
  tab: parseAsStringLiteral(AUDIT_TABS).withDefault("calls"),
  from: parseAsString,
  to: parseAsString,
  agent: parseAsString,
  tool: parseAsString,
  decision: parseAsStringLiteral(DECISIONS),
  outcome: parseAsStringLiteral(EXECUTION_STATUSES),
  event: parseAsStringLiteral(TOOL_EVENT_TYPES),
  /** Admin changes: `all` keeps the issue and run work trail. */
  scope: parseAsStringLiteral(["admin", "all"] as const).withDefault("admin"),
};

export function useAuditParams() {
  return useQueryStates(auditParsers, { history: "replace" });
}

export type AuditParams = ReturnType<typeof useAuditParams>[0];
