/**
 * Database quotas shared by every replica: admission receipts (kind, source hash, expiry).
 * A receipt is taken by one conditional INSERT … SELECT … WHERE count < limit, run under a
 * per-kind transaction-scoped advisory lock, so two replicas counting at once are serialised
 * by PostgreSQL and never both take the last slot. Raw addresses are never stored.
 */
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { hashToken } from "../auth/tokens";
import { QUOTAS } from "./config";
import { TooManyRequestsError } from "./errors";

export type AdmissionKind = "register" | "device" | "cimd";

/** `source:<sha256>` of the address `requestSource` believed (never the address itself). */
export const sourceHash = (source: string): string => `source:${hashToken(source)}`;

/** Serialises every counter of `key` until the transaction ends (all replicas: one database). */
export async function lockQuota(tx: Tx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`oauth_quota:${key}`}))`);
}

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number; scope: "instance" | "source" };

/**
 * Takes one receipt of `kind` for `source` if fewer than `perInstance` (all sources) and
 * `perSource` (this source) unexpired receipts exist; receipts live `windowMs`. Must run in a
 * transaction (the lock is released at commit).
 */
export async function admit(
  tx: Tx,
  input: {
    kind: AdmissionKind;
    source: string;
    now: Date;
    windowMs: number;
    perInstance: number;
    perSource: number;
  },
): Promise<Admission> {
  const { kind, now } = input;
  // postgres-js takes timestamps as ISO text in raw SQL (a Date parameter is not serialised).
  const at = now.toISOString();
  const hash = input.source;
  await lockQuota(tx, `admission:${kind}`);
  await tx.execute(
    sql`delete from oauth_admissions where kind = ${kind} and expires_at <= ${at}::timestamptz`,
  );
  const expires = new Date(now.getTime() + input.windowMs);
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into oauth_admissions (kind, source_hash, expires_at)
    select ${kind}, ${hash}, ${expires.toISOString()}::timestamptz
    where (select count(*) from oauth_admissions where kind = ${kind}) < ${input.perInstance}
      and (select count(*) from oauth_admissions where kind = ${kind} and source_hash = ${hash}) < ${input.perSource}
    returning id`);
  if (inserted.length > 0) return { ok: true };
  const [state] = await tx.execute<{
    all_count: number;
    source_count: number;
    all_next: Date | null;
    source_next: Date | null;
  }>(sql`
      select
        (select count(*)::int from oauth_admissions where kind = ${kind}) as all_count,
        (select count(*)::int from oauth_admissions where kind = ${kind} and source_hash = ${hash}) as source_count,
        (select min(expires_at) from oauth_admissions where kind = ${kind}) as all_next,
        (select min(expires_at) from oauth_admissions where kind = ${kind} and source_hash = ${hash}) as source_next`);
  const scope = (state?.source_count ?? 0) >= input.perSource ? "source" : "instance";
  const next = scope === "source" ? state?.source_next : state?.all_next;
  const retryAfterSeconds = next
    ? Math.max(1, Math.ceil((new Date(next).getTime() - now.getTime()) / 1000))
    : 60;
  return { ok: false, retryAfterSeconds, scope };
}

type QuotaName = keyof typeof QUOTAS;

/** Each admission kind's limits (read from `QUOTAS` at call time) and what a refusal says. */
const ADMISSIONS: Record<
  AdmissionKind,
  { perInstance: QuotaName; perSource: QuotaName; refusal: (scope: "instance" | "source") => string }
> = {
  register: {
    perInstance: "registrationsPerMinute",
    perSource: "registrationsPerSourcePerMinute",
    refusal: (scope) => `too many client registrations (${scope}); try again later`,
  },
  device: {
    perInstance: "pendingRequestsPerInstance",
    perSource: "devicePerSourcePerMinute",
    refusal: () => "too many device logins; try again later",
  },
  cimd: {
    perInstance: "cimdFetchesPerMinute",
    perSource: "cimdFetchesPerSourcePerMinute",
    refusal: () => "too many client metadata fetches; try again later",
  },
};

/** `admit` one `kind` receipt for `source` over a one-minute window, with that kind's quotas. */
export function admitPerMinute(tx: Tx, kind: AdmissionKind, source: string, now: Date): Promise<Admission> {
  const limits = ADMISSIONS[kind];
  return admit(tx, {
    kind,
    source,
    now,
    windowMs: 60_000,
    perInstance: QUOTAS[limits.perInstance],
    perSource: QUOTAS[limits.perSource],
  });
}

/** Throws the 429 `TooManyRequestsError` of a refused `kind` admission (with its `Retry-After`). */
export function refuseUnlessAdmitted(kind: AdmissionKind, admission: Admission): void {
  if (!admission.ok)
    throw new TooManyRequestsError(ADMISSIONS[kind].refusal(admission.scope), admission.retryAfterSeconds);
}
