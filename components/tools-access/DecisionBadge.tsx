import { Badge, type BadgeTone } from "../ui/Badge";
import { DECISION_LABELS, labelFor } from "./labels";
import type { AuditDecision } from "./types";

const tones: Record<AuditDecision, BadgeTone> = {
  allow: "success",
  deny: "danger",
  approval_required: "warning",
  rate_limited: "warning",
  deferred: "neutral",
};

export interface DecisionBadgeProps {
  decision: AuditDecision | string;
  className?: string;
}

/** Gateway decision: allow green, deny red, approval required and rate limited amber. */
export function DecisionBadge({ decision, className }: DecisionBadgeProps) {
  const tone = (tones as Record<string, BadgeTone | undefined>)[decision] ?? "neutral";
  return (
    <Badge tone={tone} dot className={className} data-decision={decision}>
      {labelFor(DECISION_LABELS, decision)}
    </Badge>
  );
}
