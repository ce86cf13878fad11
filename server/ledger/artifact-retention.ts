/**
 * Result artifacts expire (docs/operations.md "Artifact retention"): each gets `expires_at` at
 * creation from the retention in days — the instance setting `artifactRetentionDays` when an
 * administrator stored one, else `PAPERCLIP_ARTIFACT_RETENTION_DAYS`, else 30. Past it an
 * artifact reads exactly like an unknown one (agent and console), and the maintenance loop
 * deletes expired rows in bounded batches (`FOR UPDATE SKIP LOCKED`, so replicas share the work
 * like the lease sweeper), one `artifact_expired` audit event per company and batch.
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { recordToolEvents } from "../audit/record-event";
import { defineInstanceSetting, readInstanceSetting } from "../instance/settings";

export const DEFAULT_ARTIFACT_RETENTION_DAYS = 30;
const MAX_DAYS = 3650;
const Days = z.number().int().min(1).max(MAX_DAYS);

/** The environment's retention: a whole number of days in [1, 3650], else the default. */
export function envArtifactRetentionDays(env: Record<string, string | undefined> = process.env): number {
  const raw = env.PAPERCLIP_ARTIFACT_RETENTION_DAYS?.trim();
  const parsed = Days.safeParse(raw ? Number(raw) : Number.NaN);
  return parsed.success ? parsed.data : DEFAULT_ARTIFACT_RETENTION_DAYS;
}

/** Stored by instance administrators; absent → the environment's retention. */
export const artifactRetentionSetting = defineInstanceSetting<number | null>(
  "artifactRetentionDays",
  Days.nullable(),
  null,
);

export async function artifactRetentionDays(db: Db | Tx): Promise<number> {
  return (await readInstanceSetting(db, artifactRetentionSetting)) ?? envArtifactRetentionDays();
}

/** `expires_at` of an artifact created now (SQL, so it is the database's clock). */
export async function artifactExpiry(db: Db | Tx) {
  const days = await artifactRetentionDays(db);
  return sql`now() + make_interval(days => ${days}::int)`;
}

const BATCH = 200;

/**
 * One sweep pass: deletes up to `limit` expired artifacts and audits them (one event per
 * company, with the count and the ids), in one transaction. Returns how many it deleted.
 */
export async function sweepExpiredArtifacts(db: Db, limit = BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = (await tx.execute(sql`
      with expired as (
        select id from tool_result_artifacts
        where expires_at <= now()
        order by expires_at
        limit ${limit}
        for update skip locked
      )
      delete from tool_result_artifacts t
      using expired where t.id = expired.id
      returning t.id, t.company_id, t.invocation_id, t.bytes`)) as unknown as {
      id: string;
      company_id: string;
      invocation_id: string;
      bytes: number;
    }[];
    const byCompany = new Map<string, typeof rows>();
    for (const r of rows) byCompany.set(r.company_id, [...(byCompany.get(r.company_id) ?? []), r]);
    await recordToolEvents(
      tx,
      [...byCompany].map(([companyId, list]) => ({
        companyId,
        eventType: "artifact_expired" as const,
        actorType: "system" as const,
        actorId: "artifact_sweeper",
        // One row of the batch names its invocation; the summary lists them all (bounded).
        invocationId: list.length === 1 ? list[0]!.invocation_id : null,
        reasonCode: "expired",
        resultSize: list.reduce((n, r) => n + r.bytes, 0),
        resultSummary: {
          count: list.length,
          artifactIds: list.slice(0, 50).map((r) => r.id),
          invocationIds: [...new Set(list.map((r) => r.invocation_id))].slice(0, 50),
        },
      })),
    );
    return rows.length;
  });
}

/** Sweeps until a batch comes back short (at most `maxBatches`); returns the total deleted. */
export async function sweepAllExpiredArtifacts(db: Db, maxBatches = 10): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await sweepExpiredArtifacts(db);
    total += n;
    if (n < BATCH) break;
  }
  return total;
}
