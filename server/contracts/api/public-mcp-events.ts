// Responses of the event-subscription routes of my assistant connections (docs/public-mcp.md,
// "Events"): `GET /api/me/assistant-connections/:grantId/subscriptions` and
// `POST /api/me/assistant-connections/:grantId/subscriptions/:subscriptionId/stop`
// (server/events/admin.ts). Never the callback URL or a signing secret: those are credentials
// of the receiver and stay encrypted in the database.
import { z } from "zod";

const IsoString = z.iso.datetime();

/** What the console shows for a subscription's state: `expired` is an unstopped one past `expiresAt`. */
export const SUBSCRIPTION_VIEW_STATES = ["pending", "active", "stopped", "expired"] as const;
export type SubscriptionViewState = (typeof SUBSCRIPTION_VIEW_STATES)[number];

/** One event subscription of an assistant connection, as its person sees it. */
export const ConnectionSubscription = z.object({
  id: z.string(),
  grantId: z.string(),
  companyId: z.string(),
  eventName: z.string(),
  taskId: z.string(),
  /** The task's readable identifier, e.g. `ACME-12`. */
  taskIdentifier: z.string(),
  taskTitle: z.string(),
  state: z.enum(SUBSCRIPTION_VIEW_STATES),
  /**
   * `gone` (the receiver answered 410), `stopped_by_person`, `access_lost`, `grant_revoked` (the
   * connection was revoked: by its person or client, or its person was removed, disabled or demoted).
   */
  stoppedReason: z.string().nullable(),
  expiresAt: IsoString,
  lastDeliveryAt: IsoString.nullable(),
  /** A delivery error category (never a response body or header). */
  lastError: z.string().nullable(),
  failedSince: IsoString.nullable(),
  deliveredCount: z.number().int(),
  failedCount: z.number().int(),
  /** Deliveries queued and not yet sent. */
  pendingDeliveries: z.number().int(),
  createdAt: IsoString,
});
export type ConnectionSubscription = z.infer<typeof ConnectionSubscription>;

/** `GET /api/me/assistant-connections/:grantId/subscriptions`. */
export const ConnectionSubscriptionsResponse = z.object({ subscriptions: z.array(ConnectionSubscription) });

/** `POST /api/me/assistant-connections/:grantId/subscriptions/:subscriptionId/stop`. */
export const StoppedSubscription = z.object({ subscription: ConnectionSubscription });

/** A subscription id in a path (`sub_` + 32 hex, db/schema/events.ts); anything else names nothing (404). */
export const subscriptionIdParam = z.string().regex(/^sub_[0-9a-f]{32}$/);
