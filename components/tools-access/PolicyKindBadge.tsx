import { Badge, type BadgeTone } from "../ui/Badge";
import { labelFor, POLICY_KIND_LABELS } from "./labels";
import type { PolicyKind } from "./types";

const tones: Partial<Record<PolicyKind, BadgeTone>> = {
  allow: "success",
  block: "danger",
  require_approval: "warning",
};

export interface PolicyKindBadgeProps {
  kind: PolicyKind | string;
  className?: string;
}

/** Kind of a policy: block red, require approval amber, allow green, the rest neutral. */
export function PolicyKindBadge({ kind, className }: PolicyKindBadgeProps) {
  const tone = (tones as Record<string, BadgeTone | undefined>)[kind] ?? "neutral";
  return (
    <Badge tone={tone} className={className} data-kind={kind}>
      {labelFor(POLICY_KIND_LABELS, kind)}
    </Badge>
  );
}
