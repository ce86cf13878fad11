import { listIssueAttachments, uploadAttachment } from "@/server/core/attachments";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

/** The raw body is the file (no JSON body: the verb reads it with the attachment limit). */
export const POST = route(
  { actors: ["board", "agent"], params: IssueParams, status: 201 },
  ({ ctx, params, request }) => uploadAttachment(ctx, params.issueId, request),
);

export const GET = route({ actors: ["board", "agent"], params: IssueParams }, async ({ ctx, params }) => ({
  attachments: await listIssueAttachments(ctx, params.issueId),
}));
