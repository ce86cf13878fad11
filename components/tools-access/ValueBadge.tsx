import { labelFor } from "@/components/labels";
import { Badge, type BadgeTone } from "../ui/Badge";

export interface ValueBadgeProps {
  /** One value of an enum, or a string the server sent that the client does not know yet. */
  value: string;
  labels: Record<string, string>;
  /** Tones by value; an unknown value is neutral. */
  tones: Partial<Record<string, BadgeTone>>;
  /** The `data-*` attribute that carries the raw value, e.g. `risk` for `data-risk`. */
  dataName: string;
  /** Read before the label by screen readers, e.g. "Risk: ". */
  srPrefix?: string;
  dot?: boolean;
  className?: string;
  testId?: string;
}

/** The badge of an enum value: its label (or the value made readable) in its tone. */
export function ValueBadge({
  value,
  labels,
  tones,
  dataName,
  srPrefix,
  dot,
  className,
  testId,
}: ValueBadgeProps) {
  const tone = tones[value] ?? "neutral";
  return (
    <Badge
      tone={tone}
      dot={dot}
      className={className}
      {...{ [`data-${dataName}`]: value }}
      data-testid={testId}
    >
      {srPrefix ? <span className="sr-only">{srPrefix}</span> : null}
      {labelFor(labels, value)}
    </Badge>
  );
}
