import { SetProjectRepositoriesInput, setProjectRepositories } from "@/server/core/repositories";
import { ProjectParams } from "@/server/http/config-params";
import { route } from "@/server/http/route";

export const PUT = route(
  { actors: ["board"], params: ProjectParams, body: SetProjectRepositoriesInput },
  ({ ctx, params, body }) => setProjectRepositories(ctx, null, params.projectId, body),
);
