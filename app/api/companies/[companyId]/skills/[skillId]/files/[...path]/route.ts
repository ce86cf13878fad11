import { RevisionedWrite } from "@/server/core/revisioned";
import { readSkillFile, writeSkillFile } from "@/server/core/skills";
import { SkillFileParams } from "@/server/http/config-params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: SkillFileParams }, ({ ctx, params }) =>
  readSkillFile(ctx, params.companyId, params.skillId, params.path),
);

export const PUT = route(
  { actors: ["board"], params: SkillFileParams, body: RevisionedWrite },
  ({ ctx, params, body }) => writeSkillFile(ctx, params.companyId, params.skillId, params.path, body),
);
