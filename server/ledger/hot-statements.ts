import { and, eq, is, Param, Placeholder, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { type Db, preparedStatementsEnabled } from "@/db/client";
import * as schema from "@/db/schema";
import { companies, heartbeatRuns, toolCallEvents, toolGatewaySessions, toolInvocations } from "@/db/schema";
import { sessionIsLive, sessionRun } from "./live-session";

/**
 * The gateway's per-call writes as statements compiled once. drizzle builds SQL text from the
 * query builder on every execution — about a fifth of the gateway's CPU per governed call in
 * the benchmark profile. Here each statement shape is built once, with placeholders, by the
 * same drizzle builders (so column names and value encodings stay those of db/schema), and
 * every call only fills in the values and sends the cached text as a prepared statement.
 */

// A builder without a connection: it only turns query-builder calls into SQL text.
const builder = drizzle.mock({ schema });
const dialect = new PgDialect();

/** Where a statement's parameter comes from: a constant, or a key of one of the source rows. */
type Slot = { constant: unknown } | { source: number; key: string; encode: ((v: unknown) => unknown) | null };

interface Compiled {
  text: string;
  slots: Slot[];
}
const compiledCache = new Map<string, Compiled>();

/** Placeholder names are `<source index>:<key>`. */
function compiled(key: string, build: () => SQL): Compiled {
  let c = compiledCache.get(key);
  if (!c) {
    const q = dialect.sqlToQuery(build());
    const slots = q.params.map((p): Slot => {
      const placeholder = is(p, Placeholder) ? p : is(p, Param) && is(p.value, Placeholder) ? p.value : null;
      if (!placeholder) return { constant: p };
      const i = placeholder.name.indexOf(":");
      const encoder = is(p, Param) ? p.encoder : null;
      return {
        source: Number(placeholder.name.slice(0, i)),
        key: placeholder.name.slice(i + 1),
        encode: encoder ? (v) => encoder.mapToDriverValue(v) : null,
      };
    });
    c = { text: q.sql, slots };
    compiledCache.set(key, c);
  }
  return c;
}

type Row = Record<string, unknown>;

/** `{ column: placeholder }` for every key of `row`, named `<source>:<key>`. */
function placeholders(source: number, row: Row): Row {
  const out: Row = {};
  for (const k of Object.keys(row)) out[k] = sql.placeholder(`${source}:${k}`);
  return out;
}

/**
 * Runs `c` with its parameters taken from `sources`. Like drizzle's `fillPlaceholders`, but
 * without building a values object per call, and a null stays SQL NULL (drizzle's own fill
 * would encode a null jsonb value as the JSON text `null`).
 */
async function run(db: Db, c: Compiled, sources: Row[]): Promise<void> {
  const params = new Array<unknown>(c.slots.length);
  for (let i = 0; i < c.slots.length; i++) {
    const slot = c.slots[i]!;
    if ("constant" in slot) {
      params[i] = slot.constant;
      continue;
    }
    const v = sources[slot.source]![slot.key];
    params[i] = v === null || v === undefined ? null : slot.encode ? slot.encode(v) : v;
  }
  const client = (db as unknown as { $client: postgres.Sql }).$client;
  await client.unsafe(c.text, params as postgres.ParameterOrJSON<never>[], {
    prepare: preparedStatementsEnabled(),
  });
}

const shape = (row: Row) => Object.keys(row).join(",");

type InvocationRow = typeof toolInvocations.$inferInsert;
type EventRow = typeof toolCallEvents.$inferInsert;

/**
 * A session taken from the in-process cache (server/gateway/sessions.ts): a guarded statement
 * writes only if, at that statement, the session is not revoked or expired, its run is running
 * and the company's access version is still `accessVersion`. Otherwise nothing is written and
 * `SessionNotLive` is thrown.
 */
// A type, not an interface: it is passed as one of the statement's parameter sources (`Row`).
export type LiveSessionGuard = {
  sessionId: string;
  accessVersion: number;
};

/**
 * The company id of a live session, as an SQL expression to put in place of a row's
 * `company_id`: the session's company while the session is live (see `LiveSessionGuard`),
 * NULL otherwise, so the NOT NULL column refuses the row and the whole statement writes
 * nothing. A check inside the statement that writes, hence no extra round trip; the refusal is
 * recognised by `isSessionNotLive`. `company` names the placeholder of the company id the
 * cached session claims; `guardSource` is the source index of the `LiveSessionGuard`.
 */
function liveSessionCompanyId(company: string, guardSource: number): string {
  return sql`(${builder
    .select({ companyId: toolGatewaySessions.companyId })
    .from(toolGatewaySessions)
    .innerJoin(heartbeatRuns, sessionRun)
    .innerJoin(companies, eq(companies.id, toolGatewaySessions.companyId))
    .where(
      and(
        eq(toolGatewaySessions.id, sql.placeholder(`${guardSource}:sessionId`)),
        eq(toolGatewaySessions.companyId, sql.placeholder(company)),
        sessionIsLive,
        eq(companies.accessVersion, sql.placeholder(`${guardSource}:accessVersion`)),
      ),
    )
    .getSQL()})` as unknown as string;
}

/**
 * A new ledger row and its audit events in one statement (a data-modifying CTE: atomic
 * without an explicit transaction; the events' foreign key to the new row is checked at the
 * end of the statement).
 */
export async function insertInvocationWithEvents(
  db: Db,
  invocation: InvocationRow,
  events: EventRow[],
  /** A cached session: the row's company id is taken from it only while it is live. */
  liveSession?: LiveSessionGuard,
): Promise<void> {
  const guarded = liveSession !== undefined;
  const key = `inv+ev:${guarded ? "live:" : ""}${shape(invocation)}|${events.map(shape).join("|")}`;
  const guardSource = events.length + 1;
  const c = compiled(key, () => {
    const values = placeholders(0, invocation) as InvocationRow;
    // Only the ledger row is guarded: its events reference it, so they fail with it.
    if (guarded) values.companyId = liveSessionCompanyId("0:companyId", guardSource);
    return sql`with inv as (${builder.insert(toolInvocations).values(values).getSQL()}) ${builder
      .insert(toolCallEvents)
      .values(events.map((e, n) => placeholders(n + 1, e) as EventRow))
      .getSQL()}`;
  });
  try {
    await run(db, c, guarded ? [invocation, ...events, liveSession] : [invocation, ...events]);
  } catch (err) {
    if (guarded && isSessionNotLive(err)) throw new SessionNotLive();
    throw err;
  }
}

/** The guarded ledger insert found its cached session no longer live (nothing was written). */
export class SessionNotLive extends Error {
  constructor() {
    super("the gateway session is no longer live, or the company's access changed");
  }
}

/** PostgreSQL's not-null violation on a guarded row's `company_id`: the live-session guard. */
function isSessionNotLive(err: unknown): boolean {
  const e = err as { code?: string; table_name?: string; column_name?: string } | null;
  return (
    e?.code === "23502" &&
    (e.table_name === "tool_invocations" || e.table_name === "tool_call_events") &&
    e.column_name === "company_id"
  );
}

export interface InvocationOutcomeRow {
  executionStatus: string;
  resultHash: string | null;
  resultSize: number | null;
  resultSummary: Record<string, unknown> | null;
  errorCode: string | null;
  latencyMs: number;
  resultEncrypted?: Record<string, string> | null;
}

/**
 * The outcome of an executed call and its audit event in one statement. The row changes only
 * while this execution's lease (`leaseToken`) still holds it — running, or swept to
 * `outcome_unknown` while the call was in fact still answering; a row a person resolved, or
 * another claim took over, keeps its state (the event still records what came back).
 */
export async function completeInvocationWithEvent(
  db: Db,
  companyId: string,
  invocationId: string,
  leaseToken: string,
  outcome: InvocationOutcomeRow,
  event: EventRow,
): Promise<void> {
  const key = `done+ev:${shape(outcome as unknown as Row)}|${shape(event)}`;
  const c = compiled(
    key,
    () =>
      sql`with done as (${builder
        .update(toolInvocations)
        .set({
          ...(placeholders(1, outcome as unknown as Row) as Partial<InvocationRow>),
          completedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(toolInvocations.companyId, sql.placeholder("0:companyId")),
            eq(toolInvocations.id, sql.placeholder("0:invocationId")),
            eq(toolInvocations.leaseToken, sql.placeholder("0:leaseToken")),
            sql`${toolInvocations.executionStatus} in ('running', 'outcome_unknown')`,
          ),
        )
        .getSQL()}) ${builder
        .insert(toolCallEvents)
        .values(placeholders(2, event) as EventRow)
        .getSQL()}`,
  );
  await run(db, c, [{ companyId, invocationId, leaseToken }, outcome as unknown as Row, event]);
}

/**
 * Audit events alone (e.g. a `discovery` event per listing), one statement. With `liveSession`
 * every event's company id is taken from that cached session only while it is live, so a
 * listing served on a cached session is verified by its own audit write (`SessionNotLive`
 * when the session is dead: nothing is written).
 */
export async function insertEvents(
  db: Db,
  events: EventRow[],
  liveSession?: LiveSessionGuard,
): Promise<void> {
  if (events.length === 0) return;
  const guarded = liveSession !== undefined;
  const key = `ev:${guarded ? "live:" : ""}${events.map(shape).join("|")}`;
  const guardSource = events.length;
  const c = compiled(key, () =>
    builder
      .insert(toolCallEvents)
      .values(
        events.map((e, n) => {
          const values = placeholders(n, e) as EventRow;
          if (guarded) values.companyId = liveSessionCompanyId(`${n}:companyId`, guardSource);
          return values;
        }),
      )
      .getSQL(),
  );
  try {
    await run(db, c, guarded ? [...events, liveSession] : events);
  } catch (err) {
    if (guarded && isSessionNotLive(err)) throw new SessionNotLive();
    throw err;
  }
}
