import { listExamples } from "@/server/examples/examples";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  examples: await listExamples(ctx, params.companyId),
}));
