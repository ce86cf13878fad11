import type { OverviewCounts } from "../types";
import { cn } from "../ui/cn";

export type { OverviewCounts } from "../types";

export interface OverviewCardsProps {
  counts: OverviewCounts;
  className?: string;
}

interface StatDef {
  key: keyof OverviewCounts;
  label: string;
  /** Hint when the value is zero. */
  zero: string;
  /** Hint when the value is above zero. */
  some: string;
  /** Highlight non-zero values (for things worth a look). */
  attention?: boolean;
}

const STATS: StatDef[] = [
  {
    key: "applications",
    label: "Applications",
    zero: "No applications registered yet",
    some: "Registered for this company",
  },
  {
    key: "activeConnections",
    label: "Active connections",
    zero: "No connections set up yet",
    some: "Credentials currently usable",
  },
  {
    key: "denials24h",
    label: "Denied calls (24h)",
    zero: "No tool calls denied in the last 24 hours",
    some: "Tool calls blocked by policy in the last 24 hours",
    attention: true,
  },
  {
    key: "highRiskCalls24h",
    label: "High-risk calls (24h)",
    zero: "No high-risk tool calls in the last 24 hours",
    some: "Calls to actions marked high risk in the last 24 hours",
    attention: true,
  },
  {
    key: "rateLimited24h",
    label: "Rate-limited (24h)",
    zero: "No calls rate-limited in the last 24 hours",
    some: "Calls held back by a rate limit in the last 24 hours",
    attention: true,
  },
  {
    key: "runtimeSlots",
    label: "Runtime slots",
    zero: "No runtime capacity configured yet",
    some: "Tool server processes that can run at once",
  },
];

const numberFormat = new Intl.NumberFormat("en-US");

/** Stat cards for the Tools & Access overview. Each card has `data-testid="overview-stat-<key>"`. */
export function OverviewCards({ counts, className }: OverviewCardsProps) {
  return (
    <dl className={cn("grid gap-4 sm:grid-cols-2 lg:grid-cols-3", className)}>
      {STATS.map((stat) => {
        const raw = counts[stat.key];
        const value = Number.isFinite(raw) ? raw : 0;
        const highlight = stat.attention && value > 0;
        return (
          <div
            key={stat.key}
            data-testid={`overview-stat-${stat.key}`}
            data-value={value}
            className={cn(
              "rounded-lg border bg-white px-5 py-4 shadow-xs",
              highlight ? "border-amber-300" : "border-zinc-200",
            )}
          >
            <dt className="text-sm font-medium text-zinc-600">{stat.label}</dt>
            <dd className="mt-1">
              <span
                className={cn(
                  "block text-3xl font-semibold tracking-tight tabular-nums",
                  value === 0 ? "text-zinc-500" : "text-zinc-900",
                )}
              >
                {numberFormat.format(value)}
              </span>
              <span className="mt-1 block text-sm text-zinc-500">{value === 0 ? stat.zero : stat.some}</span>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
