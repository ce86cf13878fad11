import type { BadgeTone } from "../ui/Badge";
import { CONNECTION_HEALTH_LABELS } from "./gateway";
import type { ConnectionHealth } from "./types";
import { ValueBadge } from "./ValueBadge";

const tones: Record<ConnectionHealth, BadgeTone> = {
  unknown: "neutral",
  ok: "success",
  error: "danger",
  missing_secret: "danger",
};

export interface HealthBadgeProps {
  health: ConnectionHealth | string;
  className?: string;
  "data-testid"?: string;
}

/** A connection's last health check: unknown (never checked), healthy, error or missing secret. */
export function HealthBadge({ health, className, ...rest }: HealthBadgeProps) {
  return (
    <ValueBadge
      value={health}
      labels={CONNECTION_HEALTH_LABELS}
      tones={tones}
      dataName="health"
      srPrefix="Health: "
      dot
      className={className}
      testId={rest["data-testid"] ?? "health-badge"}
    />
  );
}
