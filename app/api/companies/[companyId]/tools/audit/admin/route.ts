import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { AdminChangesQuery, listAdminChanges } from "@/server/tools/audit-admin";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: AdminChangesQuery },
  ({ ctx, params, query }) => listAdminChanges(ctx, params.companyId, query),
);
