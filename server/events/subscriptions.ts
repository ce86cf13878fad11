/**
 * `events/subscribe` and `events/unsubscribe` (spec 004, "Task monitoring with MCP Events";
 * wire shapes from the SDK's events branch: SubscribeEventRequestParamsSchema,
 * SubscribeEventResultSchema, UnsubscribeEventRequestParamsSchema).
 *
 * A new subscription, in three steps, none holding a transaction across the network:
 *
 *   1. admission (one short transaction under an instance-wide advisory lock, so every
 *      replica counts the same rows): expired rows of the grant are removed; the verification
 *      concurrency (2 / 8 / 32), the attempts per minute (30 / 200 / 1,000, failures count)
 *      and the active-subscription quota (20 / 100 / 1,000 per grant / company / instance)
 *      are checked; an admission row and the subscription row (`pending`, one-minute lease
 *      token) are written;
 *   2. verification: a signed `{"type":"verification","challenge":…}` POST the receiver must
 *      echo (through the guarded network path of ./callback.ts);
 *   3. finalisation: one conditional UPDATE `pending → active` on the lease token, only
 *      while the lease is live and the grant, membership and task still hold — an expired,
 *      revoked or cancelled request cannot activate anything.
 *
 * A repeated subscribe of an active subscription (same grant, URL, event, arguments — the
 * same deterministic id) refreshes its lifetime without a new challenge; a new secret rotates
 * the keys (both sign for five minutes).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { mcpEventAdmissions, mcpEventSubscriptions } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import { resolveIssueRef } from "../core/issue-search";
import { isServiceError } from "../errors";
import { canonicalJson } from "../ledger/canonical";
import { liveGrant } from "../oauth/store";
import type { McpSession } from "../public-mcp/registry";
import { decryptEventDelivery, encryptEventDelivery } from "../secrets/event-delivery";
import { checkCallbackUrl, checkSecret, postSigned } from "./callback";
import { type CanonicalArguments, eventDefinition } from "./catalogue";
import { callbackRefused, EVENTS_RPC, EventsError, invalidParams } from "./errors";
import { DELIVERY, LEASE_MS, QUOTAS, RETENTION_MS, TTL } from "./limits";

const ADMISSION_LOCK = sql`select pg_advisory_xact_lock(hashtext('paperclip:mcp_event_admission'))`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The deterministic subscription id over (grant, URL, event, canonical arguments). */
export function subscriptionId(grantId: string, url: string, name: string, args: CanonicalArguments): string {
  const key = [grantId, url, name, canonicalJson(args)].join("\0");
  return `sub_${createHash("sha256").update(key, "utf8").digest("hex").slice(0, 32)}`;
}

/** The event and its arguments, checked against the grant: the task must be readable by the person. */
async function resolveTarget(session: McpSession, name: unknown, rawArgs: unknown) {
  if (typeof name !== "string") throw invalidParams("event_name_invalid", "`name` must be a string");
  const def = eventDefinition(name);
  if (!def)
    throw new EventsError(EVENTS_RPC.notFound, "unknown_event", `unknown event \`${name.slice(0, 100)}\``, {
      kind: "event",
    });
  if (rawArgs !== undefined && !isObject(rawArgs))
    throw invalidParams("arguments_invalid", "`arguments` must be an object");
  const parsed = def.input.safeParse(rawArgs ?? {});
  if (!parsed.success)
    throw invalidParams(
      "arguments_invalid",
      `invalid subscription arguments: ${z.prettifyError(parsed.error).slice(0, 500)}`,
    );
  const args = parsed.data as { companyId: string; taskId: string; statuses?: string[] };
  const companyId = session.live.grant.companyId;
  if (args.companyId !== companyId)
    throw new EventsError(
      EVENTS_RPC.forbidden,
      "company_not_granted",
      "companyId must be the company of this connection (see paperclip_connection)",
    );
  if (!session.scopes.includes("paperclip:read"))
    throw new EventsError(EVENTS_RPC.forbidden, "insufficient_scope", "this connection cannot read tasks");
  let taskId: string;
  try {
    taskId = await resolveIssueRef(session.ctx, companyId, args.taskId);
  } catch (err) {
    if (isServiceError(err) && err.status < 500)
      throw new EventsError(
        err.code === "not_found" ? EVENTS_RPC.notFound : EVENTS_RPC.forbidden,
        err.code === "not_found" ? "task_not_found" : "forbidden",
        err.code === "not_found"
          ? "no such task in this connection's company"
          : "this person cannot read the task",
        { kind: "task" },
      );
    throw err;
  }
  const canonical: CanonicalArguments = { companyId, taskId };
  if (args.statuses) canonical.statuses = [...new Set(args.statuses)].sort();
  return { name: def.name, args: canonical };
}

function ttlOf(raw: unknown): number {
  if (raw === undefined) return TTL.defaultMs;
  if (raw === null)
    throw invalidParams(
      "ttl_invalid",
      "non-expiring subscriptions are not offered: omit ttlMs or give milliseconds",
    );
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw <= 0)
    throw invalidParams("ttl_invalid", "ttlMs must be a positive integer (milliseconds)");
  return Math.min(TTL.maxMs, Math.max(TTL.minMs, raw));
}

function checkCursor(raw: unknown) {
  if (raw !== undefined && raw !== null)
    throw new EventsError(
      EVENTS_RPC.unsupported,
      "cursor_unsupported",
      "this server offers no replay: send cursor null (read task history to recover missed changes)",
      { feature: "cursor" },
    );
}

function deliveryOf(raw: unknown): { url: string; secret: string } {
  if (!isObject(raw)) throw invalidParams("delivery_invalid", "`delivery` must be an object");
  if (raw.mode !== "webhook")
    throw new EventsError(
      EVENTS_RPC.unsupported,
      "delivery_unsupported",
      'only webhook delivery is offered (`delivery.mode: "webhook"`)',
      { feature: "delivery", value: typeof raw.mode === "string" ? raw.mode.slice(0, 40) : null },
    );
  return { url: checkCallbackUrl(raw.url), secret: checkSecret(raw.secret) };
}

type SubscriptionRow = typeof mcpEventSubscriptions.$inferSelect;

const deliveryStatus = (row: SubscriptionRow) => ({
  active: row.state === "active" && !row.failedSince,
  lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
  lastError: (row.lastError as string | null) ?? null,
  failedSince: row.failedSince?.toISOString() ?? null,
});

const exhausted = (limit: string, scope: string, max: number) =>
  new EventsError(
    EVENTS_RPC.resourceExhausted,
    "events_quota_exceeded",
    `too many ${limit === "subscriptions" ? "event subscriptions" : limit === "concurrentVerifications" ? "callback verifications at once" : "callback verifications in the last minute"} for this ${scope} (at most ${max}); try again later`,
    { limit, scope, max },
  );

/** `events/subscribe` for one connection. */
export async function subscribe(session: McpSession, params: Record<string, unknown>) {
  const { db } = session.ctx;
  const grant = session.live.grant;
  checkCursor(params.cursor);
  const ttlMs = ttlOf(params.ttlMs);
  const delivery = deliveryOf(params.delivery);
  const { name, args } = await resolveTarget(session, params.name, params.arguments);
  const id = subscriptionId(grant.id, delivery.url, name, args);

  const refreshed = await refresh(db, session, id, delivery.secret, ttlMs);
  if (refreshed) return refreshed;

  // 1. Admission.
  const lease = randomUUID();
  const admissionId = await db.transaction(async (tx) => {
    await tx.execute(ADMISSION_LOCK);
    // Expired or long-stopped subscriptions of this grant go now (their receipts cascade).
    await tx
      .delete(mcpEventSubscriptions)
      .where(
        and(
          eq(mcpEventSubscriptions.grantId, grant.id),
          or(
            lt(mcpEventSubscriptions.expiresAt, sql`now()`),
            and(
              eq(mcpEventSubscriptions.state, "pending"),
              lt(mcpEventSubscriptions.leaseExpiresAt, sql`now()`),
            ),
          ),
        ),
      );
    const [existing] = await tx
      .select({ state: mcpEventSubscriptions.state, leaseExpiresAt: mcpEventSubscriptions.leaseExpiresAt })
      .from(mcpEventSubscriptions)
      .where(eq(mcpEventSubscriptions.id, id))
      .for("update");
    if (existing?.state === "pending")
      throw new EventsError(
        EVENTS_RPC.resourceExhausted,
        "verification_in_progress",
        "this subscription's callback is being verified; retry in a moment",
        { limit: "concurrentVerifications" },
      );
    const [counts] = await tx.execute<Record<string, number>>(sql`
      select
        count(*) filter (where a.finished_at is null and a.lease_expires_at > now() and a.grant_id = ${grant.id})::int as c_grant,
        count(*) filter (where a.finished_at is null and a.lease_expires_at > now() and a.company_id = ${grant.companyId})::int as c_company,
        count(*) filter (where a.finished_at is null and a.lease_expires_at > now())::int as c_instance,
        count(*) filter (where a.started_at > now() - interval '1 minute' and a.grant_id = ${grant.id})::int as r_grant,
        count(*) filter (where a.started_at > now() - interval '1 minute' and a.company_id = ${grant.companyId})::int as r_company,
        count(*) filter (where a.started_at > now() - interval '1 minute')::int as r_instance
      from ${mcpEventAdmissions} a
      where a.started_at > now() - interval '1 minute' or (a.finished_at is null and a.lease_expires_at > now())`);
    const [subs] = await tx.execute<Record<string, number>>(sql`
      select
        count(*) filter (where s.grant_id = ${grant.id})::int as s_grant,
        count(*) filter (where s.company_id = ${grant.companyId})::int as s_company,
        count(*)::int as s_instance
      from ${mcpEventSubscriptions} s
      where s.id <> ${id} and s.expires_at > now()
        and (s.state = 'active' or (s.state = 'pending' and s.lease_expires_at > now()))`);
    const c = counts!;
    const s = subs!;
    const q = QUOTAS;
    if (c.c_grant! >= q.concurrentVerifications.grant)
      throw exhausted("concurrentVerifications", "connection", q.concurrentVerifications.grant);
    if (c.c_company! >= q.concurrentVerifications.company)
      throw exhausted("concurrentVerifications", "company", q.concurrentVerifications.company);
    if (c.c_instance! >= q.concurrentVerifications.instance)
      throw exhausted("concurrentVerifications", "instance", q.concurrentVerifications.instance);
    if (c.r_grant! >= q.verificationsPerMinute.grant)
      throw exhausted("verificationsPerMinute", "connection", q.verificationsPerMinute.grant);
    if (c.r_company! >= q.verificationsPerMinute.company)
      throw exhausted("verificationsPerMinute", "company", q.verificationsPerMinute.company);
    if (c.r_instance! >= q.verificationsPerMinute.instance)
      throw exhausted("verificationsPerMinute", "instance", q.verificationsPerMinute.instance);
    if (s.s_grant! >= q.subscriptions.grant)
      throw exhausted("subscriptions", "connection", q.subscriptions.grant);
    if (s.s_company! >= q.subscriptions.company)
      throw exhausted("subscriptions", "company", q.subscriptions.company);
    if (s.s_instance! >= q.subscriptions.instance)
      throw exhausted("subscriptions", "instance", q.subscriptions.instance);

    const [admission] = await tx
      .insert(mcpEventAdmissions)
      .values({
        companyId: grant.companyId,
        grantId: grant.id,
        leaseExpiresAt: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`,
      })
      .returning({ id: mcpEventAdmissions.id });
    // A stopped row of the same key starts again from nothing: its receipts go with it.
    if (existing) await tx.delete(mcpEventSubscriptions).where(eq(mcpEventSubscriptions.id, id));
    await tx.insert(mcpEventSubscriptions).values({
      id,
      companyId: grant.companyId,
      grantId: grant.id,
      userId: grant.userId,
      eventName: name,
      taskId: args.taskId,
      arguments: args as unknown as Record<string, unknown>,
      deliveryEncrypted: encryptEventDelivery(grant.companyId, id, delivery),
      state: "pending",
      leaseToken: lease,
      leaseExpiresAt: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`,
      expiresAt: sql`now() + ${`${ttlMs} milliseconds`}::interval`,
    });
    return admission!.id;
  });

  const finishAdmission = () =>
    db
      .update(mcpEventAdmissions)
      .set({ finishedAt: sql`now()` })
      .where(eq(mcpEventAdmissions.id, admissionId));
  const abandon = () =>
    db
      .delete(mcpEventSubscriptions)
      .where(and(eq(mcpEventSubscriptions.id, id), eq(mcpEventSubscriptions.leaseToken, lease)));

  // 2. Verification (no transaction is open).
  try {
    await verifyCallback(delivery.url, delivery.secret, id);
  } catch (err) {
    // Refused: nothing stays (the protocol layer writes the refusal to the activity log).
    await abandon();
    await finishAdmission();
    throw err;
  }

  // 3. Finalisation: only this request's lease, only while it is live and access holds.
  const live = await liveGrant(db, grant.id);
  const [activated] = live
    ? await db
        .update(mcpEventSubscriptions)
        .set({
          state: "active",
          leaseToken: null,
          leaseExpiresAt: null,
          activatedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(mcpEventSubscriptions.id, id),
            eq(mcpEventSubscriptions.state, "pending"),
            eq(mcpEventSubscriptions.leaseToken, lease),
            sql`${mcpEventSubscriptions.leaseExpiresAt} > now()`,
          ),
        )
        .returning()
    : [];
  await finishAdmission();
  if (!activated) {
    await abandon();
    throw new EventsError(
      EVENTS_RPC.forbidden,
      live ? "subscription_lease_expired" : "grant_inactive",
      live
        ? "the callback verification took longer than its one-minute lease; subscribe again"
        : "this connection was revoked or lost its access during verification",
    );
  }
  await audit(session, "mcp_event_subscription.create", id, name, args, {});
  return {
    id,
    refreshBefore: activated.expiresAt.toISOString(),
    cursor: null,
    truncated: false,
    deliveryStatus: deliveryStatus(activated),
  };
}

/** A refresh of an active subscription: new lifetime, maybe a rotated secret. Null when there is none. */
async function refresh(db: Db, session: McpSession, id: string, secret: string, ttlMs: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(mcpEventSubscriptions)
      .where(
        and(
          eq(mcpEventSubscriptions.id, id),
          eq(mcpEventSubscriptions.state, "active"),
          sql`${mcpEventSubscriptions.expiresAt} > now()`,
        ),
      )
      .for("update");
    if (!row) return null;
    let config: ReturnType<typeof decryptEventDelivery>;
    try {
      config = decryptEventDelivery(row.companyId, row.id, row.deliveryEncrypted);
    } catch {
      // Unreadable under the loaded master key: subscribe afresh (a new verification).
      return null;
    }
    const rotated =
      config.secret === secret
        ? config
        : {
            url: config.url,
            secret,
            previousSecret: config.secret,
            previousUntil: new Date(Date.now() + DELIVERY.rotationOverlapMs).toISOString(),
          };
    const [updated] = await tx
      .update(mcpEventSubscriptions)
      .set({
        expiresAt: sql`now() + ${`${ttlMs} milliseconds`}::interval`,
        ...(rotated === config
          ? {}
          : { deliveryEncrypted: encryptEventDelivery(row.companyId, row.id, rotated) }),
        // A refresh reactivates a subscription whose deliveries were failing.
        failedSince: null,
        updatedAt: sql`now()`,
      })
      .where(eq(mcpEventSubscriptions.id, id))
      .returning();
    if (rotated !== config)
      await logActivity(tx, session.ctx, {
        companyId: row.companyId,
        action: "mcp_event_subscription.rotate_secret",
        entityType: "oauth_grant",
        entityId: row.grantId,
        details: { subscriptionId: id },
      });
    return {
      id,
      refreshBefore: updated!.expiresAt.toISOString(),
      cursor: null,
      truncated: false,
      deliveryStatus: deliveryStatus(row),
    };
  });
}

/**
 * The challenge handshake (eventWebhook.ts / server events.ts `_verifyEndpoint`): a signed
 * verification envelope; the receiver answers 2xx with the same challenge.
 */
async function verifyCallback(url: string, secret: string, id: string): Promise<void> {
  const challenge = randomBytes(32).toString("base64url");
  const msgId = `msg_verification_${randomBytes(12).toString("hex")}`;
  const outcome = await postSigned(
    url,
    [secret],
    id,
    msgId,
    JSON.stringify({ type: "verification", challenge }),
  );
  if (outcome.kind === "failed")
    throw callbackRefused(
      outcome.error,
      outcome.refused
        ? "the callback URL was refused: it must resolve only to public addresses and must not redirect"
        : `the callback could not be reached (${outcome.error})`,
    );
  if (outcome.status < 200 || outcome.status > 299)
    throw callbackRefused(
      outcome.status >= 500 ? "http_5xx" : "http_4xx",
      `the callback answered the verification with HTTP ${outcome.status}`,
    );
  let echoed: unknown;
  try {
    echoed = (JSON.parse(outcome.body) as { challenge?: unknown } | null)?.challenge;
  } catch {
    echoed = undefined;
  }
  if (typeof echoed !== "string" || echoed !== challenge)
    throw callbackRefused(
      "challenge_failed",
      'the callback did not echo the verification challenge (answer 2xx with {"challenge": <the challenge>})',
    );
}

/** `events/unsubscribe`: by the same key as subscribe; frees the subscription and its receipts. */
export async function unsubscribe(session: McpSession, params: Record<string, unknown>) {
  const grant = session.live.grant;
  if (!isObject(params.delivery) || typeof params.delivery.url !== "string")
    throw invalidParams("delivery_invalid", "`delivery.url` (the callback URL subscribed with) is required");
  const { name, args } = await resolveTarget(session, params.name, params.arguments);
  const id = subscriptionId(grant.id, params.delivery.url, name, args);
  const [gone] = await session.ctx.db
    .delete(mcpEventSubscriptions)
    .where(and(eq(mcpEventSubscriptions.id, id), eq(mcpEventSubscriptions.grantId, grant.id)))
    .returning({ id: mcpEventSubscriptions.id });
  if (!gone)
    throw new EventsError(
      EVENTS_RPC.notFound,
      "subscription_not_found",
      "no subscription matches these arguments",
      {
        kind: "subscription",
      },
    );
  await audit(session, "mcp_event_subscription.delete", id, name, args, {});
  return {};
}

function audit(
  session: McpSession,
  action: string,
  subscriptionId: string,
  eventName: string,
  args: CanonicalArguments,
  extra: Record<string, unknown>,
) {
  return logActivity(session.ctx.db, session.ctx, {
    companyId: session.live.grant.companyId,
    action,
    entityType: "oauth_grant",
    entityId: session.live.grant.id,
    details: { subscriptionId, eventName, taskId: args.taskId, ...extra },
  });
}

/**
 * Removes what has outlived its use: subscriptions expired or stopped more than seven days
 * ago (receipts cascade) and admissions older than ten minutes. Run by the workers.
 */
export async function pruneEvents(db: Db): Promise<void> {
  const cutoff = sql`now() - ${`${RETENTION_MS} milliseconds`}::interval`;
  await db
    .delete(mcpEventSubscriptions)
    .where(
      or(
        lt(mcpEventSubscriptions.expiresAt, cutoff),
        and(eq(mcpEventSubscriptions.state, "stopped"), lt(mcpEventSubscriptions.updatedAt, cutoff)),
      ),
    );
  await db
    .delete(mcpEventAdmissions)
    .where(lt(mcpEventAdmissions.startedAt, sql`now() - interval '10 minutes'`));
  // Pending rows whose verification died with its process.
  await db
    .delete(mcpEventSubscriptions)
    .where(
      and(eq(mcpEventSubscriptions.state, "pending"), lt(mcpEventSubscriptions.leaseExpiresAt, sql`now()`)),
    );
}
