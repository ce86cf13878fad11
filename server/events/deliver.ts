/**
 * Delivery: workers on any replica claim due receipts with `FOR UPDATE SKIP LOCKED` (a claim
 * lasts one minute; a crashed worker's claim is taken over after it), recheck access, sign
 * and POST each one, and record the outcome.
 *
 * - At least once: a receipt is `delivered` only after a 2xx. Up to six attempts with
 *   exponential backoff and jitter; `webhook-id` (the receipt's `eventId`) stays the same on
 *   every attempt, the timestamp and signature are fresh.
 * - 410 Gone stops the subscription (and drops what it still had queued); 413 and any other
 *   4xx but 408/429 fail the delivery without a retry.
 * - Before each attempt: the subscription is active and unexpired, the grant is live (not
 *   revoked, the person still a member with read access) — else the subscription stops with
 *   `access_lost` and nothing more is sent. The task's deletion cascades the subscription.
 * - The instance setting off pauses delivery: nothing is claimed until it is on again.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpEventDeliveries, mcpEventSubscriptions } from "@/db/schema";
import { publicOrigin } from "../config/proxy";
import { systemContext } from "../context";
import { logError, logWarn } from "../log";
import { publicMcpEnabled } from "../oauth/config";
import { liveGrant } from "../oauth/store";
import { decryptEventDelivery } from "../secrets/event-delivery";
import { postSigned } from "./callback";
import type { WebhookLastError } from "./errors";
import { DELIVERY } from "./limits";
import { type StopReason, stopSubscriptionIn } from "./stop";

export interface DeliveryOptions {
  /** Backoff base (tests shorten it). Default DELIVERY.retryBaseMs. */
  retryBaseMs?: number;
  batch?: number;
}

interface Claimed {
  id: string;
  subscription_id: string;
  company_id: string;
  event_id: string;
  payload: { name: string; timestamp: string; data: Record<string, unknown> };
  attempts: number;
}

/** Backoff before the next attempt after `attempts` attempts: base·2^(n−1), ±50 % jitter, capped. */
export function backoffMs(attempts: number, baseMs: number): number {
  const raw = Math.min(DELIVERY.retryMaxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(raw * (0.5 + Math.random()));
}

/**
 * How long a claim lasts: DELIVERY.claimMs, or `PAPERCLIP_EVENTS_CLAIM_MS` (1 s – 10 min; the
 * crash tests shorten it so a killed worker's deliveries are taken over within the test).
 */
export function claimMs(): number {
  const raw = Number(process.env.PAPERCLIP_EVENTS_CLAIM_MS);
  return Number.isInteger(raw) && raw >= 1000 && raw <= 600_000 ? raw : DELIVERY.claimMs;
}

/** Claims up to `batch` due receipts (attempt counted at the claim). */
async function claim(db: Db, batch: number): Promise<Claimed[]> {
  return db.execute<Claimed & Record<string, unknown>>(sql`
    update mcp_event_deliveries d
       set claimed_until = now() + ${`${claimMs()} milliseconds`}::interval,
           attempts = d.attempts + 1
      from (select id from mcp_event_deliveries
             where status = 'pending' and next_attempt_at <= now()
               and (claimed_until is null or claimed_until < now())
             order by next_attempt_at
             limit ${batch}
             for update skip locked) c
     where d.id = c.id
    returning d.id, d.subscription_id, d.company_id, d.event_id, d.payload, d.attempts`);
}

/** Claims and sends one batch; returns how many receipts it handled (0 when idle or paused). */
export async function deliverBatch(db: Db, opts: DeliveryOptions = {}): Promise<number> {
  if (!(await publicMcpEnabled(db))) return 0;
  const claimed = await claim(db, opts.batch ?? DELIVERY.batch);
  await Promise.all(
    claimed.map((c) =>
      deliverOne(db, c, opts.retryBaseMs ?? DELIVERY.retryBaseMs).catch((err) => {
        // Unexpected (a database error): the claim expires and another attempt follows.
        logError("events.delivery_failed", err, { deliveryId: c.id });
      }),
    ),
  );
  return claimed.length;
}

const stopForWorker = (db: Db, sub: Parameters<typeof stopSubscriptionIn>[2], reason: StopReason) =>
  db.transaction((tx) => stopSubscriptionIn(tx, systemContext(db, "events"), sub, reason));

async function deliverOne(db: Db, c: Claimed, retryBaseMs: number): Promise<void> {
  const [sub] = await db
    .select()
    .from(mcpEventSubscriptions)
    .where(eq(mcpEventSubscriptions.id, c.subscription_id))
    .limit(1);
  if (!sub) return; // unsubscribed meanwhile (its receipts cascade)
  if (sub.state !== "active" || sub.expiresAt <= new Date()) {
    await finish(db, c.id, { status: "failed", lastError: sub.state === "active" ? "expired" : sub.state });
    return;
  }
  const live = await liveGrant(db, sub.grantId);
  if (!live || live.grant.companyId !== sub.companyId) {
    await stopForWorker(db, sub, "access_lost");
    return;
  }
  let config: ReturnType<typeof decryptEventDelivery>;
  try {
    config = decryptEventDelivery(sub.companyId, sub.id, sub.deliveryEncrypted);
  } catch (err) {
    // A wrong or lost master key (doctor reports the column): fail closed, send nothing.
    logWarn("events.delivery_undecryptable", { subscriptionId: sub.id, error: (err as Error).name });
    await finish(db, c.id, { status: "failed", lastError: "undecryptable" });
    return;
  }
  const secrets = [config.secret];
  if (config.previousSecret && config.previousUntil && Date.parse(config.previousUntil) > Date.now())
    secrets.push(config.previousSecret);
  const data = c.payload.data;
  const body = JSON.stringify({
    eventId: c.event_id,
    name: c.payload.name,
    timestamp: c.payload.timestamp,
    data: { ...data, link: `${publicOrigin()}/c/${data.companyId}/issues/${data.taskId}` },
    cursor: null,
  });
  const outcome = await postSigned(config.url, secrets, sub.id, c.event_id, body);

  if (outcome.kind === "answered" && outcome.status >= 200 && outcome.status < 300) {
    await finish(db, c.id, { status: "delivered", lastStatus: outcome.status });
    await db
      .update(mcpEventSubscriptions)
      .set({
        lastDeliveryAt: sql`now()`,
        lastError: null,
        failedSince: null,
        deliveredCount: sql`${mcpEventSubscriptions.deliveredCount} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(mcpEventSubscriptions.id, sub.id));
    return;
  }
  if (outcome.kind === "answered" && outcome.status === 410) {
    await finish(db, c.id, { status: "failed", lastStatus: 410, lastError: "http_4xx" });
    await stopForWorker(db, sub, "gone");
    return;
  }
  const status = outcome.kind === "answered" ? outcome.status : null;
  const category: WebhookLastError =
    outcome.kind === "failed" ? outcome.error : status! >= 500 ? "http_5xx" : "http_4xx";
  const retryable =
    outcome.kind === "failed" ? !outcome.refused : status! >= 500 || status === 408 || status === 429;
  const final = !retryable || c.attempts >= DELIVERY.maxAttempts;
  if (final) await finish(db, c.id, { status: "failed", lastStatus: status, lastError: category });
  else
    await db
      .update(mcpEventDeliveries)
      .set({
        claimedUntil: null,
        lastStatus: status,
        lastError: category,
        nextAttemptAt: sql`now() + ${`${backoffMs(c.attempts, retryBaseMs)} milliseconds`}::interval`,
      })
      .where(and(eq(mcpEventDeliveries.id, c.id), eq(mcpEventDeliveries.status, "pending")));
  await db
    .update(mcpEventSubscriptions)
    .set({
      lastError: category,
      failedSince: sql`coalesce(${mcpEventSubscriptions.failedSince}, now())`,
      ...(final ? { failedCount: sql`${mcpEventSubscriptions.failedCount} + 1` } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(mcpEventSubscriptions.id, sub.id));
  if (final)
    logWarn("events.delivery_gave_up", { subscriptionId: sub.id, eventId: c.event_id, category, status });
}

function finish(
  db: Db,
  id: string,
  set: { status: "delivered" | "failed"; lastStatus?: number | null; lastError?: string },
) {
  return db
    .update(mcpEventDeliveries)
    .set({
      status: set.status,
      claimedUntil: null,
      lastStatus: set.lastStatus ?? null,
      lastError: set.lastError ?? null,
      ...(set.status === "delivered" ? { deliveredAt: sql`now()` } : {}),
    })
    .where(and(eq(mcpEventDeliveries.id, id), eq(mcpEventDeliveries.status, "pending")));
}
