import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companyFk, companyId, companyKey, createdAt, id, oneOf, timestamps, ts } from "./_columns";
import { users } from "./auth";
import { companies, issues } from "./core";
import { oauthGrants } from "./oauth";

/**
 * MCP Events (docs/public-mcp.md, "Events"). A subscription is `pending` while its callback
 * is being verified (it already holds its place in the active quota, with a one-minute lease),
 * `active` once the receiver echoed the challenge, `stopped` when the receiver answered 410,
 * the person stopped it or its grant/membership/task went away.
 */
export const EVENT_SUBSCRIPTION_STATES = ["pending", "active", "stopped"] as const;
export type EventSubscriptionState = (typeof EVENT_SUBSCRIPTION_STATES)[number];
export const EVENT_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type EventDeliveryStatus = (typeof EVENT_DELIVERY_STATUSES)[number];

/**
 * One webhook subscription. The id is `sub_` + 32 hex of SHA-256 over (grant, callback URL,
 * event, canonical arguments): deterministic, so a repeated `events/subscribe` refreshes the
 * same row, and never a capability. The callback URL and the signing secrets (current, and
 * the previous one for five minutes after a rotation) live only in `delivery_encrypted`,
 * encrypted with the instance master key (server/secrets/encrypted-columns.ts).
 */
export const mcpEventSubscriptions = pgTable(
  "mcp_event_subscriptions",
  {
    id: text("id").primaryKey(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    grantId: uuid("grant_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventName: text("event_name").notNull(),
    taskId: uuid("task_id").notNull(),
    /** The canonical subscription arguments (ids and statuses only). */
    arguments: jsonb("arguments").$type<Record<string, unknown>>().notNull(),
    /** `{url, secret, previousSecret?, previousUntil?}` encrypted (EncryptedSecret). */
    deliveryEncrypted: jsonb("delivery_encrypted")
      .$type<{ ciphertext: string; iv: string; authTag: string; keyId: string }>()
      .notNull(),
    state: text("state").$type<EventSubscriptionState>().notNull().default("pending"),
    /** Why a subscription stopped: `gone` (410), `stopped_by_person`, `access_lost`, `grant_revoked`. */
    stoppedReason: text("stopped_reason"),
    /** The verification in flight: its random token and expiry (one minute). */
    leaseToken: text("lease_token"),
    leaseExpiresAt: ts("lease_expires_at"),
    /** When delivery became active; activity before it is never delivered. */
    activatedAt: ts("activated_at"),
    expiresAt: ts("expires_at").notNull(),
    lastDeliveryAt: ts("last_delivery_at"),
    /** A WebhookLastError category (never a response body or header). */
    lastError: text("last_error"),
    failedSince: ts("failed_since"),
    deliveredCount: integer("delivered_count").notNull().default(0),
    failedCount: integer("failed_count").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    companyKey("mcp_event_subscriptions", t.companyId, t.id),
    companyFk("mcp_event_subscriptions_grant_fk", t.companyId, t.grantId, oauthGrants, "cascade"),
    companyFk("mcp_event_subscriptions_task_fk", t.companyId, t.taskId, issues, "cascade"),
    index("mcp_event_subscriptions_grant_idx").on(t.grantId, t.state),
    index("mcp_event_subscriptions_company_idx").on(t.companyId, t.state),
    index("mcp_event_subscriptions_state_idx").on(t.state, t.expiresAt),
    oneOf("mcp_event_subscriptions_state_ck", t.state, EVENT_SUBSCRIPTION_STATES),
  ],
);

/**
 * Delivery receipts: one per (subscription, source activity row), inserted with ON CONFLICT
 * DO NOTHING by the detector, so a change is queued once however often it is scanned and on
 * however many replicas. Workers claim pending rows with `FOR UPDATE SKIP LOCKED`. `payload`
 * is the bounded event body (ids, status, link) — never comment or document text.
 */
export const mcpEventDeliveries = pgTable(
  "mcp_event_deliveries",
  {
    id: id(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id").notNull(),
    /** The activity_log row the event came from (no foreign key: see company-boundary test). */
    activityId: uuid("activity_id").notNull(),
    /** `evt_` + the receipt's own id: the occurrence's `eventId` and the `webhook-id` header. */
    eventId: text("event_id").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<EventDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    /** A worker's claim: until then no other worker takes the row (a crashed one's expires). */
    claimedUntil: ts("claimed_until"),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    deliveredAt: ts("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    companyFk(
      "mcp_event_deliveries_subscription_fk",
      t.companyId,
      t.subscriptionId,
      mcpEventSubscriptions,
      "cascade",
    ),
    uniqueIndex("mcp_event_deliveries_source_uq").on(t.subscriptionId, t.activityId),
    uniqueIndex("mcp_event_deliveries_event_uq").on(t.eventId),
    index("mcp_event_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    oneOf("mcp_event_deliveries_status_ck", t.status, EVENT_DELIVERY_STATUSES),
  ],
);

/**
 * Callback verification admissions: one row per attempt, reserved (under an instance-wide
 * advisory lock) before any remote request. Concurrency counts rows not finished whose lease
 * is live; the per-minute rate counts every row started in the last minute, failures too.
 */
export const mcpEventAdmissions = pgTable(
  "mcp_event_admissions",
  {
    id: id(),
    companyId: companyId().references(() => companies.id, { onDelete: "cascade" }),
    grantId: uuid("grant_id").notNull(),
    startedAt: ts("started_at").notNull().defaultNow(),
    leaseExpiresAt: ts("lease_expires_at").notNull(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    companyFk("mcp_event_admissions_grant_fk", t.companyId, t.grantId, oauthGrants, "cascade"),
    index("mcp_event_admissions_started_idx").on(t.startedAt),
    index("mcp_event_admissions_grant_idx").on(t.grantId, t.startedAt),
    index("mcp_event_admissions_company_idx").on(t.companyId, t.startedAt),
  ],
);
