import { CompanyAgentParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { EffectiveToolsQuery, getEffectiveTools } from "@/server/tools/effective";

export const GET = route(
  { actors: ["board"], params: CompanyAgentParams, query: EffectiveToolsQuery },
  ({ ctx, params, query }) => getEffectiveTools(ctx, params.companyId, params.agentId, query),
);
