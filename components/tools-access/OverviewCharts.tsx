"use client";

import Link from "next/link";
import { parseAsStringLiteral, useQueryState } from "nuqs";
import { useEffect, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { codeLabel, REASON_LABELS } from "@/components/labels";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { CodeLabel } from "../ui/CodeLabel";
import { cn } from "../ui/cn";
import {
  type CallBucketData,
  type CallSeriesData,
  overviewHrefs,
  type TopDeniedToolsData,
} from "./types-overview";

/** The series of the calls chart, stacked in this order, with their colours. */
export const CALL_SERIES = [
  { key: "allow", label: "Allowed", color: "#16a34a" },
  { key: "deny", label: "Denied", color: "#dc2626" },
  { key: "approval_required", label: "Needed approval", color: "#d97706" },
  { key: "rate_limited", label: "Rate-limited", color: "#7c3aed" },
  { key: "deferred", label: "Deferred", color: "#71717a" },
] as const satisfies readonly { key: keyof CallBucketData; label: string; color: string }[];

const RANGES = ["24h", "7d"] as const;
const RANGE_LABELS: Record<(typeof RANGES)[number], string> = { "24h": "Last 24 hours", "7d": "Last 7 days" };
/** The chart's height in px (its wrapper's `h-60`): ResponsiveContainer needs a fixed one. */
const CHART_HEIGHT = 240;

const hourFormat = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** A bucket's start as people read it (UTC, so the server's and the browser's text agree). */
export function bucketLabel(series: Pick<CallSeriesData, "bucket">, start: string): string {
  const date = new Date(start);
  return series.bucket === "hour" ? hourFormat.format(date) : dayFormat.format(date);
}

const total = (b: CallBucketData) => CALL_SERIES.reduce((n, s) => n + b[s.key], 0);

/** One sentence a screen reader (and everybody) can read instead of the bars. */
export function seriesSummary(series: CallSeriesData): string {
  const sums = Object.fromEntries(
    CALL_SERIES.map((s) => [s.key, series.buckets.reduce((n, b) => n + b[s.key], 0)]),
  ) as Record<(typeof CALL_SERIES)[number]["key"], number>;
  const all = Object.values(sums).reduce((a, b) => a + b, 0);
  const range = RANGE_LABELS[series.range].toLowerCase();
  if (all === 0) return `No governed calls in the ${range}.`;
  const parts = CALL_SERIES.filter((s) => s.key !== "deferred" || sums.deferred > 0).map(
    (s) => `${sums[s.key]} ${s.label.toLowerCase()}`,
  );
  const busiest = series.buckets.reduce((a, b) => (total(b) > total(a) ? b : a));
  return `${all} governed ${all === 1 ? "call" : "calls"} in the ${range}: ${parts.join(", ")}. Busiest ${
    series.bucket === "hour" ? "hour" : "day"
  }: ${bucketLabel(series, busiest.start)} UTC with ${total(busiest)}.`;
}

/** Renders children only in the browser: recharts measures the DOM, so on the server it would warn. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

export interface OverviewChartsProps {
  companyId: string;
  calls24h: CallSeriesData;
  calls7d: CallSeriesData;
  topDenied: TopDeniedToolsData;
  className?: string;
}

/**
 * Governed calls over time (stacked by decision; last 24 h hourly or 7 days daily, `?range=`)
 * and the most denied tools. Each chart has a text alternative: a summary and a table.
 */
export function OverviewCharts({ companyId, calls24h, calls7d, topDenied, className }: OverviewChartsProps) {
  const [range, setRange] = useQueryState("range", parseAsStringLiteral(RANGES).withDefault("24h"));
  const series = range === "7d" ? calls7d : calls24h;
  return (
    <div className={cn("grid gap-6 lg:grid-cols-3", className)}>
      <Card className="lg:col-span-2" data-testid="overview-calls-chart" data-range={series.range}>
        <CardHeader
          title="Governed calls"
          description="Every call the gateway decided, by decision."
          actions={
            <fieldset className="flex rounded-md border border-zinc-300 p-0.5">
              <legend className="sr-only">Time range</legend>
              {RANGES.map((r) => (
                <button
                  key={r}
                  type="button"
                  aria-pressed={series.range === r}
                  onClick={() => void setRange(r === "24h" ? null : r)}
                  data-testid={`overview-range-${r}`}
                  className={cn(
                    "rounded px-2.5 py-1 text-sm font-medium",
                    series.range === r ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100",
                  )}
                >
                  {RANGE_LABELS[r]}
                </button>
              ))}
            </fieldset>
          }
        />
        <CardBody>
          <CallsChart series={series} />
        </CardBody>
      </Card>
      <TopDeniedCard companyId={companyId} tools={topDenied} />
    </div>
  );
}

/** The stacked bars, their summary and (on request) the same figures as a table. */
export function CallsChart({ series }: { series: CallSeriesData }) {
  const mounted = useMounted();
  const data = series.buckets.map((b) => ({ ...b, label: bucketLabel(series, b.start) }));
  return (
    <figure className="space-y-3">
      <div aria-hidden="true" className="h-60" data-testid="overview-calls-bars">
        {mounted ? (
          <ResponsiveContainer
            width="100%"
            height={CHART_HEIGHT}
            initialDimension={{ width: 600, height: CHART_HEIGHT }}
          >
            <BarChart
              data={data}
              accessibilityLayer={false}
              margin={{ top: 4, right: 8, bottom: 0, left: -16 }}
            >
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e4e4e7" />
              <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#52525b" }} interval="preserveStartEnd" />
              <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#52525b" }} />
              <Tooltip cursor={{ fill: "#f4f4f5" }} />
              <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
              {CALL_SERIES.map((s) => (
                <Bar
                  key={s.key}
                  dataKey={s.key}
                  name={s.label}
                  stackId="calls"
                  fill={s.color}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        ) : null}
      </div>
      <figcaption className="text-sm text-zinc-700" data-testid="overview-calls-summary">
        {seriesSummary(series)}
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer text-zinc-700 underline-offset-2 hover:underline">
          Show as a table
        </summary>
        <div className="mt-2 max-h-72 overflow-auto">
          <table className="w-full text-left text-xs tabular-nums" data-testid="overview-calls-table">
            <caption className="sr-only">Governed calls per {series.bucket} (UTC), by decision</caption>
            <thead>
              <tr className="text-zinc-600">
                <th scope="col" className="py-1 pr-3 font-medium">
                  {series.bucket === "hour" ? "Hour (UTC)" : "Day (UTC)"}
                </th>
                {CALL_SERIES.map((s) => (
                  <th key={s.key} scope="col" className="py-1 pr-3 font-medium">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.map((b) => (
                <tr key={b.start} className="border-t border-zinc-100">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {b.label}
                  </th>
                  {CALL_SERIES.map((s) => (
                    <td key={s.key} className="py-1 pr-3">
                      {b[s.key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** The ten tools denied most in 7 days: bars drawn as a list, each tool a link to its denials. */
export function TopDeniedCard({ companyId, tools }: { companyId: string; tools: TopDeniedToolsData }) {
  const to = overviewHrefs(companyId);
  const max = Math.max(1, ...tools.map((t) => t.denials));
  return (
    <Card data-testid="overview-top-denied">
      <CardHeader title="Top denied tools" description="Last 7 days, with the most frequent reason." />
      <CardBody>
        {tools.length === 0 ? (
          <p className="text-sm text-zinc-600">No tool was denied in the last 7 days.</p>
        ) : (
          <ol className="space-y-3">
            {tools.map((t) => (
              <li key={t.toolName} data-testid="top-denied-row" data-tool={t.toolName}>
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <Link
                    href={to.audit({ decision: "deny", tool: t.toolName })}
                    className="min-w-0 truncate font-mono text-xs text-zinc-900 underline underline-offset-2 hover:text-zinc-600"
                    title={t.toolName}
                  >
                    {t.toolName}
                  </Link>
                  <span className="shrink-0 tabular-nums text-zinc-700">
                    {t.denials} {t.denials === 1 ? "denial" : "denials"}
                  </span>
                </div>
                {/* An SVG bar: the page CSP refuses style attributes in server-rendered HTML. */}
                <svg
                  className="mt-1 block h-1.5 w-full"
                  viewBox="0 0 100 1"
                  preserveAspectRatio="none"
                  aria-hidden="true"
                >
                  <rect width="100" height="1" className="fill-zinc-100" />
                  <rect width={(t.denials / max) * 100} height="1" className="fill-red-600" />
                </svg>
                {t.topReason ? (
                  <p className="mt-0.5 text-xs text-zinc-600">
                    <CodeLabel label={codeLabel(REASON_LABELS, t.topReason)} code={t.topReason} />
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </CardBody>
    </Card>
  );
}
