import type { ComponentProps } from "react";
import { cn } from "./cn";

export type SpinnerSize = "sm" | "md" | "lg";

const sizes: Record<SpinnerSize, string> = { sm: "size-4", md: "size-5", lg: "size-8" };

export type SpinnerProps = ComponentProps<"span"> & {
  size?: SpinnerSize;
  /** Screen-reader text. */
  label?: string;
};

export function Spinner({ size = "md", label = "Loading", className, ...props }: SpinnerProps) {
  return (
    <span role="status" className={cn("inline-flex items-center text-accent-600", className)} {...props}>
      <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" className={cn("animate-spin", sizes[size])}>
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" className="opacity-20" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}
