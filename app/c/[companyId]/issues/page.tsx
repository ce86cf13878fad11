import type { Metadata } from "next";
import { IssueList } from "@/components/issues/IssueList";
import { PageHeader } from "@/components/ui/PageHeader";
import { listIssues } from "@/server/core/issues";
import { iso, requireCompanyPage } from "../../../_lib/session";

export const metadata: Metadata = { title: "Issues" };

export default async function IssuesPage({ params }: { params: Promise<{ companyId: string }> }) {
  const { companyId } = await params;
  const { ctx } = await requireCompanyPage(companyId);
  const issues = await listIssues(ctx, companyId, { limit: 200 });
  return (
    <div className="space-y-6">
      <PageHeader title="Issues" description="Work items for people and agents." />
      <IssueList
        companyId={companyId}
        now={new Date().toISOString()}
        issues={issues.map((i) => ({
          id: i.id,
          identifier: i.identifier,
          title: i.title,
          status: i.status,
          assigneeName: i.assigneeName,
          projectName: i.projectName,
          updatedAt: iso(i.updatedAt)!,
        }))}
      />
    </div>
  );
}
