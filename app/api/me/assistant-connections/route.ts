import { z } from "zod";
import { route, uuidParam } from "@/server/http/route";
import { listMyConnections } from "@/server/oauth/connections";

/** My assistant connections (all companies, or one with `?companyId=`). Browser sessions only. */
export const GET = route(
  { actors: ["board"], query: z.object({ companyId: uuidParam.optional() }) },
  async ({ ctx, query }) => ({ connections: await listMyConnections(ctx, query.companyId) }),
);
