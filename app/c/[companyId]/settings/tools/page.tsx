import type { Metadata } from "next";
import { OverviewCards } from "@/components/tools-access/OverviewCards";
import { getToolsOverview } from "@/server/tools/overview";
import { requireCompanyPage } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Tools & Access" };

export default async function ToolsOverviewPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx } = await requireCompanyPage(companyId);
  const counts = await getToolsOverview(ctx, companyId);
  return <OverviewCards counts={counts} />;
}
