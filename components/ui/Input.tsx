import type { ComponentProps } from "react";
import { cn } from "./cn";

/** Shared styles for text-like form controls. */
export const controlStyles =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-500 focus-visible:border-accent-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent-600/30 disabled:cursor-not-allowed disabled:bg-zinc-100 disabled:text-zinc-500 aria-invalid:border-red-500 aria-invalid:focus-visible:outline-red-500/30";

export type InputProps = ComponentProps<"input"> & {
  /** Marks the control invalid (sets `aria-invalid`). */
  invalid?: boolean;
};

export function Input({ className, invalid, type = "text", ...props }: InputProps) {
  return (
    <input
      type={type}
      aria-invalid={invalid || undefined}
      className={cn(controlStyles, "h-9", className)}
      {...props}
    />
  );
}
