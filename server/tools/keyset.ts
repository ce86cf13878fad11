import { and, type Column, lt, or, type SQL, sql } from "drizzle-orm";
import { invalidRequest } from "../errors";

/**
 * The keyset cursor of the newest-first admin lists (invocations, grouped audit calls, admin
 * changes): `<created_at, UTC ISO with microseconds>_<id>` of a page's last row. Microseconds
 * because a JS Date would round to milliseconds and skip or repeat rows written in the same
 * millisecond; the comparison stays in SQL for the same reason.
 */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)_([0-9a-f-]{36})$/;

/** A row's created_at as the cursor's first half (select it beside the row's id). */
export const cursorAtSql = (createdAt: Column) =>
  sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The condition "after `cursor`" in newest-first order; a malformed cursor is a 400. */
export function afterCursor(cursor: string, createdAt: Column, id: Column): SQL {
  const m = CURSOR.exec(cursor);
  if (!m) throw invalidRequest("invalid `cursor`: use the `nextCursor` of a previous page");
  const at = sql`${m[1]!}::timestamptz`;
  return or(sql`${createdAt} < ${at}`, and(sql`${createdAt} = ${at}`, lt(id, m[2]!)))!;
}

/** The next page's cursor: the last row's, when the query found more rows than the page holds. */
export function nextCursor(more: boolean, last: { cursorAt: string; id: string } | undefined): string | null {
  return more && last ? `${last.cursorAt}_${last.id}` : null;
}
