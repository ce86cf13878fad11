/**
 * Write receipts for public MCP mutations (docs/public-mcp.md, "Write receipts").
 *
 * A receipt keyed by (person, company, operation, requestId) is reserved with the RFC 8785 +
 * SHA-256 hash of the arguments (without `requestId`) before the verb runs. One
 * `INSERT … ON CONFLICT DO NOTHING RETURNING` decides who executes, so across replicas one
 * call runs an intended action; every later call with the same key replays the receipt:
 *
 *   pending ──verb ok──► succeeded        (result replayed)
 *      │   ──4xx──────► rejected          (error replayed)
 *      │   ──5xx / crash / expired lease──► unknown ──person──► resolved (done | not_done)
 *
 * The executor holds a lease (the ledger's lease length, renewed every third of it) and
 * records its outcome with a conditional UPDATE on its own lease token, so a call whose lease
 * expired — its process died after the verb committed — is never recorded twice and never runs
 * again: the next retry turns it durably into `unknown` (audited) and a person decides.
 */
import { randomUUID } from "node:crypto";
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { mcpWriteReceipts } from "@/db/schema";
import { logActivity } from "../activity/log-activity";
import { fromDatabaseError, isServiceError } from "../errors";
import { canonicalHash } from "../ledger/canonical";
import { leaseExpirySql, leaseMs } from "../ledger/lease";
import { logError, logWarn } from "../log";
import type { McpSession, Operation } from "./registry";

type RecordedError = { code: string; message: string; details?: Record<string, unknown> };

export type MutationOutcome =
  | {
      outcome: "succeeded";
      requestId: string;
      receiptId: string | null;
      result: unknown;
      /** Set when a person resolved an uncertain call as done (`result` is then null). */
      resolution?: "done";
      replayed?: boolean;
    }
  | {
      outcome: "rejected";
      requestId: string;
      receiptId: string | null;
      error: RecordedError;
      replayed?: boolean;
    }
  | { outcome: "unknown"; requestId: string; receiptId: string | null; message: string; manageUrl: string };

type Receipt = typeof mcpWriteReceipts.$inferSelect;

/** The arguments hash of a receipt: RFC 8785 + SHA-256 of everything but `requestId`. */
export function receiptArgsHash(args: Record<string, unknown>): string {
  const { requestId: _requestId, ...rest } = args;
  return canonicalHash(rest);
}

/** Ids among the arguments (never bodies): what the person sees when asked to decide. */
export function receiptArgsSummary(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args))
    if (k !== "requestId" && /Id$/.test(k) && typeof v === "string" && v.length <= 100) out[k] = v;
  return out;
}

const manageUrl = (session: McpSession) => `${session.origin}/assistant-connections`;

function unknownOutcome(
  session: McpSession,
  requestId: string,
  receiptId: string,
  why: string,
): MutationOutcome {
  return {
    outcome: "unknown",
    requestId,
    receiptId,
    message: `${why}. Inspect the current state in Paperclip before acting again; retry only with the same requestId and arguments, never a new requestId. The person can mark this call done or not done under Assistant connections`,
    manageUrl: manageUrl(session),
  };
}

/** What a retry of an existing receipt answers (no verb runs). */
function replay(session: McpSession, requestId: string, r: Receipt): MutationOutcome {
  switch (r.status) {
    case "succeeded":
      return { outcome: "succeeded", requestId, receiptId: r.id, result: r.result, replayed: true };
    case "rejected":
      return {
        outcome: "rejected",
        requestId,
        receiptId: r.id,
        error: r.error ?? { code: "internal_error", message: "rejected" },
        replayed: true,
      };
    case "resolved":
      return r.resolution === "done"
        ? {
            outcome: "succeeded",
            requestId,
            receiptId: r.id,
            result: null,
            resolution: "done",
            replayed: true,
          }
        : {
            outcome: "rejected",
            requestId,
            receiptId: r.id,
            error: {
              code: "resolved_not_done",
              message:
                "the person marked this uncertain call as not done; nothing will run under this requestId — start the action again with a new requestId if it is still wanted",
            },
            replayed: true,
          };
    case "pending":
      return unknownOutcome(
        session,
        requestId,
        r.id,
        "this call is still running (in flight) under the same requestId",
      );
    default:
      return unknownOutcome(
        session,
        requestId,
        r.id,
        "an earlier attempt with this requestId may or may not have taken effect",
      );
  }
}

/**
 * Renews the receipt's lease every third of its length while the verb runs; `stop()` ends it.
 * A renewal that finds the row no longer pending under this token stops; a renewal error is
 * logged and retried at the next tick (a lease that cannot be renewed expires, which is the point).
 */
function holdReceiptLease(session: McpSession, receiptId: string, token: string): { stop(): void } {
  const db = session.ctx.db;
  let stopped = false;
  let inFlight = false;
  const timer = setInterval(
    () => {
      if (stopped || inFlight) return;
      inFlight = true;
      db.update(mcpWriteReceipts)
        .set({ leaseExpiresAt: leaseExpirySql() })
        .where(
          and(
            eq(mcpWriteReceipts.id, receiptId),
            eq(mcpWriteReceipts.status, "pending"),
            eq(mcpWriteReceipts.leaseOwner, token),
          ),
        )
        .returning({ id: mcpWriteReceipts.id })
        .then((rows) => {
          if (rows.length === 0) stopped = true;
        })
        .catch((err: unknown) => logError("public_mcp.receipt_lease_renew_failed", err, { receiptId }))
        .finally(() => {
          inFlight = false;
        });
    },
    Math.max(100, Math.floor(leaseMs() / 3)),
  );
  timer.unref?.();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** The activity row of a receipt that became `unknown` (same transaction as the change). */
const auditUnknown = (tx: Tx, session: McpSession, r: Receipt, reason: "verb_failed" | "lease_expired") =>
  logActivity(tx, session.ctx, {
    companyId: r.companyId,
    action: "public_mcp_receipt.outcome_unknown",
    entityType: "mcp_write_receipt",
    entityId: r.id,
    details: { operation: r.operation, requestId: r.requestId, reason },
  });

/**
 * Records the executor's outcome on its own lease. A row swept to `unknown` while the verb ran
 * still belongs to this token (the verb's real outcome is better than "unknown"); a row a
 * person already resolved is left as they decided. Returns the row as it now stands.
 */
async function record(
  session: McpSession,
  receiptId: string,
  token: string,
  values: Partial<typeof mcpWriteReceipts.$inferInsert>,
): Promise<Receipt | null> {
  return session.ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(mcpWriteReceipts)
      .set({ ...values, leaseExpiresAt: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(mcpWriteReceipts.id, receiptId),
          eq(mcpWriteReceipts.leaseOwner, token),
          inArray(mcpWriteReceipts.status, ["pending", "unknown"]),
        ),
      )
      .returning();
    if (!updated) {
      const [now] = await tx.select().from(mcpWriteReceipts).where(eq(mcpWriteReceipts.id, receiptId));
      return now ?? null;
    }
    if (updated.status === "unknown") await auditUnknown(tx, session, updated, "verb_failed");
    return updated;
  });
}

/** Runs the verb of a newly reserved receipt and records its outcome. */
async function execute(
  session: McpSession,
  op: Operation,
  requestId: string,
  receiptId: string,
  token: string,
  run: () => Promise<unknown>,
): Promise<MutationOutcome> {
  const lease = holdReceiptLease(session, receiptId, token);
  let outcome: Partial<typeof mcpWriteReceipts.$inferInsert>;
  try {
    const result = await run();
    outcome = { status: "succeeded", result: result ?? null };
  } catch (caught) {
    // A constraint the verb's transaction hit (unknown reference, duplicate) rolled it back:
    // as known a refusal as a ServiceError.
    const known = isServiceError(caught) ? caught : fromDatabaseError(caught);
    const err = known ?? caught;
    if (known && known.status < 500) {
      outcome = {
        status: "rejected",
        error: {
          code: known.code,
          message: known.message,
          ...(known.details ? { details: known.details } : {}),
        },
      };
    } else {
      // The verb may have committed before it failed: never a 5xx, never a second run.
      logError("public_mcp.receipt_verb_failed", err, { receiptId, operation: op.name });
      outcome = { status: "unknown" };
    }
  } finally {
    lease.stop();
  }
  let row: Receipt | null;
  try {
    row = await record(session, receiptId, token, outcome);
  } catch (err) {
    // The verb ran (or failed) but its outcome could not be recorded: the lease will expire
    // and the next retry turns the receipt unknown. Never a 5xx for a call that may have run.
    logError("public_mcp.receipt_record_failed", err, { receiptId, operation: op.name });
    return unknownOutcome(session, requestId, receiptId, "the outcome of this call could not be recorded");
  }
  if (!row) return unknownOutcome(session, requestId, receiptId, "the receipt of this call was removed");
  if (row.status === "unknown" && outcome.status === "unknown")
    return unknownOutcome(
      session,
      requestId,
      receiptId,
      "the call failed in a way that leaves its effect uncertain",
    );
  return { ...replay(session, requestId, row), replayed: false } as MutationOutcome;
}

/**
 * A pending receipt whose lease expired: its executor stopped (crashed or lost the database)
 * before recording. Turned into `unknown` by one conditional UPDATE, with its activity row in
 * the same transaction; only one caller wins, the others read the result.
 */
async function expireToUnknown(session: McpSession, r: Receipt): Promise<Receipt> {
  const db = session.ctx.db;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mcpWriteReceipts)
      .set({ status: "unknown", updatedAt: sql`now()` })
      .where(
        and(
          eq(mcpWriteReceipts.id, r.id),
          eq(mcpWriteReceipts.status, "pending"),
          sql`${mcpWriteReceipts.leaseExpiresAt} < now()`,
        ),
      )
      .returning();
    if (!row) {
      const [now] = await tx.select().from(mcpWriteReceipts).where(eq(mcpWriteReceipts.id, r.id));
      return now ?? r;
    }
    logWarn("public_mcp.receipt_lease_expired", { receiptId: r.id, operation: r.operation });
    await auditUnknown(tx, session, r, "lease_expired");
    return row;
  });
}

/**
 * Runs `run` at most once per (person, company, operation, requestId) and answers the
 * recorded outcome to every retry (docs/public-mcp.md, "Write receipts").
 */
export async function withReceipt(
  session: McpSession,
  op: Operation,
  args: { requestId: string } & Record<string, unknown>,
  run: () => Promise<unknown>,
): Promise<MutationOutcome> {
  const db = session.ctx.db;
  const { grant } = session.live;
  const requestId = args.requestId;
  const argsHash = receiptArgsHash(args);
  const token = randomUUID();
  const [reserved] = await db
    .insert(mcpWriteReceipts)
    .values({
      companyId: grant.companyId,
      userId: grant.userId,
      operation: op.name,
      requestId,
      argsHash,
      grantId: grant.id,
      clientId: session.live.clientId,
      clientName: session.live.clientName,
      argsSummary: receiptArgsSummary(args),
      status: "pending",
      leaseOwner: token,
      leaseExpiresAt: leaseExpirySql(),
    })
    .onConflictDoNothing({
      target: [
        mcpWriteReceipts.userId,
        mcpWriteReceipts.companyId,
        mcpWriteReceipts.operation,
        mcpWriteReceipts.requestId,
      ],
    })
    .returning({ id: mcpWriteReceipts.id });
  if (reserved) return execute(session, op, requestId, reserved.id, token, run);

  // A retry: count it and read the receipt in one statement.
  const [existing] = await db
    .update(mcpWriteReceipts)
    .set({ attempts: sql`${mcpWriteReceipts.attempts} + 1` })
    .where(
      and(
        eq(mcpWriteReceipts.userId, grant.userId),
        eq(mcpWriteReceipts.companyId, grant.companyId),
        eq(mcpWriteReceipts.operation, op.name),
        eq(mcpWriteReceipts.requestId, requestId),
      ),
    )
    .returning({
      ...getTableColumns(mcpWriteReceipts),
      expired: sql<boolean>`coalesce(${mcpWriteReceipts.leaseExpiresAt} < now(), true)`,
    });
  if (!existing) return unknownOutcome(session, requestId, "", "the receipt of this call could not be read");
  const { expired, ...receipt } = existing;
  if (receipt.argsHash !== argsHash)
    return {
      outcome: "rejected",
      requestId,
      receiptId: receipt.id,
      error: {
        code: "request_id_reused",
        message:
          "this requestId was already used with different arguments; nothing ran — use a new requestId for a different action",
      },
    };
  if (receipt.status === "pending" && expired)
    return replay(session, requestId, await expireToUnknown(session, receipt));
  return replay(session, requestId, receipt);
}
