import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

export type PageHeaderProps = Omit<ComponentProps<"header">, "title"> & {
  title: ReactNode;
  description?: ReactNode;
  /** Controls rendered on the right (buttons, links). */
  actions?: ReactNode;
  /** Small line above the title, e.g. a breadcrumb or section name. */
  eyebrow?: ReactNode;
};

export function PageHeader({
  title,
  description,
  actions,
  eyebrow,
  className,
  children,
  ...props
}: PageHeaderProps) {
  return (
    <header className={cn("mb-6 flex flex-wrap items-start justify-between gap-4", className)} {...props}>
      <div className="min-w-0 space-y-1">
        {eyebrow ? <div className="text-sm font-medium text-zinc-500">{eyebrow}</div> : null}
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {description ? <p className="max-w-prose text-sm text-zinc-600">{description}</p> : null}
        {children}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
    </header>
  );
}
