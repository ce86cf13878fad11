import { getCompany } from "@/server/core/companies";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, ({ ctx, params }) =>
  getCompany(ctx, params.companyId),
);
