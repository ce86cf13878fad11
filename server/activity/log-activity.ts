import type { Tx } from "@/db/client";
import { activityLog } from "@/db/schema";
import { actorRef, actorVia, type ServiceContext } from "../context";

const SENSITIVE_KEY = /pass(word)?|secret|token|key$|apikey|api_key|authorization|credential/i;

/** Drops values under sensitive-looking keys and bounds strings, so snapshots never carry secrets. */
export function narrowDetails(details: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) {
    if (SENSITIVE_KEY.test(k)) {
      out[k] = "[redacted]";
    } else if (typeof v === "string") {
      out[k] = v.length > 500 ? `${v.slice(0, 500)}…` : v;
    } else if (v && typeof v === "object" && !Array.isArray(v) && depth < 3) {
      out[k] = narrowDetails(v as Record<string, unknown>, depth + 1);
    } else {
      out[k] = v;
    }
  }
  return out;
}

/**
 * Records an administrative mutation. Call inside the mutation's transaction: if this insert
 * fails, the change rolls back with it.
 */
export async function logActivity(
  tx: Tx,
  ctx: ServiceContext,
  entry: {
    companyId: string | null;
    action: string;
    entityType: string;
    entityId?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  // A person acting through an assistant connection: the row names the connection and client
  // beside the person (docs/public-mcp.md, Audit).
  const via = actorVia(ctx.actor);
  await tx.insert(activityLog).values({
    companyId: entry.companyId,
    ...actorRef(ctx.actor),
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    details: narrowDetails({ ...(entry.details ?? {}), ...(via ? { via } : {}) }),
    requestId: ctx.requestId,
  });
}

/** The activity row of a company mutation, built from its result. */
export type ActivityOf<T> = (result: T) => {
  action: string;
  entityType: string;
  entityId: string;
  details?: Record<string, unknown>;
};

/**
 * Runs `work` in a transaction and records its activity row (built from the result) in the
 * same transaction.
 */
export async function withActivity<T>(
  ctx: ServiceContext,
  companyId: string,
  work: (tx: Tx) => Promise<T>,
  activity: ActivityOf<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const result = await work(tx);
    await logActivity(tx, ctx, { companyId, ...activity(result) });
    return result;
  });
}
