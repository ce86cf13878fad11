import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { AuditCallsQuery, listAuditCalls } from "@/server/tools/audit-calls";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: AuditCallsQuery },
  ({ ctx, params, query }) => listAuditCalls(ctx, params.companyId, query),
);
