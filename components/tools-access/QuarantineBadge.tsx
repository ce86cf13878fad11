import { Badge } from "../ui/Badge";

export interface QuarantineBadgeProps {
  /** Catalog entry status, e.g. "active", "quarantined", "disabled", "removed". */
  status: string;
  className?: string;
}

const NEUTRAL: Record<string, string> = { disabled: "Disabled", removed: "Removed" };

/**
 * Flags a catalog entry that agents cannot use: quarantined is amber, disabled and removed are
 * neutral. Renders nothing for an active entry.
 */
export function QuarantineBadge({ status, className }: QuarantineBadgeProps) {
  if (status === "quarantined") {
    return (
      <Badge tone="warning" dot className={className} data-status={status}>
        Quarantined
      </Badge>
    );
  }
  const label = NEUTRAL[status];
  if (!label) return null;
  return (
    <Badge tone="neutral" className={className} data-status={status}>
      {label}
    </Badge>
  );
}
