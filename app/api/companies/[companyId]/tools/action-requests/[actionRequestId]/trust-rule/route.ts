import { CreateTrustRuleInput, createTrustRuleFromRequest } from "@/server/approvals/trust-rules";
import { ActionRequestParams } from "@/server/http/params";
import { route } from "@/server/http/route";

// Creates a pending trust rule and the formal approval that activates it.
export const POST = route(
  { actors: ["board"], params: ActionRequestParams, body: CreateTrustRuleInput, status: 201 },
  ({ ctx, params, body }) => createTrustRuleFromRequest(ctx, params.companyId, params.actionRequestId, body),
);
