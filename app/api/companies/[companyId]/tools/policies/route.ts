import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { CreatePolicyInput, createPolicy, listPolicies } from "@/server/tools/policies";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  policies: await listPolicies(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreatePolicyInput, status: 201 },
  ({ ctx, params, body }) => createPolicy(ctx, params.companyId, body),
);
