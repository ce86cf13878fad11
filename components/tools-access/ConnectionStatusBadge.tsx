import { Badge, type BadgeTone } from "../ui/Badge";
import { CONNECTION_STATUS_LABELS } from "./gateway";
import { labelFor } from "./labels";
import type { ConnectionStatus } from "./types";

const tones: Record<ConnectionStatus, BadgeTone> = {
  draft: "info",
  active: "success",
  disabled: "warning",
  archived: "neutral",
};

export interface ConnectionStatusBadgeProps {
  status: ConnectionStatus | string;
  className?: string;
  "data-testid"?: string;
}

/** Lifecycle state of a connection: Draft, Active, Disabled or Archived. Only Active exposes tools. */
export function ConnectionStatusBadge({ status, className, ...rest }: ConnectionStatusBadgeProps) {
  const tone = (tones as Record<string, BadgeTone | undefined>)[status] ?? "neutral";
  return (
    <Badge
      tone={tone}
      className={className}
      data-status={status}
      data-testid={rest["data-testid"] ?? "connection-status"}
    >
      <span className="sr-only">Status: </span>
      {labelFor(CONNECTION_STATUS_LABELS, status)}
    </Badge>
  );
}
