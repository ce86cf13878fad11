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

/** The company's row `id` of `table`, locked `FOR UPDATE`; 404 `not_found` naming `entity`. */
export async function lockCompanyRow<T extends CompanyTable>(
  tx: Tx,
  table: T,
  companyId: string,
  id: string,
  entity: string,
): Promise<T["$inferSelect"]> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(companyRow(table, companyId, id))
    .for("update");
  if (!row) throw notFound(entity);
  return row as T["$inferSelect"];
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
