import type { BadgeTone } from "../ui/Badge";
import { CONNECTION_STATUS_LABELS } from "./gateway";
import type { ConnectionStatus } from "./types";
import { ValueBadge } from "./ValueBadge";

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
  return (
    <ValueBadge
      value={status}
      labels={CONNECTION_STATUS_LABELS}
      tones={tones}
      dataName="status"
      srPrefix="Status: "
      className={className}
      testId={rest["data-testid"] ?? "connection-status"}
    />
  );
}
