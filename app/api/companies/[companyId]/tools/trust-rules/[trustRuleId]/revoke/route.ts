import { revokeTrustRule } from "@/server/approvals/trust-rules";
import { TrustRuleParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route({ actors: ["board"], params: TrustRuleParams }, ({ ctx, params }) =>
  revokeTrustRule(ctx, params.companyId, params.trustRuleId),
);
