import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import {
  CreateStdioTemplateInput,
  createStdioTemplate,
  listStdioTemplates,
} from "@/server/runtime/templates";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  templates: await listStdioTemplates(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateStdioTemplateInput, status: 201 },
  ({ ctx, params, body }) => createStdioTemplate(ctx, params.companyId, body),
);
