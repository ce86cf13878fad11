/**
 * A person's decisions on uncertain assistant writes (docs/public-mcp.md, "Write receipts"):
 * listing the write receipts of a connection and resolving an `unknown` one as done or not
 * done. Only the connection's person — or an admin of its company (`company:manage`) — sees or
 * resolves a receipt; anyone else gets 404, revealing nothing.
 */
import { and, desc, eq, getTableColumns, or, type SQL, sql } from "drizzle-orm";
import { inCompany } from "@/db/join";
import { companyMemberships, mcpWriteReceipts, oauthGrants, type ReceiptStatus } from "@/db/schema";
import type { Served } from "@/server/contracts/api/common";
import type {
  ResolveReceiptInput,
  WriteReceipt as WriteReceiptSchema,
} from "@/server/contracts/api/public-mcp-receipts";
import { logActivity } from "../activity/log-activity";
import { roleHas } from "../auth/capabilities";
import type { ServiceContext } from "../context";
import { conflict, notFound, unauthenticated } from "../errors";

const MAX_LISTED = 50;

/** The signed-in person (browser session) managing assistant connections; 401 for anyone else. */
export function personOf(ctx: ServiceContext): string {
  if (ctx.actor.type !== "user")
    throw unauthenticated("sign in with your browser to manage assistant connections");
  return ctx.actor.userId;
}

/** Whether `userId` is the row's person or an admin of its company. */
export async function mayManage(
  ctx: ServiceContext,
  userId: string,
  row: { userId: string; companyId: string },
) {
  if (row.userId === userId) return true;
  const [m] = await ctx.db
    .select({ role: companyMemberships.role })
    .from(companyMemberships)
    .where(inCompany(companyMemberships, row.companyId, eq(companyMemberships.userId, userId)))
    .limit(1);
  return !!m && roleHas(m.role, "company:manage");
}

/**
 * Receipts in `status`. "unknown" includes a `pending` receipt whose lease expired: its
 * executor stopped and no retry has turned it `unknown` yet (there is no receipt sweeper).
 */
function inStatus(status: ReceiptStatus): SQL | undefined {
  const t = mcpWriteReceipts;
  if (status === "unknown")
    return or(eq(t.status, "unknown"), and(eq(t.status, "pending"), sql`${t.leaseExpiresAt} < now()`));
  if (status === "pending") return and(eq(t.status, "pending"), sql`${t.leaseExpiresAt} >= now()`);
  return eq(t.status, status);
}

type Row = typeof mcpWriteReceipts.$inferSelect & { connectionName: string };

/** A receipt joined with its connection's name. */
const withConnection = (db: ServiceContext["db"]) =>
  db
    .select({ ...getTableColumns(mcpWriteReceipts), connectionName: oauthGrants.name })
    .from(mcpWriteReceipts)
    .innerJoin(
      oauthGrants,
      and(
        eq(oauthGrants.companyId, mcpWriteReceipts.companyId),
        eq(oauthGrants.id, mcpWriteReceipts.grantId),
      ),
    );

const view = (r: Row) =>
  ({
    id: r.id,
    grantId: r.grantId,
    companyId: r.companyId,
    operation: r.operation,
    requestId: r.requestId,
    // An expired pending receipt is, for the person, unknown (see `inStatus`).
    status:
      r.status === "pending" && r.leaseExpiresAt && r.leaseExpiresAt < new Date() ? "unknown" : r.status,
    argsSummary: r.argsSummary,
    connectionName: r.connectionName,
    clientName: r.clientName,
    attempts: r.attempts,
    resolution: r.resolution ?? null,
    resolutionNote: r.resolutionNote ?? null,
    createdAt: r.createdAt.toISOString(),
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
  }) satisfies Served<typeof WriteReceiptSchema>;

/** The newest write receipts (50) of one connection, by status (default `unknown`). */
export async function listConnectionReceipts(
  ctx: ServiceContext,
  grantId: string,
  status: ReceiptStatus = "unknown",
) {
  const userId = personOf(ctx);
  const [grant] = await ctx.db
    .select({ userId: oauthGrants.userId, companyId: oauthGrants.companyId })
    .from(oauthGrants)
    .where(eq(oauthGrants.id, grantId))
    .limit(1);
  if (!grant || !(await mayManage(ctx, userId, grant))) throw notFound("connection");
  const rows = await withConnection(ctx.db)
    .where(
      inCompany(
        mcpWriteReceipts,
        grant.companyId,
        and(eq(mcpWriteReceipts.grantId, grantId), inStatus(status)),
      ),
    )
    .orderBy(desc(mcpWriteReceipts.createdAt))
    .limit(MAX_LISTED);
  return { receipts: rows.map(view) };
}

/**
 * Every write of mine awaiting my decision (`unknown`), across my connections — revoked ones
 * included, since the key is the person — newest first (100): the Assistant connections page.
 */
export async function listMyUndecidedReceipts(ctx: ServiceContext) {
  const userId = personOf(ctx);
  const rows = await withConnection(ctx.db)
    .where(and(eq(mcpWriteReceipts.userId, userId), inStatus("unknown")))
    .orderBy(desc(mcpWriteReceipts.createdAt))
    .limit(2 * MAX_LISTED);
  return rows.map(view);
}

/**
 * Resolves an `unknown` receipt (or a pending one whose lease expired) as done or not done:
 * one conditional UPDATE → `resolved` with its activity row; 409 `receipt_not_unknown` in any
 * other state. Retries of the call then answer the resolution.
 */
export async function resolveReceipt(ctx: ServiceContext, receiptId: string, input: ResolveReceiptInput) {
  const userId = personOf(ctx);
  const [row] = await withConnection(ctx.db).where(eq(mcpWriteReceipts.id, receiptId)).limit(1);
  if (!row || !(await mayManage(ctx, userId, row))) throw notFound("receipt");
  return ctx.db.transaction(async (tx) => {
    const [resolved] = await tx
      .update(mcpWriteReceipts)
      .set({
        status: "resolved",
        resolution: input.resolution,
        resolutionNote: input.note || null,
        resolvedByUserId: userId,
        resolvedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(
        inCompany(mcpWriteReceipts, row.companyId, and(eq(mcpWriteReceipts.id, row.id), inStatus("unknown"))),
      )
      .returning();
    if (!resolved)
      throw conflict("receipt_not_unknown", "the receipt is not awaiting a decision", { status: row.status });
    await logActivity(tx, ctx, {
      companyId: row.companyId,
      action: "public_mcp_receipt.resolved",
      entityType: "mcp_write_receipt",
      entityId: row.id,
      details: {
        operation: row.operation,
        requestId: row.requestId,
        grantId: row.grantId,
        resolution: input.resolution,
      },
    });
    return { receipt: view({ ...resolved, connectionName: row.connectionName }) };
  });
}
