import { z } from "zod";
import { installTemplate, TemplateInstallInput } from "@/server/examples/templates";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

const Params = CompanyParams.extend({ templateId: z.string().regex(/^[a-z][a-z0-9-]{0,47}$/) });

export const POST = route(
  { actors: ["board"], params: Params, body: TemplateInstallInput, status: 201 },
  ({ ctx, params, body }) => installTemplate(ctx, params.companyId, params.templateId, body),
);
