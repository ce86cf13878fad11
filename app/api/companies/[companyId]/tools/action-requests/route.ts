import { ListActionRequestsQuery, listActionRequests } from "@/server/approvals/review";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: ListActionRequestsQuery },
  async ({ ctx, params, query }) => ({
    actionRequests: await listActionRequests(ctx, params.companyId, query),
  }),
);
