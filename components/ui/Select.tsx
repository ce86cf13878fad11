import type { ComponentProps } from "react";
import { cn } from "./cn";
import { controlStyles } from "./Input";

export type SelectProps = ComponentProps<"select"> & {
  /** Marks the control invalid (sets `aria-invalid`). */
  invalid?: boolean;
  /** Classes for the wrapper that positions the chevron. */
  wrapperClassName?: string;
};

/** Native `<select>` with a custom chevron. */
export function Select({ className, wrapperClassName, invalid, children, ...props }: SelectProps) {
  return (
    <div className={cn("relative", wrapperClassName)}>
      <select
        aria-invalid={invalid || undefined}
        className={cn(controlStyles, "h-9 cursor-pointer appearance-none pr-9", className)}
        {...props}
      >
        {children}
      </select>
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="currentColor"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-zinc-500"
      >
        <path
          fillRule="evenodd"
          d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z"
          clipRule="evenodd"
        />
      </svg>
    </div>
  );
}
