import type { Metadata } from "next";
import { revalidatePath } from "next/cache";
import { CommentForm } from "@/components/issues/CommentForm";
import { IssueThread } from "@/components/issues/IssueThread";
import { addComment, CreateCommentInput, getIssue } from "@/server/core/issues";
import { iso, orNotFound, requireCompanyPage, requireUserContext } from "../../../../_lib/session";

export const metadata: Metadata = { title: "Issue" };

export default async function IssuePage({
  params,
}: {
  params: Promise<{ companyId: string; issueId: string }>;
}) {
  const { companyId, issueId } = await params;
  const { ctx, can } = await requireCompanyPage(companyId);
  const issue = await orNotFound(getIssue(ctx, issueId));
  if (issue.companyId !== companyId) return orNotFound(Promise.reject(new Error("wrong company")));

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
      <CommentForm action={commentAction} />
    </IssueThread>
  );
}
