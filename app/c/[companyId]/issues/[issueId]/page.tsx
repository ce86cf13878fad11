import type { Metadata } from "next";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AttachmentsCard } from "@/components/issues/AttachmentsCard";
import { CommentForm } from "@/components/issues/CommentForm";
import { IssueThread } from "@/components/issues/IssueThread";
import { attachmentCardItems } from "@/server/core/attachments";
import { resolveIssueRef } from "@/server/core/issue-search";
import { addComment, CreateCommentInput, getIssue } from "@/server/core/issues";
import { companyPage } from "../../../../_lib/company-page";
import { IssueWorkPanel } from "../../../../_lib/issue-work";
import { inCompany, iso, orNotFound, requireUserContext } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Issue" };

export default companyPage<{ issueId: string }>(async ({ ctx, can, companyId, params: { issueId } }) => {
  // An issue key (`ACME-12`) is a URL too: it leads to the issue's canonical (UUID) page.
  if (!z.uuid().safeParse(issueId).success)
    redirect(
      `/c/${companyId}/issues/${await orNotFound(resolveIssueRef(ctx, companyId, decodeURIComponent(issueId)))}`,
    );
  const issue = await inCompany(companyId, getIssue(ctx, issueId));

  async function commentAction(formData: FormData) {
    "use server";
    const actionCtx = await requireUserContext();
    const input = CreateCommentInput.safeParse({ body: formData.get("body") });
    if (!input.success) return; // the textarea is required; an all-blank comment is ignored
    await addComment(actionCtx, issueId, input.data);
    revalidatePath(`/c/${companyId}/issues/${issueId}`);
  }

  return (
    <IssueThread
      companyId={companyId}
      canReview={can("tools:approve")}
      now={new Date().toISOString()}
      issue={{
        id: issue.id,
        identifier: issue.identifier,
        title: issue.title,
        body: issue.body,
        status: issue.status,
        assigneeName: issue.assigneeName,
        projectName: issue.projectName,
        parentIdentifier: issue.parentIdentifier,
        parentId: issue.parentId,
        createdByName: issue.createdByName,
        createdViaClient: issue.createdVia ? (issue.createdVia.clientName ?? "an assistant") : null,
        createdAt: iso(issue.createdAt)!,
        updatedAt: iso(issue.updatedAt)!,
      }}
      comments={issue.comments.map((c) => ({
        id: c.id,
        authorType: c.authorType as "user" | "agent" | "system",
        authorName: c.authorName,
        kind: c.kind as "text" | "action_card" | "event",
        body: c.body,
        payload: c.payload ?? null,
        createdAt: iso(c.createdAt)!,
      }))}
    >
      <AttachmentsCard
        issueId={issueId}
        canUpload={can("work:write")}
        {...(await attachmentCardItems(ctx, issueId))}
      />
      <CommentForm action={commentAction} />
      <IssueWorkPanel
        ctx={ctx}
        companyId={companyId}
        issue={issue}
        canEdit={can("work:write")}
        now={new Date().toISOString()}
      />
    </IssueThread>
  );
});
