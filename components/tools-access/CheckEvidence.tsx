import type { ReactNode } from "react";
import { CodeBlock } from "../ui/CodeBlock";
import { cn, focusRing } from "../ui/cn";
import { toJson } from "./view-helpers";

export interface CheckEvidenceProps {
  passed: boolean;
  name: string;
  /** Why it failed, under the name. */
  error?: string | null;
  evidence: unknown;
  /** At the end of the row (a duration, "Show evidence"). */
  trailing?: ReactNode;
  evidenceTestId?: string;
}

/**
 * One smoke check: ✓/✗ and its name (read as "Passed:"/"Failed:"), opening to its evidence as
 * recorded JSON. The per-example results and "Run all smoke checks" list the same way.
 */
export function CheckEvidence({
  passed,
  name,
  error,
  evidence,
  trailing,
  evidenceTestId,
}: CheckEvidenceProps) {
  return (
    <details className="group">
      <summary
        className={cn(
          "flex cursor-pointer list-none items-start gap-2 rounded text-sm [&::-webkit-details-marker]:hidden",
          focusRing,
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            "mt-px w-4 shrink-0 text-center font-bold",
            passed ? "text-emerald-700" : "text-red-700",
          )}
        >
          {passed ? "✓" : "✗"}
        </span>
        <span className="min-w-0 flex-1 text-zinc-900">
          <span className="sr-only">{passed ? "Passed: " : "Failed: "}</span>
          {name}
          {error ? <span className="block text-xs text-red-700">{error}</span> : null}
        </span>
        {trailing}
      </summary>
      <CodeBlock
        code={toJson(evidence)}
        language="json"
        title="Evidence"
        className="mt-2"
        data-testid={evidenceTestId}
      />
    </details>
  );
}
