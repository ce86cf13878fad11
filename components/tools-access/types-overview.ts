import type { Wire } from "@/server/contracts/api/common";
import type {
  CallBucket as CallBucketSchema,
  CallSeries as CallSeriesSchema,
  OverviewInbox as OverviewInboxSchema,
  ToolsOverview as ToolsOverviewSchema,
  TopDeniedTools as TopDeniedToolsSchema,
} from "@/server/contracts/api/overview";

/** What the overview page receives (server/tools/overview.ts), dates as ISO strings. */
export type ToolsOverviewData = Wire<typeof ToolsOverviewSchema>;
export type OverviewInboxData = Wire<typeof OverviewInboxSchema>;
export type CallSeriesData = Wire<typeof CallSeriesSchema>;
export type CallBucketData = Wire<typeof CallBucketSchema>;
export type TopDeniedToolsData = Wire<typeof TopDeniedToolsSchema>;

/** The places the overview links to, under a company's Tools & Access. */
export function overviewHrefs(companyId: string) {
  const base = `/c/${encodeURIComponent(companyId)}/settings/tools`;
  const audit = (params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params).toString();
    return `${base}/audit${query ? `?${query}` : ""}`;
  };
  return {
    applications: `${base}/applications`,
    connections: `${base}/connections`,
    connection: (id: string) => `${base}/connections?connection=${encodeURIComponent(id)}`,
    approvals: `${base}/approvals`,
    issue: (identifier: string) =>
      `/c/${encodeURIComponent(companyId)}/issues/${encodeURIComponent(identifier)}`,
    runtime: `${base}/runtime`,
    examples: `${base}/examples`,
    audit,
  };
}
