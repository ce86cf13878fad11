import { ListApprovalsQuery, listFormalApprovals } from "@/server/approvals/formal";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: ListApprovalsQuery },
  async ({ ctx, params, query }) => ({
    approvals: await listFormalApprovals(ctx, params.companyId, query),
  }),
);
