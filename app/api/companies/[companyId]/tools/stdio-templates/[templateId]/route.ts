import { route } from "@/server/http/route";
import { StdioTemplateParams } from "@/server/http/runtime-params";
import { getStdioTemplate } from "@/server/runtime/templates";

export const GET = route({ actors: ["board"], params: StdioTemplateParams }, ({ ctx, params }) =>
  getStdioTemplate(ctx, params.companyId, params.templateId),
);
