"use client";

import { useState } from "react";
import { cn, focusRing } from "../ui/cn";
import { formatBytes } from "./view-helpers";

/** Characters shown before "Show all": enough for any honest tool description. */
export const LONG_TEXT_PREVIEW_CHARS = 2_000;

/** "1.0 MB" (one decimal from a megabyte up, so it reads as a measurement), else `formatBytes`. */
function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : formatBytes(bytes);
}

/**
 * Untrusted upstream text of any length: the first {@link LONG_TEXT_PREVIEW_CHARS} characters,
 * then a "Show all (1.0 MB)" button that opens the whole text in a bounded scroll box, so a
 * megabyte description never floods the page.
 */
export function LongText({
  text,
  className,
  testId = "long-text",
}: {
  text: string;
  className?: string;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const long = text.length > LONG_TEXT_PREVIEW_CHARS;
  const shown = long && !open ? `${text.slice(0, LONG_TEXT_PREVIEW_CHARS)}…` : text;
  const size = sizeLabel(new TextEncoder().encode(text).length);
  return (
    <div className={className} data-testid={testId} data-long={long ? "true" : "false"}>
      <p
        className={cn(
          "max-w-prose text-sm leading-relaxed break-words whitespace-pre-wrap text-zinc-800",
          long && "max-h-64 overflow-auto rounded border border-zinc-200 bg-white p-2",
        )}
        // A scroll box must be reachable by keyboard (axe: scrollable-region-focusable).
        tabIndex={long ? 0 : undefined}
      >
        {shown}
      </p>
      {long ? (
        <button
          type="button"
          className={cn("mt-1 cursor-pointer rounded text-xs text-accent-700 hover:underline", focusRing)}
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
          data-testid={`${testId}-toggle`}
        >
          {open ? "Show less" : `Show all (${size})`}
        </button>
      ) : null}
    </div>
  );
}
