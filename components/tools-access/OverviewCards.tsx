import Link from "next/link";
import type { OverviewCounts } from "../types";
import { cn } from "../ui/cn";
import { overviewHrefs } from "./types-overview";

export type { OverviewCounts } from "../types";

export interface OverviewCardsProps {
  companyId: string;
  counts: OverviewCounts;
  className?: string;
}

type Hrefs = ReturnType<typeof overviewHrefs>;

interface StatDef {
  key: keyof OverviewCounts;
  label: string;
  /** Hint when the value is zero. */
  zero: string;
  /** Hint when the value is above zero: what exactly was counted. */
  some: string;
  /** Where a person reads the rows behind the figure. */
  href: (to: Hrefs) => string;
  /** Highlight non-zero values (for things worth a look). */
  attention?: boolean;
}

// Each caption says what the query counts (server/tools/overview.ts), nothing more.
const STATS: StatDef[] = [
  {
    key: "applications",
    label: "Enabled applications",
    zero: "No applications registered yet",
    some: "Tool sources registered and not archived",
    href: (to) => to.applications,
  },
  {
    key: "activeConnections",
    label: "Active connections",
    zero: "No connection is enabled for agents yet",
    some: "Enabled for agents' calls (health and secrets are checked per call)",
    href: (to) => to.connections,
  },
  {
    key: "denials24h",
    label: "Denied calls (24h)",
    zero: "No tool calls refused in the last 24 hours",
    some: "Refused for any reason: policy, not in the profile, unknown tool, missing secret…",
    href: (to) => to.audit({ decision: "deny" }),
    attention: true,
  },
  {
    key: "highRiskCalls24h",
    label: "High-risk calls (24h)",
    zero: "No write or destructive calls ran in the last 24 hours",
    some: "Write or destructive calls that started running in the last 24 hours",
    href: (to) => to.audit({ event: "execution_started" }),
    attention: true,
  },
  {
    key: "rateLimited24h",
    label: "Rate-limited (24h)",
    zero: "No calls held back by a rate limit in the last 24 hours",
    some: "Calls refused because a rate-limit policy's budget was spent",
    href: (to) => to.audit({ decision: "rate_limited" }),
    attention: true,
  },
  {
    key: "runtimeSlots",
    label: "Runtime slots",
    zero: "No local tool server is running now",
    some: "Local tool server processes running now (starting, busy or idle)",
    href: (to) => to.runtime,
  },
];

const numberFormat = new Intl.NumberFormat("en-US");

/**
 * The ADR's counts for the Tools & Access overview, each a link to the rows behind it. Each card
 * has `data-testid="overview-stat-<key>"`.
 */
export function OverviewCards({ companyId, counts, className }: OverviewCardsProps) {
  const to = overviewHrefs(companyId);
  return (
    <ul className={cn("grid gap-4 sm:grid-cols-2 lg:grid-cols-3", className)} aria-label="Counts">
      {STATS.map((stat) => {
        const raw = counts[stat.key];
        const value = Number.isFinite(raw) ? raw : 0;
        const highlight = stat.attention && value > 0;
        return (
          <li key={stat.key}>
            <Link
              href={stat.href(to)}
              data-testid={`overview-stat-${stat.key}`}
              data-value={value}
              className={cn(
                "block h-full rounded-lg border bg-white px-5 py-4 shadow-xs transition-colors hover:bg-zinc-50",
                "focus-visible:outline-2 focus-visible:outline-offset-2",
                highlight ? "border-amber-300" : "border-zinc-200",
              )}
            >
              <span className="block text-sm font-medium text-zinc-600">{stat.label}</span>
              <span
                className={cn(
                  "mt-1 block text-3xl font-semibold tracking-tight tabular-nums",
                  value === 0 ? "text-zinc-500" : "text-zinc-900",
                )}
              >
                {numberFormat.format(value)}
              </span>
              <span className="mt-1 block text-sm text-zinc-600">{value === 0 ? stat.zero : stat.some}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
