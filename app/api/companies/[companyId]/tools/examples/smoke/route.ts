import { lastSmokeResults, runAllSmokeChecks } from "@/server/examples/smoke-all";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

// Admins of the calling company (`tools:admin`, as the example install and smoke routes): the
// checks run in the hidden smoke companies, never in the caller's.
export const POST = route({ actors: ["board"], params: CompanyParams }, ({ ctx, params }) =>
  runAllSmokeChecks(ctx, params.companyId),
);

export const GET = route({ actors: ["board"], params: CompanyParams }, ({ ctx, params }) =>
  lastSmokeResults(ctx, params.companyId),
);
