import { UpdateIssueInput, updateIssue } from "@/server/core/issue-updates";
import { getIssue } from "@/server/core/issues";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board", "agent"], params: IssueParams }, ({ ctx, params }) =>
  getIssue(ctx, params.issueId),
);

export const PATCH = route(
  { actors: ["board"], params: IssueParams, body: UpdateIssueInput },
  ({ ctx, params, body }) => updateIssue(ctx, params.issueId, body),
);
