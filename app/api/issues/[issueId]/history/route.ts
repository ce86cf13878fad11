import { HistoryQuery, issueHistory } from "@/server/core/issue-updates";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route(
  { actors: ["board", "agent"], params: IssueParams, query: HistoryQuery },
  ({ ctx, params, query }) => issueHistory(ctx, params.issueId, query),
);
