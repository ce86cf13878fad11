// What the Tools & Access overview shows (server/tools/overview.ts): the inbox of things that need
// a person, the ADR's counts, and the chart aggregates. Served to the overview page (a server
// component), so the console's types derive from these schemas.
import { z } from "zod";
import { DECISIONS } from "../values";
import { IsoDate, NullableDate, numbers, strings } from "./common";

/** The ADR's six counts ("24h" ones look back 24 hours from the request's clock). */
export const OverviewCounts = z.object({
  ...numbers(
    "applications",
    "activeConnections",
    "denials24h",
    "highRiskCalls24h",
    "rateLimited24h",
    "runtimeSlots",
  ),
});

/** A connection named in the inbox (the place to act is its page). */
const InboxConnection = z.object({ ...strings("connectionId", "connectionName") });

export const OverviewInbox = z.object({
  /** Tool calls waiting for a person (not yet expired), oldest first. */
  pendingApprovals: z.object({
    total: z.number(),
    oldest: z.array(
      z.object({
        ...strings("id", "toolName"),
        agentName: z.string().nullable(),
        issueId: z.string().nullable(),
        /** The issue's key (`ACME-1`), the address of its thread. */
        issueIdentifier: z.string().nullable(),
        createdAt: IsoDate,
        expiresAt: IsoDate,
      }),
    ),
  }),
  /** Changes to agents' autonomy waiting for a second admin (formal approvals). */
  pendingAutonomyChanges: z.number(),
  /** Catalog entries waiting for review, by connection: new (never reviewed) and changed upstream. */
  toolsToReview: z.array(InboxConnection.extend({ ...numbers("quarantined", "changed") })),
  /** Runtime slots suppressed after a crash storm: they serve nothing until restarted. */
  suppressedSlots: z.array(
    InboxConnection.extend({ slotId: z.string(), lastError: z.string().nullable(), since: IsoDate }),
  ),
  /** Connections whose secret bindings point at a revoked or missing secret or version. */
  missingSecrets: z.array(InboxConnection),
  /**
   * OAuth connections whose calls are refused until a person authorises (docs/upstream-oauth.md):
   * the company's grant needs a Reconnect (or was never given), or — `personal` — the caller's
   * own account on an `oauth_user` connection is not linked or needs linking again.
   */
  needsAuthorization: z.array(
    InboxConnection.extend({ personal: z.boolean(), reason: z.string().nullable() }),
  ),
  /** Connections whose last health check failed (including an upstream the network guard blocks). */
  unhealthyConnections: z.array(
    InboxConnection.extend({ healthError: z.string().nullable(), checkedAt: NullableDate }),
  ),
  /** Calls whose executor lost its lease: the upstream may or may not have run. */
  unknownOutcomes: z.number(),
});

/** One bucket of governed calls: its start and the calls decided in it, by decision. */
export const CallBucket = z.object({
  start: IsoDate,
  ...numbers(...DECISIONS),
});

/** Governed calls over time: zero-filled buckets, oldest first. */
export const CallSeries = z.object({
  range: z.enum(["24h", "7d"]),
  bucket: z.enum(["hour", "day"]),
  buckets: z.array(CallBucket),
});

/** The most denied tools over the last 7 days (top 10). */
export const TopDeniedTools = z.array(
  z.object({ toolName: z.string(), denials: z.number(), topReason: z.string().nullable() }),
);

export const ToolsOverview = z.object({
  counts: OverviewCounts,
  inbox: OverviewInbox,
  calls24h: CallSeries,
  calls7d: CallSeries,
  topDenied: TopDeniedTools,
});
