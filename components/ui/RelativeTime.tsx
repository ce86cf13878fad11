import { type DateInput, formatAbsolute, formatRelative, toDate } from "../format";
import { cn } from "./cn";

export interface RelativeTimeProps {
  value: DateInput;
  /** Reference time; pass a fixed value in stories and tests. Defaults to the current time. */
  now?: DateInput;
  className?: string;
}

/** "3 min ago", with the absolute UTC time in the `title` attribute. */
export function RelativeTime({ value, now, className }: RelativeTimeProps) {
  const date = toDate(value);
  const valid = !Number.isNaN(date.getTime());
  return (
    <time
      dateTime={valid ? date.toISOString() : undefined}
      title={valid ? formatAbsolute(date) : undefined}
      className={cn("whitespace-nowrap", className)}
      suppressHydrationWarning
    >
      {formatRelative(date, now)}
    </time>
  );
}
