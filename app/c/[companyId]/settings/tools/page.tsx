import type { Metadata } from "next";
import { ToolsOverview } from "@/components/tools-access/ToolsOverview";
import type { ToolsOverviewData } from "@/components/tools-access/types-overview";
import { getToolsOverview } from "@/server/tools/overview";
import { companyPage } from "../../../../_lib/company-page";
import { toClient } from "../../../../_lib/serialize";

export const metadata: Metadata = { title: "Tools & Access" };

export default companyPage(async ({ ctx, companyId }) => (
  <ToolsOverview
    companyId={companyId}
    overview={toClient<ToolsOverviewData>(await getToolsOverview(ctx, companyId))}
  />
));
