import { getIssue } from "@/server/core/issues";
import { IssueParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board", "agent"], params: IssueParams }, ({ ctx, params }) =>
  getIssue(ctx, params.issueId),
);
