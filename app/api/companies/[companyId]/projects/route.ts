import { CreateProjectInput, createProject, listProjects } from "@/server/core/projects";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateProjectInput, status: 201 },
  ({ ctx, params, body }) => createProject(ctx, params.companyId, body),
);

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  projects: await listProjects(ctx, params.companyId),
}));
