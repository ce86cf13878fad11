import { UpdateSkillInput, updateSkill } from "@/server/core/skills";
import { SkillParams } from "@/server/http/config-params";
import { route } from "@/server/http/route";

export const PATCH = route(
  { actors: ["board"], params: SkillParams, body: UpdateSkillInput },
  ({ ctx, params, body }) => updateSkill(ctx, params.companyId, params.skillId, body),
);
