import type { ComponentProps } from "react";
import { cn } from "./cn";

export type LabelProps = ComponentProps<"label"> & {
  /** Shows a required marker (the control itself should carry `required`). */
  required?: boolean;
};

export function Label({ className, required, children, htmlFor, ...props }: LabelProps) {
  return (
    <label htmlFor={htmlFor} className={cn("block text-sm font-medium text-zinc-800", className)} {...props}>
      {children}
      {required ? (
        <span aria-hidden="true" className="ml-0.5 text-red-600">
          *
        </span>
      ) : null}
    </label>
  );
}
