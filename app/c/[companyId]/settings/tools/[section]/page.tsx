import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SectionEmpty } from "@/components/tools-access/SectionEmpty";
import { getToolsAccessSection, isSectionKey, type SectionKey } from "@/components/tools-access/sections";
import { requireCompanyPage } from "../../../../../_lib/session";

export const metadata: Metadata = { title: "Tools & Access" };

// Each section is honestly empty until the work that fills it lands: no sample data.
const EMPTY: Partial<Record<SectionKey, { title: string; whatArrives: string }>> = {
  runtime: {
    title: "No runtime slots",
    whatArrives:
      "Supervised local MCP processes with their health, idle state, restarts and stop/restart controls.",
  },
};

export default async function ToolsSectionPage({
  params,
}: {
  params: Promise<{ companyId: string; section: string }>;
}) {
  const { companyId, section } = await params;
  if (!isSectionKey(section) || section === "overview") notFound();
  await requireCompanyPage(companyId);
  const meta = getToolsAccessSection(section);
  const empty = EMPTY[section];
  if (!empty) notFound();
  return (
    <SectionEmpty
      title={empty.title}
      description={meta.description}
      whatArrives={empty.whatArrives}
      data-testid={`section-empty-${section}`}
    />
  );
}
