import { CreateIssueInput, createIssue, ListIssuesQuery, listIssues } from "@/server/core/issues";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateIssueInput, status: 201 },
  ({ ctx, params, body }) => createIssue(ctx, params.companyId, body),
);

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: ListIssuesQuery },
  async ({ ctx, params, query }) => ({ issues: await listIssues(ctx, params.companyId, query) }),
);
