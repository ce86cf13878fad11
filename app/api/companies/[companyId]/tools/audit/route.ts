import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { AuditQuery, listAuditEvents } from "@/server/tools/audit-log";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: AuditQuery },
  ({ ctx, params, query }) => listAuditEvents(ctx, params.companyId, query),
);
