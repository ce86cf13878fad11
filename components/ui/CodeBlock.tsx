import type { ReactNode } from "react";
import { CopyButton } from "./CopyButton";
import { cn, focusRing } from "./cn";

export interface CodeBlockProps {
  code: string;
  /** Shown in the header, e.g. "bash" or "json". */
  language?: string;
  /** Shown in the header, e.g. a file name. */
  title?: ReactNode;
  /** Show the copy button. Defaults to true. */
  copyable?: boolean;
  className?: string;
  "data-testid"?: string;
}

/**
 * Monospace code with a copy button. Server-compatible; the copy button is a client component.
 */
export function CodeBlock({ code, language, title, copyable = true, className, ...rest }: CodeBlockProps) {
  const testId = rest["data-testid"];
  const hasHeader = Boolean(title || language || copyable);
  return (
    <div
      className={cn("overflow-hidden rounded-lg border border-zinc-800 bg-zinc-900 text-zinc-100", className)}
      data-testid={testId}
    >
      {hasHeader ? (
        <div className="flex items-center justify-between gap-3 border-b border-zinc-800 bg-zinc-950/40 px-3 py-1.5">
          <span className="truncate font-mono text-xs text-zinc-400">{title ?? language ?? ""}</span>
          {copyable ? (
            <CopyButton
              value={code}
              // Not `ghost` + colour overrides: `cn` does not resolve conflicts, and the ghost's dark
              // text won, so the button looked disabled on the dark header (issue 21, item 7).
              variant="inverse"
              size="sm"
              className="h-7 px-2 text-xs"
              aria-label={typeof title === "string" ? `Copy ${title}` : "Copy code"}
              data-testid={testId ? `${testId}-copy` : undefined}
            />
          ) : null}
        </div>
      ) : null}
      {/* Focusable so a keyboard can scroll long lines (axe `scrollable-region-focusable`). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container, see above */}
      <pre tabIndex={0} className={cn("overflow-x-auto p-4 text-sm leading-relaxed", focusRing)}>
        <code className="font-mono" data-language={language}>
          {code}
        </code>
      </pre>
    </div>
  );
}
