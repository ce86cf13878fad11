import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { InvocationsQuery, listInvocations } from "@/server/tools/audit-log";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: InvocationsQuery },
  ({ ctx, params, query }) => listInvocations(ctx, params.companyId, query),
);
