import { labelFor } from "@/components/labels";
import { Badge } from "../ui/Badge";
import { APPLICATION_TYPE_LABELS } from "./gateway";
import type { ApplicationType } from "./types";

export interface ApplicationTypeBadgeProps {
  type: ApplicationType | string;
  className?: string;
}

/** How an application is reached: Remote MCP, Local MCP (stdio), Paperclip or Plugin. */
export function ApplicationTypeBadge({ type, className }: ApplicationTypeBadgeProps) {
  return (
    <Badge tone="info" className={className} data-type={type} data-testid="app-type">
      <span className="sr-only">Type: </span>
      {labelFor(APPLICATION_TYPE_LABELS, type)}
    </Badge>
  );
}
