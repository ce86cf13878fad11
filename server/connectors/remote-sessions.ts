/**
 * The connector pool's remote MCP sessions on the database, for the Runtime page: one row per
 * pooled client (per replica), opened on connect, touched on use (at most every 30 s per
 * client, so a hot connection costs no write per call), counted on errors, closed with its
 * reason. Best effort: a failed write is logged and never fails a call.
 */
import { hostname } from "node:os";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companyRow } from "@/db/join";
import { toolConnections, toolRemoteSessions } from "@/db/schema";
import { requireCompany } from "../auth/authorize";
import type { ServiceContext } from "../context";
import { logWarn } from "../log";

const TOUCH_INTERVAL_MS = 30_000;
const REPLICA = `${hostname()}/${process.pid}`;

/** What the pool reports about one of its clients (`mcp-http.ts`). */
export interface RemoteSessionObserver {
  opened(info: {
    connectionId: string;
    purpose: string;
    origin: string;
    transport: string;
    reconnects: number;
  }): void;
  used(): void;
  failed(message: string): void;
  closed(reason: string): void;
}

const warn = (err: unknown) => logWarn("remote_sessions.write_failed", { message: (err as Error).message });

/** An observer writing to `db` for one client of `companyId`'s connection. */
export function remoteSessionObserver(db: Db, companyId: string): RemoteSessionObserver {
  let row: Promise<string | null> = Promise.resolve(null);
  let lastTouch = 0;
  const update = (values: Record<string, unknown>) => {
    row = row.then(async (id) => {
      if (!id) return id;
      await db
        .update(toolRemoteSessions)
        .set(values)
        .where(companyRow(toolRemoteSessions, companyId, id))
        .catch(warn);
      return id;
    });
  };
  return {
    opened(info) {
      lastTouch = Date.now();
      // History is kept for a week: closed rows older than that go when a session opens.
      void db
        .delete(toolRemoteSessions)
        .where(
          and(
            eq(toolRemoteSessions.companyId, companyId),
            eq(toolRemoteSessions.state, "closed"),
            sql`${toolRemoteSessions.closedAt} < now() - interval '7 days'`,
          ),
        )
        .catch(warn);
      row = db
        .insert(toolRemoteSessions)
        .values({ companyId, replica: REPLICA, lastUsedAt: sql`now()`, ...info })
        .returning({ id: toolRemoteSessions.id })
        .then((r) => r[0]?.id ?? null)
        .catch((err) => {
          warn(err);
          return null;
        });
    },
    used() {
      if (Date.now() - lastTouch < TOUCH_INTERVAL_MS) return;
      lastTouch = Date.now();
      update({ lastUsedAt: sql`now()` });
    },
    failed(message) {
      update({ errors: sql`${toolRemoteSessions.errors} + 1`, lastError: message.slice(0, 500) });
    },
    closed(reason) {
      update({ state: "closed", closedAt: sql`now()`, closeReason: reason });
    },
  };
}

/** The company's remote sessions for the Runtime page: live ones first, then recent closed ones. */
export async function listRemoteSessions(
  ctx: ServiceContext,
  companyId: string,
  opts: { limit?: number } = {},
) {
  await requireCompany(ctx, companyId, "company:read");
  return ctx.db
    .select({
      id: toolRemoteSessions.id,
      connectionId: toolRemoteSessions.connectionId,
      connectionName: toolConnections.name,
      purpose: toolRemoteSessions.purpose,
      replica: toolRemoteSessions.replica,
      origin: toolRemoteSessions.origin,
      transport: toolRemoteSessions.transport,
      state: toolRemoteSessions.state,
      errors: toolRemoteSessions.errors,
      lastError: toolRemoteSessions.lastError,
      reconnects: toolRemoteSessions.reconnects,
      closeReason: toolRemoteSessions.closeReason,
      openedAt: toolRemoteSessions.openedAt,
      lastUsedAt: toolRemoteSessions.lastUsedAt,
      closedAt: toolRemoteSessions.closedAt,
    })
    .from(toolRemoteSessions)
    .innerJoin(
      toolConnections,
      companyRow(toolConnections, toolRemoteSessions.companyId, toolRemoteSessions.connectionId),
    )
    .where(eq(toolRemoteSessions.companyId, companyId))
    .orderBy(sql`${toolRemoteSessions.state} = 'closed'`, desc(toolRemoteSessions.openedAt))
    .limit(Math.min(opts.limit ?? 100, 500));
}
