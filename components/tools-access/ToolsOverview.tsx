import { OverviewCards } from "./OverviewCards";
import { OverviewCharts } from "./OverviewCharts";
import { OverviewInbox } from "./OverviewInbox";
import { OverviewSmoke } from "./OverviewSmoke";
import type { SmokeAllResult } from "./types-examples";
import type { ToolsOverviewData } from "./types-overview";

/** The Tools & Access overview: what needs a person first, then the counts, then the charts. */
export function ToolsOverview({
  companyId,
  overview,
  smoke = null,
  now,
}: {
  companyId: string;
  overview: ToolsOverviewData;
  /** The last smoke run's results; null when the viewer may not see them (not `tools:admin`). */
  smoke?: SmokeAllResult | null;
  /** Reference time for relative times (stories pass a fixed one). */
  now?: string;
}) {
  return (
    <div className="space-y-6">
      <OverviewInbox companyId={companyId} inbox={overview.inbox} now={now} />
      <section aria-labelledby="overview-counts-heading" className="space-y-3">
        <h2 id="overview-counts-heading" className="text-base font-semibold text-zinc-900">
          At a glance
        </h2>
        <OverviewCards companyId={companyId} counts={overview.counts} />
      </section>
      <OverviewCharts
        companyId={companyId}
        calls24h={overview.calls24h}
        calls7d={overview.calls7d}
        topDenied={overview.topDenied}
      />
      {smoke ? <OverviewSmoke companyId={companyId} smoke={smoke} now={now} /> : null}
    </div>
  );
}
