import type { ReactNode } from "react";
import { EmptyState, type EmptyStateProps } from "./EmptyState";
import { type ColumnHeading, HeaderRow, Table, TBody } from "./Table";

export interface ListTableProps<T> {
  items: readonly T[];
  columns: readonly ColumnHeading[];
  /** The table's test id. */
  testId: string;
  /** What stands instead of the table when there are no items. */
  empty: Omit<EmptyStateProps, "className"> & { "data-testid"?: string };
  className?: string;
  /** Rows become stacked blocks below 768 px; give each value cell `data-label` (see `Table`). */
  stacked?: boolean;
  /** One `<TR>` for an item. */
  children: (item: T) => ReactNode;
}

/** A list page's table (headings, one row an item) or, with no items, its empty state. */
export function ListTable<T>({
  items,
  columns,
  testId,
  empty,
  className,
  stacked,
  children,
}: ListTableProps<T>) {
  if (items.length === 0) return <EmptyState className={className} {...empty} />;
  return (
    <Table containerClassName={className} data-testid={testId} stacked={stacked}>
      <HeaderRow columns={columns} />
      <TBody>{items.map(children)}</TBody>
    </Table>
  );
}
