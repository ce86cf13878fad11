import { Badge, type BadgeTone } from "../ui/Badge";
import { CONNECTION_HEALTH_LABELS } from "./gateway";
import { labelFor } from "./labels";
import type { ConnectionHealth } from "./types";

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
  const tone = (tones as Record<string, BadgeTone | undefined>)[health] ?? "neutral";
  return (
    <Badge
      tone={tone}
      dot
      className={className}
      data-health={health}
      data-testid={rest["data-testid"] ?? "health-badge"}
    >
      <span className="sr-only">Health: </span>
      {labelFor(CONNECTION_HEALTH_LABELS, health)}
    </Badge>
  );
}
