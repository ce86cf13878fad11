import { Badge, type BadgeTone } from "../ui/Badge";
import { labelFor, RISK_LABELS } from "./labels";
import type { Risk } from "./types";

const tones: Record<Risk, BadgeTone> = { read: "neutral", write: "warning", destructive: "danger" };

export interface RiskBadgeProps {
  risk: Risk | string;
  className?: string;
}

/** Risk of a tool: read is neutral, write amber, destructive red. */
export function RiskBadge({ risk, className }: RiskBadgeProps) {
  const tone = (tones as Record<string, BadgeTone | undefined>)[risk] ?? "neutral";
  return (
    <Badge tone={tone} className={className} data-risk={risk}>
      <span className="sr-only">Risk: </span>
      {labelFor(RISK_LABELS, risk)}
    </Badge>
  );
}
