import { getCompany, UpdateCompanyPolicyInput, updateCompanyPolicy } from "@/server/core/companies";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, ({ ctx, params }) =>
  getCompany(ctx, params.companyId),
);

/** The company's policy settings (owners only). */
export const PATCH = route(
  { actors: ["board"], params: CompanyParams, body: UpdateCompanyPolicyInput },
  ({ ctx, params, body }) => updateCompanyPolicy(ctx, params.companyId, body),
);
