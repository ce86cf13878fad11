import { headers } from "next/headers";
import type { ReactNode } from "react";
import { isSectionKey } from "@/components/tools-access/sections";
import { ToolsAccessNav } from "@/components/tools-access/ToolsAccessNav";
import { PageHeader } from "@/components/ui/PageHeader";

export default async function ToolsAccessLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ companyId: string }>;
}) {
  const { companyId } = await params;
  const path = (await headers()).get("x-pathname") ?? "";
  const segment = path.split("/settings/tools/")[1]?.split("/")[0] ?? "overview";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Tools & Access"
        description="Which tools this company's agents can discover and call, under which rules, with every call audited."
      />
      <ToolsAccessNav companyId={companyId} active={isSectionKey(segment) ? segment : "overview"} />
      {children}
    </div>
  );
}
