import type { ComponentProps } from "react";
import { cn, focusRing } from "./cn";

/** `inverse`: a secondary button on a dark surface (code blocks). */
export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost" | "inverse";
export type ButtonSize = "sm" | "md" | "lg";

const base =
  "inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-accent-600 text-white shadow-xs hover:bg-accent-700 disabled:hover:bg-accent-600",
  secondary:
    "border border-zinc-300 bg-white text-zinc-900 shadow-xs hover:bg-zinc-50 disabled:hover:bg-white",
  danger:
    "bg-red-600 text-white shadow-xs hover:bg-red-700 focus-visible:outline-red-600 disabled:hover:bg-red-600",
  ghost: "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 disabled:hover:bg-transparent",
  inverse:
    "border border-zinc-600 bg-zinc-800 text-zinc-50 hover:border-zinc-500 hover:bg-zinc-700 hover:text-white disabled:hover:bg-zinc-800",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-8 px-3 text-sm",
  md: "h-9 px-4 text-sm",
  lg: "h-11 px-5 text-base",
};

export interface ButtonStyleOptions {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/** Button classes, for styling a link (e.g. next/link) like a button. */
export function buttonStyles({
  variant = "primary",
  size = "md",
  className,
}: ButtonStyleOptions = {}): string {
  return cn(base, focusRing, variants[variant], sizes[size], className);
}

export type ButtonProps = ComponentProps<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
};

/** Native button. Defaults to `type="button"`; pass `type="submit"` inside forms. */
export function Button({ variant, size, className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonStyles({ variant, size, className })} {...props} />;
}
