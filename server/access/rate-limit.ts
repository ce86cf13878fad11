import { inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { inCompany } from "@/db/join";
import { toolRateLimitCounters } from "@/db/schema";
import type { RateLimitState } from "./types";

/**
 * Rate limits are token buckets kept in PostgreSQL. A bucket of capacity `limit` refills at
 * `limit / windowSeconds` tokens per second; a call takes one token. Taking a token is one
 * conditional upsert: the row lock of `ON CONFLICT DO UPDATE` serialises concurrent takers
 * on any number of replicas, and the `WHERE` refuses the take when less than one token is
 * left — so exactly `limit` calls pass in a burst, and the steady rate is `limit` per window.
 */
export async function takeToken(
  tx: Tx,
  companyId: string,
  s: RateLimitState,
): Promise<{ ok: boolean; tokens: number }> {
  const perSecond = s.limit / s.windowSeconds;
  const refill = sql`least(${s.limit}::float8, c.tokens + greatest(0, extract(epoch from (now() - c.refilled_at))) * ${perSecond}::float8)`;
  const rows = (await tx.execute(sql`
    insert into tool_rate_limit_counters as c (company_id, policy_id, scope_key, tokens, refilled_at, updated_at)
    values (${companyId}, ${s.policyId}, ${s.scopeKey}, ${s.limit - 1}::float8, now(), now())
    on conflict (company_id, policy_id, scope_key) do update
      set tokens = ${refill} - 1, refilled_at = greatest(c.refilled_at, now()), updated_at = now()
      where ${refill} >= 1
    returning tokens
  `)) as unknown as { tokens: number }[];
  if (rows.length === 1) return { ok: true, tokens: Number(rows[0]!.tokens) };
  const [current] = await readTokens(tx, companyId, [s]);
  return { ok: false, tokens: current ?? 0 };
}

/**
 * Takes one token from every bucket that applies, all or nothing (the caller's transaction
 * rolls back on refusal). Returns the state that refused, with its retry delay, or null.
 */
export async function takeTokens(
  tx: Tx,
  companyId: string,
  states: RateLimitState[],
): Promise<RateLimitState | null> {
  for (const s of states) {
    const r = await takeToken(tx, companyId, s);
    if (!r.ok) {
      const retryAfterMs = Math.max(1, Math.ceil(((1 - r.tokens) * s.windowSeconds * 1000) / s.limit));
      return { ...s, tokens: r.tokens, retryAfterMs };
    }
  }
  return null;
}

/** Current tokens (after refill) of the given buckets; a bucket never used is full. */
export async function readTokens(
  db: Db | Tx,
  companyId: string,
  states: Pick<RateLimitState, "policyId" | "scopeKey" | "limit" | "windowSeconds">[],
): Promise<number[]> {
  if (states.length === 0) return [];
  const rows = await db
    .select({
      policyId: toolRateLimitCounters.policyId,
      scopeKey: toolRateLimitCounters.scopeKey,
      tokens: toolRateLimitCounters.tokens,
      elapsed:
        sql<number>`greatest(0, extract(epoch from (now() - ${toolRateLimitCounters.refilledAt})))`.mapWith(
          Number,
        ),
    })
    .from(toolRateLimitCounters)
    .where(
      inCompany(
        toolRateLimitCounters,
        companyId,
        inArray(
          toolRateLimitCounters.policyId,
          states.map((s) => s.policyId),
        ),
      ),
    );
  return states.map((s) => {
    const row = rows.find((r) => r.policyId === s.policyId && r.scopeKey === s.scopeKey);
    if (!row) return s.limit;
    return Math.min(s.limit, row.tokens + row.elapsed * (s.limit / s.windowSeconds));
  });
}
