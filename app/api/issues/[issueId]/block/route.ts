import { BlockIssueInput, blockIssue } from "@/server/core/issue-updates";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: IssueParams, body: BlockIssueInput },
  ({ ctx, params, body }) => blockIssue(ctx, params.issueId, body),
);
