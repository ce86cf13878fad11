import { route } from "@/server/http/route";
import { StdioTemplateParams } from "@/server/http/runtime-params";
import { disableStdioTemplate } from "@/server/runtime/templates";

export const POST = route({ actors: ["board"], params: StdioTemplateParams }, ({ ctx, params }) =>
  disableStdioTemplate(ctx, params.companyId, params.templateId),
);
