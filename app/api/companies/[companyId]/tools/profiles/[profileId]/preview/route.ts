import { ProfileParams } from "@/server/http/params";
import { route } from "@/server/http/route";
import { previewProfile } from "@/server/tools/profile-preview";

export const GET = route({ actors: ["board"], params: ProfileParams }, ({ ctx, params }) =>
  previewProfile(ctx, params.companyId, params.profileId),
);
