import type { BadgeTone } from "../ui/Badge";
import { DECISION_LABELS } from "./labels";
import type { AuditDecision } from "./types";
import { ValueBadge } from "./ValueBadge";

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
  return (
    <ValueBadge
      value={decision}
      labels={DECISION_LABELS}
      tones={tones}
      dataName="decision"
      dot
      className={className}
    />
  );
}
