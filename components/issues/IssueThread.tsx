import Link from "next/link";
import type { ReactNode } from "react";
import { issueStatusTone } from "@/components/labels";
import { ActionCard } from "../approvals/ActionCard";
import type { DateInput } from "../format";
import { humanize } from "../format";
import type { IssueComment, IssueDetail } from "../types";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { KeyValueList } from "../ui/KeyValueList";
import { PageHeader } from "../ui/PageHeader";
import { RelativeTime } from "../ui/RelativeTime";
import { CreatedBy, ViaClient, viaClientOf } from "./Attribution";

export type { IssueComment, IssueDetail } from "../types";

export interface IssueThreadProps {
  companyId: string;
  issue: IssueDetail;
  /** Oldest first. */
  comments: IssueComment[];
  /** Reference time for relative dates. */
  now?: DateInput;
  /** Rendered below the thread, typically a `CommentForm`. */
  children?: ReactNode;
  /** Shows the review actions (approve, decline, execute) on action cards. Defaults to false. */
  canReview?: boolean;
}

function TextComment({ comment, now }: { comment: IssueComment; now?: DateInput }) {
  const mine = comment.authorType === "user";
  return (
    <li
      data-testid="comment"
      data-kind="text"
      data-comment-id={comment.id}
      className={cn("flex", mine ? "justify-end" : "justify-start")}
    >
      <div className="max-w-[85%] sm:max-w-[75%]">
        <div
          className={cn(
            "mb-1 flex items-baseline gap-2 text-xs text-zinc-500",
            mine ? "justify-end" : "justify-start",
          )}
        >
          <span className="font-medium text-zinc-700">{comment.authorName}</span>
          <ViaClient clientName={viaClientOf(comment)} />
          {comment.authorType === "agent" ? <Badge tone="info">Agent</Badge> : null}
          <RelativeTime value={comment.createdAt} now={now} />
        </div>
        <div
          className={cn(
            "rounded-2xl px-4 py-2.5 text-sm leading-relaxed whitespace-pre-wrap break-words",
            mine
              ? "rounded-tr-sm bg-accent-600 text-white"
              : "rounded-tl-sm border border-zinc-200 bg-white text-zinc-900",
          )}
        >
          {comment.body}
        </div>
      </div>
    </li>
  );
}

function EventComment({ comment, now }: { comment: IssueComment; now?: DateInput }) {
  return (
    <li
      data-testid="comment"
      data-kind="event"
      data-comment-id={comment.id}
      className="flex items-center gap-2 px-1 text-xs text-zinc-500"
    >
      <span aria-hidden="true" className="size-1.5 shrink-0 rounded-full bg-zinc-300" />
      <span className="min-w-0">
        <span className="font-medium text-zinc-600">{comment.authorName}</span> {comment.body}
      </span>
      <span aria-hidden="true">·</span>
      <RelativeTime value={comment.createdAt} now={now} className="shrink-0" />
    </li>
  );
}

function ActionCardComment({
  companyId,
  comment,
  canReview,
  now,
}: {
  companyId: string;
  comment: IssueComment;
  canReview: boolean;
  now?: DateInput;
}) {
  return (
    <li data-testid="comment" data-kind="action_card" data-comment-id={comment.id}>
      <ActionCard companyId={companyId} comment={comment} canReview={canReview} now={now} />
    </li>
  );
}

/** Issue header, description, metadata and the comment thread. */
export function IssueThread({
  companyId,
  issue,
  comments,
  now,
  children,
  canReview = false,
}: IssueThreadProps) {
  const base = `/c/${encodeURIComponent(companyId)}`;
  const parent = issue.parentIdentifier ? (
    issue.parentId ? (
      <Link
        href={`${base}/issues/${encodeURIComponent(issue.parentId)}`}
        className={cn("rounded font-mono text-xs hover:text-accent-700 hover:underline", focusRing)}
      >
        {issue.parentIdentifier}
      </Link>
    ) : (
      <span className="font-mono text-xs">{issue.parentIdentifier}</span>
    )
  ) : null;

  return (
    <div className="space-y-6" data-testid="issue-thread">
      <PageHeader
        eyebrow={
          <span className="flex items-center gap-2">
            <Link href={`${base}/issues`} className={cn("rounded hover:text-zinc-800", focusRing)}>
              Issues
            </Link>
            <span aria-hidden="true">/</span>
            <span className="font-mono text-xs">{issue.identifier}</span>
          </span>
        }
        title={issue.title}
        actions={
          <Badge tone={issueStatusTone(issue.status)} data-testid="issue-status">
            {humanize(issue.status)}
          </Badge>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card>
            <CardBody>
              {issue.body?.trim() ? (
                <div className="text-sm leading-relaxed whitespace-pre-wrap break-words text-zinc-800">
                  {issue.body}
                </div>
              ) : (
                <p className="text-sm text-zinc-500">No description.</p>
              )}
            </CardBody>
          </Card>
          <section aria-labelledby={`issue-${issue.id}-activity`} className="space-y-4">
            <h2 id={`issue-${issue.id}-activity`} className="text-base font-semibold text-zinc-900">
              Activity
            </h2>
            {comments.length === 0 ? (
              <p className="text-sm text-zinc-500" data-testid="comments-empty">
                No comments yet.
              </p>
            ) : (
              <ol className="space-y-4" data-testid="comment-list">
                {comments.map((comment) => {
                  if (comment.kind === "event")
                    return <EventComment key={comment.id} comment={comment} now={now} />;
                  if (comment.kind === "action_card")
                    return (
                      <ActionCardComment
                        key={comment.id}
                        companyId={companyId}
                        comment={comment}
                        canReview={canReview}
                        now={now}
                      />
                    );
                  return <TextComment key={comment.id} comment={comment} now={now} />;
                })}
              </ol>
            )}
            {children}
          </section>
        </div>
        <Card className="h-fit">
          <CardHeader title="Details" titleAs="h2" />
          <CardBody className="py-2">
            <KeyValueList
              items={[
                { label: "Status", value: humanize(issue.status) },
                { label: "Assignee", value: issue.assigneeName ?? "Unassigned" },
                { label: "Project", value: issue.projectName },
                { label: "Parent", value: parent },
                ...(issue.createdByName
                  ? [
                      {
                        label: "Created by",
                        value: <CreatedBy name={issue.createdByName} viaClient={issue.createdViaClient} />,
                      },
                    ]
                  : []),
                ...(issue.createdAt
                  ? [{ label: "Created", value: <RelativeTime value={issue.createdAt} now={now} /> }]
                  : []),
                ...(issue.updatedAt
                  ? [{ label: "Updated", value: <RelativeTime value={issue.updatedAt} now={now} /> }]
                  : []),
              ]}
            />
          </CardBody>
        </Card>
      </div>
    </div>
  );
}
