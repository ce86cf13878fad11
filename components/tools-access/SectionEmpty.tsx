import type { ReactNode } from "react";
import { EmptyState } from "../ui/EmptyState";

export interface SectionEmptyProps {
  /** e.g. "No applications yet" */
  title: string;
  /** What the section is for. */
  description: ReactNode;
  /** What will appear here once it exists, e.g. "Registered applications and their actions." */
  whatArrives: ReactNode;
  /** Optional call to action. */
  action?: ReactNode;
  className?: string;
  /** Defaults to `section-empty`. */
  "data-testid"?: string;
}

/** An honest empty state for a Tools & Access section: no sample or placeholder data. */
export function SectionEmpty({
  title,
  description,
  whatArrives,
  action,
  className,
  ...rest
}: SectionEmptyProps) {
  return (
    <EmptyState
      title={title}
      description={description}
      action={action}
      className={className}
      data-testid={rest["data-testid"] ?? "section-empty"}
    >
      <p className="mt-4 max-w-prose rounded-md bg-zinc-50 px-4 py-3 text-sm text-zinc-600">
        <span className="font-medium text-zinc-800">What appears here: </span>
        {whatArrives}
      </p>
    </EmptyState>
  );
}
