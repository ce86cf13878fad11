import { ProfileParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { deleteProfile, getProfile, UpdateProfileInput, updateProfile } from "@/server/tools/profiles";

export const GET = route({ actors: ["board"], params: ProfileParams }, ({ ctx, params }) =>
  getProfile(ctx, params.companyId, params.profileId),
);

export const PATCH = route(
  { actors: ["board"], params: ProfileParams, body: UpdateProfileInput },
  ({ ctx, params, body }) => updateProfile(ctx, params.companyId, params.profileId, body),
);

export const DELETE = route({ actors: ["board"], params: ProfileParams }, ({ ctx, params }) =>
  deleteProfile(ctx, params.companyId, params.profileId),
);
