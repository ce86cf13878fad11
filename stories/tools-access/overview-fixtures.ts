import type { CallSeriesData, ToolsOverviewData } from "@/components/tools-access/types-overview";
import { zeroOverviewCounts } from "./fixtures";

export const OVERVIEW_COMPANY_ID = "7b0d41c2-north";
/** The fixed "now" of the overview stories. */
export const OVERVIEW_NOW = "2026-06-10T12:30:00.000Z";

const HOUR = 3_600_000;

/** Zero-filled buckets ending with the one that holds OVERVIEW_NOW; `fill(i)` gives bucket i's counts. */
function series(
  range: "24h" | "7d",
  fill: (
    i: number,
  ) => Partial<
    Record<"allow" | "deny" | "approval_required" | "rate_limited" | "deferred", number>
  > = () => ({}),
): CallSeriesData {
  const step = range === "24h" ? HOUR : 24 * HOUR;
  const n = range === "24h" ? 24 : 7;
  const end = Math.floor(Date.parse(OVERVIEW_NOW) / step) * step + step;
  return {
    range,
    bucket: range === "24h" ? "hour" : "day",
    buckets: Array.from({ length: n }, (_, i) => ({
      start: new Date(end - (n - i) * step).toISOString(),
      allow: 0,
      deny: 0,
      approval_required: 0,
      rate_limited: 0,
      deferred: 0,
      ...fill(i),
    })),
  };
}

/** A company with nothing set up and nothing waiting. */
export const emptyOverview: ToolsOverviewData = {
  counts: zeroOverviewCounts,
  inbox: {
    pendingApprovals: { total: 0, oldest: [] },
    pendingAutonomyChanges: 0,
    toolsToReview: [],
    suppressedSlots: [],
    missingSecrets: [],
    needsAuthorization: [],
    unhealthyConnections: [],
    unknownOutcomes: 0,
  },
  calls24h: series("24h"),
  calls7d: series("7d"),
  topDenied: [],
};

/** A busy company: every kind of inbox entry, and calls in both ranges. */
export const busyOverview: ToolsOverviewData = {
  counts: {
    applications: 4,
    activeConnections: 3,
    denials24h: 17,
    highRiskCalls24h: 6,
    rateLimited24h: 3,
    runtimeSlots: 2,
  },
  inbox: {
    pendingApprovals: {
      total: 4,
      oldest: [
        {
          id: "ar-1",
          toolName: "mail__send",
          agentName: "Release writer",
          issueId: "i-1",
          issueIdentifier: "NOR-12",
          createdAt: "2026-06-10T09:02:00.000Z",
          expiresAt: "2026-06-11T09:02:00.000Z",
        },
        {
          id: "ar-2",
          toolName: "github__merge_pull_request",
          agentName: "Code reviewer",
          issueId: "i-2",
          issueIdentifier: "NOR-15",
          createdAt: "2026-06-10T10:40:00.000Z",
          expiresAt: "2026-06-11T10:40:00.000Z",
        },
        {
          id: "ar-3",
          toolName: "files__delete",
          agentName: null,
          issueId: null,
          issueIdentifier: null,
          createdAt: "2026-06-10T12:05:00.000Z",
          expiresAt: "2026-06-11T12:05:00.000Z",
        },
      ],
    },
    pendingAutonomyChanges: 1,
    toolsToReview: [
      { connectionId: "c-gh", connectionName: "GitHub (northwind-org)", quarantined: 3, changed: 1 },
      { connectionId: "c-lab", connectionName: "Runtime lab", quarantined: 1, changed: 0 },
    ],
    suppressedSlots: [
      {
        connectionId: "c-lab",
        connectionName: "Runtime lab",
        slotId: "s-1",
        lastError:
          "the local tool server crashed 3 times within 60 s and is suppressed until an administrator restarts it",
        since: "2026-06-10T11:50:00.000Z",
      },
    ],
    missingSecrets: [{ connectionId: "c-mail", connectionName: "ops@ mailbox" }],
    needsAuthorization: [],
    unhealthyConnections: [
      {
        connectionId: "c-int",
        connectionName: "Internal search",
        healthError: "the tool server at 10.0.0.7 did not answer within 10 s",
        checkedAt: "2026-06-10T12:20:00.000Z",
      },
    ],
    unknownOutcomes: 2,
  },
  calls24h: series("24h", (i) => ({
    allow: [3, 1, 0, 0, 0, 0, 2, 5, 9, 14, 12, 11, 8, 10, 13, 9, 7, 6, 4, 3, 5, 8, 11, 6][i],
    deny: i % 5 === 0 ? 2 : i % 3 === 0 ? 1 : 0,
    approval_required: i === 20 || i === 22 ? 1 : 0,
    rate_limited: i === 9 ? 3 : 0,
  })),
  calls7d: series("7d", (i) => ({
    allow: [120, 98, 40, 35, 140, 151, 132][i],
    deny: [12, 9, 3, 2, 15, 11, 17][i],
    approval_required: [2, 1, 0, 0, 3, 2, 4][i],
    rate_limited: [0, 0, 0, 0, 5, 1, 3][i],
    deferred: i === 4 ? 1 : 0,
  })),
  topDenied: [
    { toolName: "github__delete_repository", denials: 14, topReason: "policy_blocked" },
    { toolName: "files__write_outside_workspace", denials: 9, topReason: "tool_hidden" },
    { toolName: "shell__exec", denials: 6, topReason: "tool_not_found" },
    { toolName: "mail__send", denials: 3, topReason: "rate_limited" },
    { toolName: "search__query", denials: 1, topReason: "missing_secret" },
  ],
};
