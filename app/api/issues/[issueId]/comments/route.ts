import { addComment, CreateCommentInput } from "@/server/core/issues";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board", "agent"], params: IssueParams, body: CreateCommentInput, status: 201 },
  ({ ctx, params, body }) => addComment(ctx, params.issueId, body),
);
