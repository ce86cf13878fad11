import "server-only";
// The issue page's work panel: status controls, documents, deliverables and the history,
// loaded with the person's own context and wired to the actions of ./issue-work-actions.ts.
import { DeliverablesCard } from "@/components/issues/DeliverablesCard";
import { DocumentsCard } from "@/components/issues/DocumentsCard";
import { IssueHistoryList } from "@/components/issues/IssueHistoryList";
import { StatusControls } from "@/components/issues/StatusControls";
import type { ServiceContext } from "@/server/context";
import type { IssueStatus } from "@/server/contracts/values";
import { getDocument, listDocuments } from "@/server/core/documents";
import { allowedTransitions } from "@/server/core/issue-transitions";
import { isPerson, issueHistory } from "@/server/core/issue-updates";
import { listWorkProducts } from "@/server/core/work-products";
import { type IssueWorkForm, issueWorkAction } from "./issue-work-actions";
import { iso } from "./session";

export async function IssueWorkPanel({
  ctx,
  companyId,
  issue,
  canEdit,
  now,
}: {
  ctx: ServiceContext;
  companyId: string;
  issue: { id: string; status: IssueStatus; blockedReason: string | null };
  canEdit: boolean;
  now: string;
}) {
  const [docs, deliverables, history] = await Promise.all([
    listDocuments(ctx, issue.id),
    listWorkProducts(ctx, issue.id),
    issueHistory(ctx, issue.id, { limit: 50 }),
  ]);
  const documents = await Promise.all(docs.map((d) => getDocument(ctx, issue.id, d.key)));
  const bound = (name: IssueWorkForm) => issueWorkAction.bind(null, name, companyId, issue.id);
  return (
    <div className="space-y-6" data-testid="issue-work">
      <StatusControls
        status={issue.status}
        allowed={allowedTransitions(issue.status, isPerson(ctx.actor))}
        blockedReason={issue.blockedReason}
        canEdit={canEdit}
        finishAction={bound("finish")}
        blockAction={bound("block")}
        moveAction={bound("move")}
      />
      <DocumentsCard
        documents={documents.map((d) => ({ ...d, updatedAt: iso(d.updatedAt)! }))}
        canEdit={canEdit}
        saveAction={bound("document")}
        now={now}
      />
      <DeliverablesCard
        deliverables={deliverables.map((w) => ({ ...w, updatedAt: iso(w.updatedAt)! }))}
        canEdit={canEdit}
        registerAction={bound("deliverable")}
      />
      <IssueHistoryList
        events={history.events.map((e) => ({ ...e, createdAt: iso(e.createdAt)! }))}
        now={now}
      />
    </div>
  );
}
