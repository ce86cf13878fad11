import { DECISION_LABELS, POLICY_KIND_LABELS, RISK_LABELS } from "@/components/labels";
import type { BadgeTone } from "../ui/Badge";
import { CONNECTION_HEALTH_LABELS, CONNECTION_STATUS_LABELS } from "./gateway";
import type { AuditDecision, ConnectionHealth, ConnectionStatus, PolicyKind, Risk } from "./types";
import { ValueBadge, type ValueBadgeProps } from "./ValueBadge";

/** The badges of the tools-access enums: each is a ValueBadge with its labels, tones and data attribute. */
type BadgeSpec<V extends string> = Omit<ValueBadgeProps, "value" | "className" | "tones"> & {
  tones: Partial<Record<V, BadgeTone>>;
};

const STATUS: BadgeSpec<ConnectionStatus> = {
  labels: CONNECTION_STATUS_LABELS,
  tones: { draft: "info", active: "success", disabled: "warning", archived: "neutral" },
  dataName: "status",
  srPrefix: "Status: ",
};
const HEALTH: BadgeSpec<ConnectionHealth> = {
  labels: CONNECTION_HEALTH_LABELS,
  tones: { unknown: "neutral", ok: "success", error: "danger", missing_secret: "danger" },
  dataName: "health",
  srPrefix: "Health: ",
  dot: true,
};
const DECISION: BadgeSpec<AuditDecision> = {
  labels: DECISION_LABELS,
  tones: {
    allow: "success",
    deny: "danger",
    approval_required: "warning",
    rate_limited: "warning",
    deferred: "neutral",
  },
  dataName: "decision",
  dot: true,
};
const RISK: BadgeSpec<Risk> = {
  labels: RISK_LABELS,
  tones: { read: "neutral", write: "warning", destructive: "danger" },
  dataName: "risk",
  srPrefix: "Risk: ",
};
const POLICY_KIND: BadgeSpec<PolicyKind> = {
  labels: POLICY_KIND_LABELS,
  tones: { allow: "success", block: "danger", require_approval: "warning" },
  dataName: "kind",
};

interface Common {
  className?: string;
  "data-testid"?: string;
}

/** A ValueBadge for `spec` whose test id falls back to `defaultTestId`. */
function specBadge(spec: BadgeSpec<string>, value: string, rest: Common, defaultTestId: string) {
  return (
    <ValueBadge
      {...spec}
      value={value}
      className={rest.className}
      testId={rest["data-testid"] ?? defaultTestId}
    />
  );
}

/** Lifecycle state of a connection: Draft, Active, Disabled or Archived. Only Active exposes tools. */
export function ConnectionStatusBadge({ status, ...rest }: Common & { status: ConnectionStatus | string }) {
  return specBadge(STATUS, status, rest, "connection-status");
}

/** A connection's last health check: unknown (never checked), healthy, error or missing secret. */
export function HealthBadge({ health, ...rest }: Common & { health: ConnectionHealth | string }) {
  return specBadge(HEALTH, health, rest, "health-badge");
}

/** Gateway decision: allow green, deny red, approval required and rate limited amber. */
export function DecisionBadge({ decision, className }: Common & { decision: AuditDecision | string }) {
  return <ValueBadge {...DECISION} value={decision} className={className} />;
}

/** Risk of a tool: read is neutral, write amber, destructive red. */
export function RiskBadge({ risk, className }: Common & { risk: Risk | string }) {
  return <ValueBadge {...RISK} value={risk} className={className} />;
}

/** Kind of a policy: block red, require approval amber, allow green, the rest neutral. */
export function PolicyKindBadge({ kind, className }: Common & { kind: PolicyKind | string }) {
  return <ValueBadge {...POLICY_KIND} value={kind} className={className} />;
}
