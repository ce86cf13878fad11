// The two company-scoped reads most verbs start with: a company's rows of one table, and one
// row locked for the rest of a transaction (404 when the company has no such row).
import type { AnyColumn, SQL } from "drizzle-orm";
import { eq } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "@/db/client";
import { companyRow, inCompany } from "@/db/join";
import { notFound } from "../errors";

type CompanyTable = PgTable & { companyId: AnyColumn; id: AnyColumn };

/** Every row of `table` in the company, in `orderBy` order. */
export async function companyRows<T extends CompanyTable>(
  db: Tx,
  table: T,
  companyId: string,
  ...orderBy: (AnyPgColumn | SQL)[]
): Promise<T["$inferSelect"][]> {
  return db
    .select()
    .from(table as PgTable)
    .where(eq(table.companyId, companyId))
    .orderBy(...orderBy) as Promise<T["$inferSelect"][]>;
}

/** The company's row `id` of `table`; 404 `not_found` naming `entity` when there is none. */
export async function findCompanyRow<T extends CompanyTable>(
  db: Tx,
  table: T,
  companyId: string,
  id: string,
  entity: string,
  lock = false,
): Promise<T["$inferSelect"]> {
  const query = db
    .select()
    .from(table as PgTable)
    .where(companyRow(table, companyId, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound(entity);
  return row as T["$inferSelect"];
}

/** `findCompanyRow`, the row locked `FOR UPDATE` for the rest of the transaction. */
export function lockCompanyRow<T extends CompanyTable>(
  tx: Tx,
  table: T,
  companyId: string,
  id: string,
  entity: string,
): Promise<T["$inferSelect"]> {
  return findCompanyRow(tx, table, companyId, id, entity, true);
}

/** Inserts one row of `table` and returns it as stored. */
export async function insertRow<T extends PgTable>(
  tx: Tx,
  table: T,
  values: T["$inferInsert"],
): Promise<T["$inferSelect"]> {
  const [row] = await tx
    .insert(table)
    .values(values as never)
    .returning();
  return row as T["$inferSelect"];
}

/** Rows of `table` in the company that belong to one connection, and `conditions`. */
export function ofConnection(
  table: { companyId: AnyColumn; connectionId: AnyColumn },
  companyId: string,
  connectionId: string,
  ...conditions: (SQL | undefined)[]
): SQL {
  return inCompany(table, companyId, eq(table.connectionId, connectionId), ...conditions);
}
