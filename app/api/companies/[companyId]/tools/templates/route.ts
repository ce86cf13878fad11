import { listTemplates } from "@/server/examples/templates";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  templates: await listTemplates(ctx, params.companyId),
}));
