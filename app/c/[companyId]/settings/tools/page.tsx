import type { Metadata } from "next";
import { OverviewCards } from "@/components/tools-access/OverviewCards";
import { getToolsOverview } from "@/server/tools/overview";
import { companyPage } from "../../../../_lib/company-page";

export const metadata: Metadata = { title: "Tools & Access" };

export default companyPage(async ({ ctx, companyId }) => (
  <OverviewCards counts={(await getToolsOverview(ctx, companyId)).counts} />
));
