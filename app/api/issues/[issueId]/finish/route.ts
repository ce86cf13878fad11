import { FinishIssueInput, finishIssue } from "@/server/core/issue-updates";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: IssueParams, body: FinishIssueInput },
  ({ ctx, params, body }) => finishIssue(ctx, params.issueId, body),
);
