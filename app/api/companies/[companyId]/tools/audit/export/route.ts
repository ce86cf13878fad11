import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { AuditExportQuery, exportAuditCalls } from "@/server/tools/audit-export";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: AuditExportQuery },
  ({ ctx, params, query }) => exportAuditCalls(ctx, params.companyId, query),
);
