import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";
import { Spinner } from "./Spinner";

export type CardProps = ComponentProps<"div">;

export function Card({ className, ...props }: CardProps) {
  return <div className={cn("rounded-lg border border-zinc-200 bg-white shadow-xs", className)} {...props} />;
}

export type CardHeaderProps = Omit<ComponentProps<"div">, "title"> & {
  title?: ReactNode;
  description?: ReactNode;
  /** Controls rendered on the right (buttons, links). */
  actions?: ReactNode;
  /** While set, a small spinner with this label (e.g. "Refreshing policies") shows before the actions. */
  refreshing?: string;
  /** Heading element for the title. Defaults to h2. */
  titleAs?: "h2" | "h3" | "h4";
};

export function CardHeader({
  className,
  title,
  description,
  actions,
  refreshing,
  titleAs: Heading = "h2",
  children,
  ...props
}: CardHeaderProps) {
  return (
    <div
      className={cn(
        "flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 px-5 py-4",
        className,
      )}
      {...props}
    >
      <div className="min-w-0 space-y-1">
        {title ? <Heading className="text-base font-semibold text-zinc-900">{title}</Heading> : null}
        {description ? <p className="text-sm text-zinc-600">{description}</p> : null}
        {children}
      </div>
      {actions || refreshing ? (
        <div className="flex shrink-0 items-center gap-2">
          {refreshing ? <Spinner size="sm" label={refreshing} /> : null}
          {actions}
        </div>
      ) : null}
    </div>
  );
}

export type CardBodyProps = ComponentProps<"div">;

export function CardBody({ className, ...props }: CardBodyProps) {
  return <div className={cn("px-5 py-4", className)} {...props} />;
}

export type CardFooterProps = ComponentProps<"div">;

export function CardFooter({ className, ...props }: CardFooterProps) {
  return (
    <div
      className={cn(
        "flex flex-wrap items-center justify-end gap-2 rounded-b-lg border-t border-zinc-200 bg-zinc-50 px-5 py-3",
        className,
      )}
      {...props}
    />
  );
}
