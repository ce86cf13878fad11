import { cn } from "./cn";

/** A people-readable label with its machine code as a tooltip (and for screen readers, once). */
export function CodeLabel({ label, code, className }: { label: string; code: string; className?: string }) {
  return (
    <span title={code} data-code={code} className={cn("cursor-help", className)}>
      {label}
    </span>
  );
}
