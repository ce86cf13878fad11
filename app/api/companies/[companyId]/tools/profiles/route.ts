import { CompanyParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { CreateProfileInput, createProfile, listProfiles } from "@/server/tools/profiles";

export const GET = route({ actors: ["board"], params: CompanyParams }, async ({ ctx, params }) => ({
  profiles: await listProfiles(ctx, params.companyId),
}));

export const POST = route(
  { actors: ["board"], params: CompanyParams, body: CreateProfileInput, status: 201 },
  ({ ctx, params, body }) => createProfile(ctx, params.companyId, body),
);
