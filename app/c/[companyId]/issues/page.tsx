import type { Metadata } from "next";
import { IssueList } from "@/components/issues/IssueList";
import { listIssues } from "@/server/core/issues";
import { companyPage } from "../../../_lib/company-page";
import { iso } from "../../../_lib/session";

export const metadata: Metadata = { title: "Issues" };

export default companyPage(
  async ({ ctx, companyId }) => (
    <IssueList
      companyId={companyId}
      now={new Date().toISOString()}
      issues={(await listIssues(ctx, companyId, { limit: 200 })).map((i) => ({
        id: i.id,
        identifier: i.identifier,
        title: i.title,
        status: i.status,
        assigneeName: i.assigneeName,
        projectName: i.projectName,
        updatedAt: iso(i.updatedAt)!,
      }))}
    />
  ),
  { header: { title: "Issues", description: "Work items for people and agents." } },
);
