import type { Metadata } from "next";
import { ToolsOverview } from "@/components/tools-access/ToolsOverview";
import type { SmokeAllResult } from "@/components/tools-access/types-examples";
import type { ToolsOverviewData } from "@/components/tools-access/types-overview";
import { lastSmokeResults } from "@/server/examples/smoke-all";
import { getToolsOverview } from "@/server/tools/overview";
import { companyPage } from "../../../../_lib/company-page";
import { toClient } from "../../../../_lib/serialize";

export const metadata: Metadata = { title: "Tools & Access" };

export default companyPage(async ({ ctx, can, companyId }) => {
  const [overview, smoke] = await Promise.all([
    getToolsOverview(ctx, companyId),
    // The smoke run is an admin's tool (it runs in the instance's hidden smoke companies).
    can("tools:admin") ? lastSmokeResults(ctx, companyId) : null,
  ]);
  return (
    <ToolsOverview
      companyId={companyId}
      overview={toClient<ToolsOverviewData>(overview)}
      smoke={smoke ? toClient<SmokeAllResult>(smoke) : null}
    />
  );
});
