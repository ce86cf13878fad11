import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { listTargets } from "@/server/tools/lookups";

export const GET = route({ actors: ["board"], params: CompanyParams }, ({ ctx, params }) =>
  listTargets(ctx, params.companyId),
);
