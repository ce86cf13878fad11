import { and, eq, is, Param, Placeholder, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { toolCallEvents, toolInvocations } from "@/db/schema";

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

interface Compiled {
  text: string;
  params: unknown[];
}
const compiledCache = new Map<string, Compiled>();

function compiled(key: string, build: () => SQL): Compiled {
  let c = compiledCache.get(key);
  if (!c) {
    const q = dialect.sqlToQuery(build());
    c = { text: q.sql, params: q.params };
    compiledCache.set(key, c);
  }
  return c;
}

type Row = Record<string, unknown>;

/** `{ column: placeholder }` for every key of `row`, named `<prefix><key>`. */
function placeholders(prefix: string, row: Row): Row {
  const out: Row = {};
  for (const k of Object.keys(row)) out[k] = sql.placeholder(`${prefix}${k}`);
  return out;
}

function assignValues(into: Row, prefix: string, row: Row): void {
  for (const [k, v] of Object.entries(row)) into[`${prefix}${k}`] = v;
}

/**
 * The driver values for `c`'s parameters. Like drizzle's `fillPlaceholders`, but a null stays
 * SQL NULL (drizzle's own fill would encode a null jsonb value as the JSON text `null`).
 */
function fill(c: Compiled, values: Row): unknown[] {
  return c.params.map((p) => {
    const placeholder = is(p, Placeholder) ? p : is(p, Param) && is(p.value, Placeholder) ? p.value : null;
    if (!placeholder) return p;
    if (!(placeholder.name in values)) throw new Error(`no value for placeholder ${placeholder.name}`);
    const v = values[placeholder.name];
    if (v === null || v === undefined) return null;
    return is(p, Param) ? p.encoder.mapToDriverValue(v) : v;
  });
}

async function run(db: Db, c: Compiled, values: Row): Promise<void> {
  const client = (db as unknown as { $client: postgres.Sql }).$client;
  await client.unsafe(c.text, fill(c, values) as postgres.ParameterOrJSON<never>[], { prepare: true });
}

type InvocationRow = typeof toolInvocations.$inferInsert;
type EventRow = typeof toolCallEvents.$inferInsert;

/**
 * A new ledger row and its audit events in one statement (a data-modifying CTE: atomic
 * without an explicit transaction; the events' foreign key to the new row is checked at the
 * end of the statement).
 */
export async function insertInvocationWithEvents(
  db: Db,
  invocation: InvocationRow,
  events: EventRow[],
): Promise<void> {
  const key = `inv+ev:${Object.keys(invocation).join(",")}|${events.map((e) => Object.keys(e).join(",")).join("|")}`;
  const c = compiled(
    key,
    () =>
      sql`with inv as (${builder
        .insert(toolInvocations)
        .values(placeholders("i_", invocation) as InvocationRow)
        .getSQL()}) ${builder
        .insert(toolCallEvents)
        .values(events.map((e, n) => placeholders(`e${n}_`, e) as EventRow))
        .getSQL()}`,
  );
  const values: Row = {};
  assignValues(values, "i_", invocation);
  events.forEach((e, n) => assignValues(values, `e${n}_`, e));
  await run(db, c, values);
}

export interface InvocationOutcomeRow {
  executionStatus: string;
  resultHash: string | null;
  resultSize: number | null;
  resultSummary: Record<string, unknown> | null;
  errorCode: string | null;
  latencyMs: number;
}

/** The outcome of an executed call and its audit event in one statement. */
export async function completeInvocationWithEvent(
  db: Db,
  companyId: string,
  invocationId: string,
  outcome: InvocationOutcomeRow,
  event: EventRow,
): Promise<void> {
  const key = `done+ev:${Object.keys(outcome).join(",")}|${Object.keys(event).join(",")}`;
  const c = compiled(
    key,
    () =>
      sql`with done as (${builder
        .update(toolInvocations)
        .set({
          ...(placeholders("o_", outcome as unknown as Row) as Partial<InvocationRow>),
          completedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(toolInvocations.companyId, sql.placeholder("companyId")),
            eq(toolInvocations.id, sql.placeholder("invocationId")),
          ),
        )
        .getSQL()}) ${builder
        .insert(toolCallEvents)
        .values(placeholders("e_", event) as EventRow)
        .getSQL()}`,
  );
  const values: Row = { companyId, invocationId };
  assignValues(values, "o_", outcome as unknown as Row);
  assignValues(values, "e_", event);
  await run(db, c, values);
}

/** Audit events alone (e.g. a `discovery` event per listing), one statement. */
export async function insertEvents(db: Db, events: EventRow[]): Promise<void> {
  if (events.length === 0) return;
  const key = `ev:${events.map((e) => Object.keys(e).join(",")).join("|")}`;
  const c = compiled(key, () =>
    builder
      .insert(toolCallEvents)
      .values(events.map((e, n) => placeholders(`e${n}_`, e) as EventRow))
      .getSQL(),
  );
  const values: Row = {};
  events.forEach((e, n) => assignValues(values, `e${n}_`, e));
  await run(db, c, values);
}
