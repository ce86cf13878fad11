import { ListRunsQuery, listRuns } from "@/server/core/runs";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route(
  { actors: ["board"], params: CompanyParams, query: ListRunsQuery },
  async ({ ctx, params, query }) => ({ runs: await listRuns(ctx, params.companyId, query) }),
);
