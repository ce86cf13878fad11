import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { CreateApplicationInput, createApplication, listApplications } from "@/server/tools/applications";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  applications: await listApplications(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateApplicationInput, status: 201 },
  ({ ctx, params, body }) => createApplication(ctx, params.companyId, body),
);
