import { describe, expect, it } from "vitest";
import { bucketLabel, seriesSummary } from "./OverviewCharts";
import { inboxEntries } from "./OverviewInbox";
import type { CallSeriesData, OverviewInboxData } from "./types-overview";

const empty: OverviewInboxData = {
  pendingApprovals: { total: 0, oldest: [] },
  pendingAutonomyChanges: 0,
  toolsToReview: [],
  suppressedSlots: [],
  missingSecrets: [],
  needsAuthorization: [],
  unhealthyConnections: [],
  unknownOutcomes: 0,
};

const bucket = (start: string, counts: Partial<Record<string, number>> = {}) => ({
  start,
  allow: 0,
  deny: 0,
  approval_required: 0,
  rate_limited: 0,
  deferred: 0,
  ...counts,
});

describe("inboxEntries", () => {
  it("is empty when nothing waits (the card then says so)", () => {
    expect(inboxEntries("co", empty)).toEqual([]);
  });

  it("links every kind to the place where a person acts", () => {
    const entries = inboxEntries("co", {
      pendingApprovals: {
        total: 1,
        oldest: [
          {
            id: "a",
            toolName: "mail__send",
            agentName: "Writer",
            issueId: "i",
            issueIdentifier: "ACME-1",
            createdAt: "2026-06-10T09:00:00.000Z",
            expiresAt: "2026-06-11T09:00:00.000Z",
          },
        ],
      },
      pendingAutonomyChanges: 1,
      toolsToReview: [{ connectionId: "c1", connectionName: "GitHub", quarantined: 2, changed: 1 }],
      suppressedSlots: [
        {
          connectionId: "c2",
          connectionName: "Lab",
          slotId: "s",
          lastError: null,
          since: "2026-06-10T09:00:00.000Z",
        },
      ],
      missingSecrets: [{ connectionId: "c3", connectionName: "Mail" }],
      needsAuthorization: [
        { connectionId: "c5", connectionName: "Linear", personal: false, reason: "the refresh was refused" },
        { connectionId: "c6", connectionName: "Notion", personal: true, reason: null },
      ],
      unhealthyConnections: [
        { connectionId: "c4", connectionName: "Search", healthError: "x", checkedAt: null },
      ],
      unknownOutcomes: 2,
    });
    expect(entries.map((e) => [e.kind, e.href])).toEqual([
      ["approval", "/c/co/settings/tools/approvals"],
      ["autonomy", "/c/co/settings/tools/approvals"],
      ["review", "/c/co/settings/tools/connections?connection=c1"],
      ["suppressed", "/c/co/settings/tools/runtime"],
      ["missing_secret", "/c/co/settings/tools/connections?connection=c3"],
      ["authorization", "/c/co/settings/tools/connections?connection=c5"],
      ["authorization", "/account#linked-accounts"],
      ["unhealthy", "/c/co/settings/tools/connections?connection=c4"],
      ["unknown_outcome", "/c/co/settings/tools/audit?outcome=outcome_unknown"],
    ]);
    expect(entries[0]!.title).toBe("1 tool call waits for approval");
    expect(entries[2]!.title).toBe("GitHub: 2 tools wait for review");
  });
});

describe("seriesSummary", () => {
  it("says there were no calls instead of drawing an empty chart silently", () => {
    const s: CallSeriesData = { range: "24h", bucket: "hour", buckets: [bucket("2026-06-10T12:00:00.000Z")] };
    expect(seriesSummary(s)).toBe("No governed calls in the last 24 hours.");
  });

  it("sums each decision and names the busiest bucket in UTC", () => {
    const s: CallSeriesData = {
      range: "7d",
      bucket: "day",
      buckets: [
        bucket("2026-06-09T00:00:00.000Z", { allow: 2, deny: 1 }),
        bucket("2026-06-10T00:00:00.000Z", { allow: 3, rate_limited: 1, approval_required: 1 }),
      ],
    };
    expect(seriesSummary(s)).toBe(
      "8 governed calls in the last 7 days: 5 allowed, 1 denied, 1 needed approval, 1 rate-limited. Busiest day: Jun 10 UTC with 5.",
    );
    expect(bucketLabel({ bucket: "hour" }, "2026-06-10T07:00:00.000Z")).toBe("07:00");
  });
});
