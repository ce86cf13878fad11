import type { BadgeTone } from "../ui/Badge";
import { POLICY_KIND_LABELS } from "./labels";
import type { PolicyKind } from "./types";
import { ValueBadge } from "./ValueBadge";

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
  return (
    <ValueBadge
      value={kind}
      labels={POLICY_KIND_LABELS}
      tones={tones}
      dataName="kind"
      className={className}
    />
  );
}
