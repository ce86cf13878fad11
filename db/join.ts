import { type AnyColumn, and, eq, type SQL } from "drizzle-orm";

/**
 * The row of `target` with this company and id: `target.company_id = companyId AND
 * target.id = id`, each side a column (a join along a company-bounded reference, `companyFk`
 * in `db/schema/_columns.ts`) or a value (a lookup). Matching the company as well as the id
 * keeps a query inside one company even where a reference is optional, and uses the
 * `(company_id, id)` keys.
 */
export function companyRow(
  target: { companyId: AnyColumn; id: AnyColumn },
  companyId: AnyColumn | string,
  id: AnyColumn | string,
): SQL {
  return and(eq(target.companyId, companyId), eq(target.id, id))!;
}

/**
 * `conditions` on rows of `table` in company `companyId` (`table.company_id = companyId AND
 * …`): the company scope every company-owned query starts with.
 */
export function inCompany(
  table: { companyId: AnyColumn },
  companyId: AnyColumn | string,
  ...conditions: (SQL | undefined)[]
): SQL {
  return and(eq(table.companyId, companyId), ...conditions)!;
}
