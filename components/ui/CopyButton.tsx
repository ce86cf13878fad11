"use client";

import { useEffect, useRef, useState } from "react";
import { type ButtonSize, type ButtonVariant, buttonStyles } from "./Button";

export interface CopyButtonProps {
  /** Text written to the clipboard. */
  value: string;
  label?: string;
  copiedLabel?: string;
  failedLabel?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  "data-testid"?: string;
  /** Accessible name when the visible label is ambiguous, e.g. "Copy API key". */
  "aria-label"?: string;
}

type CopyState = "idle" | "copied" | "failed";

/** Copies `value` with `navigator.clipboard` and briefly confirms. */
export function CopyButton({
  value,
  label = "Copy",
  copiedLabel = "Copied",
  failedLabel = "Copy failed",
  variant = "secondary",
  size = "sm",
  className,
  ...rest
}: CopyButtonProps) {
  const [state, setState] = useState<CopyState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  async function copy() {
    let next: CopyState = "failed";
    try {
      if (typeof navigator !== "undefined" && navigator.clipboard) {
        await navigator.clipboard.writeText(value);
        next = "copied";
      }
    } catch {
      next = "failed";
    }
    setState(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 2000);
  }

  const text = state === "copied" ? copiedLabel : state === "failed" ? failedLabel : label;
  return (
    <button
      type="button"
      onClick={copy}
      data-state={state}
      className={buttonStyles({ variant, size, className })}
      data-testid={rest["data-testid"]}
      aria-label={rest["aria-label"]}
    >
      <span aria-live="polite">{text}</span>
    </button>
  );
}
