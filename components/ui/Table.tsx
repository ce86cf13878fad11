import type { ComponentProps, ReactNode } from "react";
import { cn, focusRing } from "./cn";

export type TableProps = ComponentProps<"table"> & {
  /** Classes for the scrolling, bordered container. */
  containerClassName?: string;
  /**
   * Below 768 px each row becomes a stacked block: the headings hide (kept for screen readers)
   * and a cell with `data-label="Heading"` shows that label before its value. Cells without
   * one (row actions, a full-width panel) stand on their own line.
   */
  stacked?: boolean;
};

/**
 * The stacked mode, CSS only. Child combinators keep it off tables nested in a cell.
 * INVARIANT: every row cell that holds a value carries `data-label` with its column heading.
 */
export const stackedTableClasses = cn(
  "max-md:block max-md:[&>thead]:sr-only max-md:[&>tbody]:block",
  "max-md:[&>tbody>tr]:block max-md:[&>tbody>tr]:px-4 max-md:[&>tbody>tr]:py-3",
  "max-md:[&>tbody>tr>td]:relative max-md:[&>tbody>tr>td]:block max-md:[&>tbody>tr>td]:min-w-0 max-md:[&>tbody>tr>td]:px-0 max-md:[&>tbody>tr>td]:py-1",
  "max-md:[&>tbody>tr>td]:text-left max-md:[&>tbody>tr>td]:whitespace-normal max-md:[&>tbody>tr>td]:break-words",
  "max-md:[&>tbody>tr>td[data-label]]:pl-28",
  "max-md:[&>tbody>tr>td[data-label]]:before:absolute max-md:[&>tbody>tr>td[data-label]]:before:left-0 max-md:[&>tbody>tr>td[data-label]]:before:w-26",
  "max-md:[&>tbody>tr>td[data-label]]:before:truncate max-md:[&>tbody>tr>td[data-label]]:before:text-xs max-md:[&>tbody>tr>td[data-label]]:before:leading-5",
  "max-md:[&>tbody>tr>td[data-label]]:before:font-medium max-md:[&>tbody>tr>td[data-label]]:before:text-zinc-600",
  "max-md:[&>tbody>tr>td[data-label]]:before:content-[attr(data-label)]",
);

/** A bordered, horizontally scrollable table (or, `stacked`, one block a row on narrow screens). */
export function Table({ className, containerClassName, stacked = false, ...props }: TableProps) {
  return (
    <div
      className={cn(
        // `relative`: an absolutely placed descendant (an sr-only label) is clipped here too,
        // instead of widening the page past a narrow screen.
        "relative w-full overflow-x-auto rounded-lg border border-zinc-200 bg-white shadow-xs",
        containerClassName,
        focusRing,
      )}
      data-stacked={stacked || undefined}
      // A region that scrolls sideways on narrow screens must be reachable by keyboard
      // (axe `scrollable-region-focusable`, serious).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container, see above
      tabIndex={0}
    >
      <table
        className={cn("w-full border-collapse text-left text-sm", stacked && stackedTableClasses, className)}
        {...props}
      />
    </div>
  );
}

export function THead({ className, ...props }: ComponentProps<"thead">) {
  return (
    <thead
      className={cn(
        "border-b border-zinc-200 bg-zinc-50 text-xs font-medium tracking-wide text-zinc-600 uppercase",
        className,
      )}
      {...props}
    />
  );
}

export function TBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-zinc-100", className)} {...props} />;
}

export function TR({ className, ...props }: ComponentProps<"tr">) {
  return (
    <tr className={cn("align-middle transition-colors [tbody>&]:hover:bg-zinc-50", className)} {...props} />
  );
}

export function TH({ className, scope = "col", ...props }: ComponentProps<"th">) {
  return (
    <th scope={scope} className={cn("px-4 py-2.5 font-medium whitespace-nowrap", className)} {...props} />
  );
}

export function TD({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-4 py-3 text-zinc-700", className)} {...props} />;
}

/** Header of a row-actions column: labelled for screen readers, visually empty. */
export function ActionsHeader() {
  return (
    <TH>
      <span className="sr-only">Actions</span>
    </TH>
  );
}

/** A column heading: its text, or its text with classes (e.g. `text-right` for numbers). */
export type ColumnHeading = string | { label: ReactNode; className?: string };

/** A table's `<thead>`: one heading a column, then the row-actions column when `actions`. */
export function HeaderRow({
  columns,
  actions = false,
}: {
  columns: readonly ColumnHeading[];
  actions?: boolean;
}) {
  return (
    <THead>
      <TR>
        {columns.map((column, index) =>
          typeof column === "string" ? (
            <TH key={column}>{column}</TH>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are a fixed list
            <TH key={index} className={column.className}>
              {column.label}
            </TH>
          ),
        )}
        {actions ? <ActionsHeader /> : null}
      </TR>
    </THead>
  );
}

export type FullRowProps = ComponentProps<"tr"> & { colSpan: number; cellClassName?: string };

/** A row of one cell across the columns: a panel below the row it belongs to (a question, details, a form). */
export function FullRow({ colSpan, cellClassName = "px-4 py-2", children, ...props }: FullRowProps) {
  return (
    <tr {...props}>
      <td colSpan={colSpan} className={cellClassName}>
        {children}
      </td>
    </tr>
  );
}
