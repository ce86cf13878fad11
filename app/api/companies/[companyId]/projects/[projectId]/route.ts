import { getProject, UpdateProjectInput, updateProject } from "@/server/core/projects";
import { CompanyProjectParams } from "@/server/http/config-params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyProjectParams }, ({ ctx, params }) =>
  getProject(ctx, params.companyId, params.projectId),
);

export const PATCH = route(
  { actors: ["board"], params: CompanyProjectParams, body: UpdateProjectInput },
  ({ ctx, params, body }) => updateProject(ctx, params.companyId, params.projectId, body),
);
