import { PolicyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { deletePolicy, UpdatePolicyInput, updatePolicy } from "@/server/tools/policies";

export const PATCH = route(
  { actors: ["board"], params: PolicyParams, body: UpdatePolicyInput },
  ({ ctx, params, body }) => updatePolicy(ctx, params.companyId, params.policyId, body),
);

export const DELETE = route({ actors: ["board"], params: PolicyParams }, ({ ctx, params }) =>
  deletePolicy(ctx, params.companyId, params.policyId),
);
