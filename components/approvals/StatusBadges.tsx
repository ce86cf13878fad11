import {
  ACTION_STATUS_STYLES,
  FORMAL_STATUS_STYLES,
  type StatusStyle,
  styleFor,
  TRUST_RULE_STATUS_STYLES,
} from "@/components/labels";
import { Badge } from "../ui/Badge";
import { Spinner } from "../ui/Spinner";

export interface ActionRequestStatusBadgeProps {
  /** An `ActionRequestStatus`; unknown values render humanised and neutral. */
  status: string;
  /** Error code of a failed execution, shown next to "Failed". */
  error?: string | null;
  className?: string;
  "data-testid"?: string;
}

/** Status of an action request; `executing` spins, `failed` carries its error code. */
export function ActionRequestStatusBadge({
  status,
  error,
  className,
  ...rest
}: ActionRequestStatusBadgeProps) {
  const { label, tone } = styleFor(ACTION_STATUS_STYLES, status);
  return (
    <Badge
      tone={tone}
      dot={status !== "executing"}
      className={className}
      data-testid={rest["data-testid"]}
      data-status={status}
    >
      {status === "executing" ? <Spinner size="sm" label="Executing" className="-my-1 -ml-0.5" /> : null}
      {label}
      {status === "failed" && error ? (
        <code className="font-mono text-[0.7rem]" data-error-code={error}>
          {error}
        </code>
      ) : null}
    </Badge>
  );
}

export interface SimpleStatusBadgeProps {
  status: string;
  className?: string;
  "data-testid"?: string;
}

/** A dotted badge with the label and tone `styles` give the status. */
function StyledStatusBadge({
  styles,
  status,
  className,
  ...rest
}: SimpleStatusBadgeProps & { styles: Record<string, StatusStyle> }) {
  const { label, tone } = styleFor(styles, status);
  return (
    <Badge tone={tone} dot className={className} data-testid={rest["data-testid"]} data-status={status}>
      {label}
    </Badge>
  );
}

/** pending approval amber, active green, revoked and expired neutral. */
export function TrustRuleStatusBadge(props: SimpleStatusBadgeProps) {
  return <StyledStatusBadge styles={TRUST_RULE_STATUS_STYLES} {...props} />;
}

/** pending amber, accepted green, rejected red, cancelled and expired neutral. */
export function FormalApprovalStatusBadge(props: SimpleStatusBadgeProps) {
  return <StyledStatusBadge styles={FORMAL_STATUS_STYLES} {...props} />;
}
