import type { ComponentProps } from "react";
import { cn } from "./cn";
import { controlStyles } from "./Input";

export type TextareaProps = ComponentProps<"textarea"> & {
  /** Marks the control invalid (sets `aria-invalid`). */
  invalid?: boolean;
};

export function Textarea({ className, invalid, rows = 4, ...props }: TextareaProps) {
  return (
    <textarea
      rows={rows}
      aria-invalid={invalid || undefined}
      className={cn(controlStyles, "min-h-20 resize-y py-2 leading-relaxed", className)}
      {...props}
    />
  );
}
