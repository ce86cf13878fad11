import type { BadgeTone } from "../ui/Badge";
import { RISK_LABELS } from "./labels";
import type { Risk } from "./types";
import { ValueBadge } from "./ValueBadge";

const tones: Record<Risk, BadgeTone> = { read: "neutral", write: "warning", destructive: "danger" };

export interface RiskBadgeProps {
  risk: Risk | string;
  className?: string;
}

/** Risk of a tool: read is neutral, write amber, destructive red. */
export function RiskBadge({ risk, className }: RiskBadgeProps) {
  return (
    <ValueBadge
      value={risk}
      labels={RISK_LABELS}
      tones={tones}
      dataName="risk"
      srPrefix="Risk: "
      className={className}
    />
  );
}
