import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

export type EmptyStateProps = Omit<ComponentProps<"div">, "title"> & {
  title: ReactNode;
  description?: ReactNode;
  /** Optional call to action, e.g. a button or link. */
  action?: ReactNode;
  /** Heading element for the title. Defaults to h2. */
  headingAs?: "h2" | "h3";
};

export function EmptyState({
  title,
  description,
  action,
  headingAs: Heading = "h2",
  className,
  children,
  ...props
}: EmptyStateProps) {
  return (
    <div
      className={cn(
        "flex flex-col items-center rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-12 text-center",
        className,
      )}
      {...props}
    >
      <Heading className="text-base font-semibold text-zinc-900">{title}</Heading>
      {description ? <p className="mt-2 max-w-prose text-sm text-zinc-600">{description}</p> : null}
      {children}
      {action ? <div className="mt-5 flex flex-wrap justify-center gap-2">{action}</div> : null}
    </div>
  );
}
