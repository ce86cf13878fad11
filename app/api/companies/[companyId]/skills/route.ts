import { CreateSkillInput, createSkill, listSkills } from "@/server/core/skills";
import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  skills: await listSkills(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateSkillInput, status: 201 },
  ({ ctx, params, body }) => createSkill(ctx, params.companyId, body),
);
