import type { ReactNode } from "react";
import { CopyButton } from "./CopyButton";
import { cn } from "./cn";

export const SECRET_ONCE_WARNING = "This is the only time this value is shown";

export interface SecretOnceProps {
  /** What the secret is, e.g. "Agent API key". */
  label: ReactNode;
  value: string;
  /** Extra guidance below the warning. */
  description?: ReactNode;
  className?: string;
  /** Defaults to `secret-once`; the value and copy button get `-value` and `-copy` suffixes. */
  "data-testid"?: string;
}

/** Displays a freshly created secret exactly once, with a copy button and a clear warning. */
export function SecretOnce({ label, value, description, className, ...rest }: SecretOnceProps) {
  const testId = rest["data-testid"] ?? "secret-once";
  return (
    <section
      className={cn("rounded-lg border border-amber-300 bg-amber-50 p-4", className)}
      data-testid={testId}
      aria-label={typeof label === "string" ? label : "Secret value"}
    >
      <p className="text-sm font-semibold text-zinc-900">{label}</p>
      <p className="mt-1 text-sm font-medium text-amber-900" data-testid={`${testId}-warning`}>
        {SECRET_ONCE_WARNING}. Copy it now and store it somewhere safe.
      </p>
      {description ? <p className="mt-1 text-sm text-amber-900">{description}</p> : null}
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-stretch">
        <code
          className="block min-w-0 flex-1 rounded-md border border-amber-200 bg-white px-3 py-2 font-mono text-sm break-all text-zinc-900 select-all"
          data-testid={`${testId}-value`}
        >
          {value}
        </code>
        <CopyButton
          value={value}
          variant="secondary"
          size="md"
          className="sm:h-auto"
          aria-label={typeof label === "string" ? `Copy ${label}` : "Copy secret"}
          data-testid={`${testId}-copy`}
        />
      </div>
    </section>
  );
}
