import type { ComponentProps } from "react";
import { cn } from "./cn";

export type SkeletonProps = ComponentProps<"div">;

/** A grey placeholder block. Decorative: hidden from assistive tech. */
export function Skeleton({ className, ...props }: SkeletonProps) {
  return (
    <div aria-hidden="true" className={cn("h-4 animate-pulse rounded bg-zinc-200", className)} {...props} />
  );
}

export type TableSkeletonProps = ComponentProps<"div"> & {
  rows?: number;
  columns?: number;
  /** Announced to screen readers. */
  label?: string;
};

/** Loading placeholder shaped like a `Table`. */
export function TableSkeleton({
  rows = 5,
  columns = 4,
  label = "Loading…",
  className,
  ...props
}: TableSkeletonProps) {
  const rowKeys = Array.from({ length: rows }, (_, r) => `row-${r}`);
  const colKeys = Array.from({ length: columns }, (_, c) => `col-${c}`);
  return (
    <div
      role="status"
      aria-busy="true"
      className={cn("overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs", className)}
      {...props}
    >
      <span className="sr-only">{label}</span>
      <div className="flex gap-4 border-b border-zinc-200 bg-zinc-50 px-4 py-3">
        {colKeys.map((k) => (
          <Skeleton key={k} className="h-3 flex-1" />
        ))}
      </div>
      <div className="divide-y divide-zinc-100">
        {rowKeys.map((rk) => (
          <div key={rk} className="flex gap-4 px-4 py-3.5">
            {colKeys.map((ck, c) => (
              <Skeleton key={ck} className={cn("flex-1", c === 0 ? "max-w-56" : null)} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
