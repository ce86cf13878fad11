import type { ComponentProps, ReactNode } from "react";
import { cn, focusRing } from "./cn";

export type TableProps = ComponentProps<"table"> & {
  /** Classes for the scrolling, bordered container. */
  containerClassName?: string;
};

/** A bordered, horizontally scrollable table. */
export function Table({ className, containerClassName, ...props }: TableProps) {
  return (
    <div
      className={cn(
        "w-full overflow-x-auto rounded-lg border border-zinc-200 bg-white shadow-xs",
        containerClassName,
        focusRing,
      )}
      // A region that scrolls sideways on narrow screens must be reachable by keyboard
      // (axe `scrollable-region-focusable`, serious).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container, see above
      tabIndex={0}
    >
      <table className={cn("w-full border-collapse text-left text-sm", className)} {...props} />
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
