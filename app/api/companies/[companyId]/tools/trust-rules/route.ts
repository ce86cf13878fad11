import { listTrustRules } from "@/server/approvals/trust-rules";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  trustRules: await listTrustRules(ctx, params.companyId),
}));
